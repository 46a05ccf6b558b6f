import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPythonFloat, parsePythonFloat } from './parse-python-float.js';

// Each row is what CPython 3.11's float(...) returns (checked with `python3 -c 'print(float(...))'`);
// undefined marks a ValueError.
const TABLE: Array<[string, number | undefined]> = [
  ['42', 42],
  ['  42  ', 42],
  ['\t\n\v\f\r3\r\n', 3],
  ['+1.5', 1.5],
  ['-0.25', -0.25],
  ['.5', 0.5],
  ['5.', 5],
  ['.', undefined],
  ['', undefined],
  ['   ', undefined],
  ['1e3', 1000],
  ['1E-2', 0.01],
  ['1e+2', 100],
  ['1e', undefined],
  ['e5', undefined],
  ['1e2.5', undefined],
  ['1_000', 1000],
  ['1_000.000_1', 1000.0001],
  ['1e1_0', 1e10],
  ['1__000', undefined],
  ['_1', undefined],
  ['1_', undefined],
  ['1_.5', undefined],
  ['1._5', undefined],
  ['1_e5', undefined],
  ['inf', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
  ['+iNfInItY', Number.POSITIVE_INFINITY],
  ['infin', undefined],
  ['in_f', undefined],
  ['0x10', undefined],
  ['1,000', undefined],
  ['$5', undefined],
  ['5%', undefined],
  ['1 000', undefined],
  ['--1', undefined],
  ['+-1', undefined],
  ['007', 7],
  ['1e400', Number.POSITIVE_INFINITY],
  ['\u00a012\u3000', 12], // NO-BREAK SPACE and IDEOGRAPHIC SPACE are stripped
  ['\u0663\u0661', 31], // ARABIC-INDIC digits three, one
  ['\u0967_\u0968', 12], // DEVANAGARI one _ two
  ['\uff11\uff12', 12], // FULLWIDTH digits
  ['\u{1d7d9}', 1], // MATHEMATICAL DOUBLE-STRUCK DIGIT ONE (the second run of ten in that block)
  ['\x1c1', undefined], // str.isspace() is true for U+001C, but float() only strips ASCII whitespace
  ['1\x00', undefined],
  ['Ⅻ', undefined], // a Roman numeral is numeric but not a decimal digit
  ['\ufeff1', undefined], // BOM is whitespace to JavaScript, not to Python
];

describe('parsePythonFloat', () => {
  it.each(TABLE)('float(%j) → %s', (text, expected) => {
    expect(parsePythonFloat(text)).toBe(expected);
    expect(isPythonFloat(text)).toBe(expected !== undefined);
  });

  it('reads nan in any case and with a sign', () => {
    for (const text of ['nan', 'NaN', '-nan', '+NAN', ' nan\n']) expect(parsePythonFloat(text)).toBeNaN();
    expect(parsePythonFloat('nan1')).toBeUndefined();
  });

  it('keeps the sign of zero', () => {
    expect(Object.is(parsePythonFloat('-0'), -0)).toBe(true);
    expect(Object.is(parsePythonFloat('0'), 0)).toBe(true);
  });

  it('round-trips every finite double written by JavaScript', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        // String(x) writes the shortest round-tripping decimal, e.g. 1e+21 or 5e-324: valid Python too.
        // JavaScript writes -0 as "0", so compare -0 as 0.
        const expected = Object.is(x, -0) ? 0 : x;
        expect(parsePythonFloat(String(x))).toBe(expected);
        expect(parsePythonFloat(` ${x.toExponential()} `)).toBe(expected);
      }),
    );
  });

  it('accepts underscores exactly between digits', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 5 }), (groups) => {
        const withUnderscores = groups.join('_');
        expect(parsePythonFloat(withUnderscores)).toBe(Number(groups.join('')));
        expect(parsePythonFloat(`${withUnderscores}_`)).toBeUndefined();
        expect(parsePythonFloat(`_${withUnderscores}`)).toBeUndefined();
      }),
    );
  });
});
