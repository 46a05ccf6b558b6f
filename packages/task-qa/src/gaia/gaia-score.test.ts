import { describe, expect, it } from 'vitest';
import { gaiaScore, gaiaScoreDetails, normalizeNumberStr, normalizeStr, splitString } from './gaia-score.js';

// [model answer, ground truth, official result, why]. Every row was worked by hand from the official rules
// and agrees with the Python scorer.
const TABLE: Array<[string | null, string, boolean, string]> = [
  // Numbers: truth parses as a float; $ % , are deleted from the answer, then float() or +inf.
  ['$1,000', '1000', true, '"$1,000" → "1000" → 1000.0 == 1000.0'],
  ['1,000.50', '1000.5', true, 'commas deleted'],
  ['45%', '45', true, '% deleted'],
  ['1e3', '1000', true, 'float("1e3") == 1000.0'],
  ['1000', '1e3', true, 'the truth may be in exponent form too'],
  ['1_000', '1000', true, 'Python float accepts _ between digits'],
  [' 17 ', '17', true, 'float() ignores surrounding whitespace'],
  ['17 apples', '17', false, '"17 apples" is not a float → inf'],
  ['seventeen', '17', false, 'words are not numbers'],
  ['0.1', '0.10', true, 'equal as floats'],
  ['3.0', '3', true, 'equal as floats'],
  ['nan', 'nan', false, 'nan == nan is False in Python'],
  ['inf', 'inf', true, 'inf == inf'],
  ['garbage', 'inf', true, 'an unparseable answer becomes inf, which equals a truth of inf'],
  ['€5', '5', false, 'only $ % , are deleted: "€5" is not a float'],
  ['5 USD', '5', false, 'units other than $ and % are not removed'],
  [null, '0', false, 'a missing answer is "None" → inf'],
  // Lists: truth contains , or ; and is not a float.
  ['a, b, c', 'a,b,c', true, 'split on [,;]; elements compared without whitespace'],
  ['a; b; c', 'a, b, c', true, '; and , are interchangeable separators'],
  ['A,B,C', 'a,b,c', true, 'lower-cased'],
  ['a,b', 'a,b,c', false, 'lengths differ'],
  ['c,b,a', 'a,b,c', false, 'order matters'],
  ['1, 2, 3', '1,2,3', true, 'numeric elements by float()'],
  ['$1, 2%, 3', '1,2,3', true, 'numeric elements strip $ and %'],
  ['a.,b', 'a,b', false, 'list elements keep punctuation: "a." != "a"'],
  ['St. Louis, Paris', 'St. Louis, Paris', true, 'punctuation kept on both sides'],
  ['St Louis, Paris', 'St. Louis, Paris', false, 'so a missing period fails in a list'],
  ['1000', '1,000', false, '"1,000" is not a float: list rule, 1 element vs 2'],
  ['1,000', '1,000', true, 'elements "1" and "000" match as numbers'],
  ['a,', 'a,', true, 'empty trailing elements compare equal'],
  [null, 'None, x', false, '"None" has one element, the truth two'],
  // Strings: whitespace removed everywhere, lower-cased, ASCII punctuation deleted.
  ['sea gull', 'seagull', true, 'all whitespace removed'],
  ['St. Louis', 'st louis', true, 'punctuation and case ignored'],
  [
    '"Hello, World!"',
    'hello world',
    true,
    "the truth has no , or ;: string rule, the answer's comma and quotes go",
  ],
  ['Hello-World', 'hello world', true, '- is deleted'],
  ['the apple', 'apple', false, 'articles are not removed'],
  ['café', 'cafe', false, 'accents are not folded'],
  ['ÉCOLE', 'école', true, 'Unicode lower-casing'],
  ['a\u00a0b', 'ab', true, 'NO-BREAK SPACE is whitespace to Python re'],
  ['None', 'none', true, 'the literal answer None'],
  [null, 'None', true, 'a missing answer equals a truth of "None"'],
  ['', 'x', false, 'empty answer'],
  ['...', '', true, 'only punctuation normalises to the empty string'],
];

describe('gaiaScore (official question_scorer)', () => {
  it.each(TABLE)('%j vs %j → %s (%s)', (answer, truth, expected) => {
    expect(gaiaScore(answer, truth)).toBe(expected);
  });

  it('undefined is treated like None', () => {
    expect(gaiaScore(undefined, 'None')).toBe(true);
  });

  it('reports which rule decided', () => {
    expect(gaiaScoreDetails('1', '1').rule).toBe('number');
    expect(gaiaScoreDetails('a,b', 'a,x')).toEqual({ correct: false, rule: 'list', elements: [true, false] });
    expect(gaiaScoreDetails('a', 'a;b')).toEqual({
      correct: false,
      rule: 'list',
      lengths: { answer: 1, truth: 2 },
    });
    expect(gaiaScoreDetails('x', 'y').rule).toBe('string');
  });
});

describe('the scorer helpers', () => {
  it('normalizeNumberStr deletes $ % , and falls back to +infinity', () => {
    expect(normalizeNumberStr('$1,234.5%')).toBe(1234.5);
    expect(normalizeNumberStr('12 km')).toBe(Number.POSITIVE_INFINITY);
  });

  it('splitString keeps empty pieces like re.split', () => {
    expect(splitString('a,,b;')).toEqual(['a', '', 'b', '']);
  });

  it('normalizeStr removes whitespace, lower-cases and optionally punctuation', () => {
    expect(normalizeStr(' A b\tC. ')).toBe('abc');
    expect(normalizeStr(' A b\tC. ', false)).toBe('abc.');
  });
});
