/**
 * Words of a text, lower-cased, split on anything that is not a letter or digit, with English plurals folded
 * to the singular ("countertops" → "countertop", "dishes" → "dish", "shelves" → "shelf"), so that a skill's generic prose
 * ("dishes in cabinets") meets the environment's numbered names ("cabinet 3").
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length > 0) out.push(singular(raw));
  }
  return out;
}

function singular(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ves')) return `${word.slice(0, -3)}f`;
  if (/(?:sh|ch|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/**
 * Function words and counters: they carry no meaning for matching an action to a skill step ("go to the
 * sinkbasin" should match "go to sinkbasin 1" on "sinkbasin", not "go to cabinet 3" on "go to").
 */
const STOP_WORDS = new Set(
  (
    'a an the to go from in on into onto at of with by for and or then if it its is are be was were this that ' +
    'these those you your yours one each any some all n i me my we our do does can will would should could ' +
    'only when while before after first there here what which who where how as so than but not no never also ' +
    'just very more most same other another up out about over under again once second type both'
  ).split(' '),
);

/** True for words that count when matching actions to skill text: not a function word, not a number. */
export function isContentWord(word: string): boolean {
  return !STOP_WORDS.has(word) && !/^\d+$/.test(word);
}
