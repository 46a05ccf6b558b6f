import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;
const cache = new Map<string, string[]>();
const CACHE_LIMIT = 50_000;

/**
 * The lower-cased nouns and proper nouns of a product name: what `get_type_reward` keeps from spaCy
 * (`t.text.lower()` for tokens whose `pos_` is NOUN or PROPN; its third label, PNOUN, is not a spaCy tag).
 * The tagger is winkNLP's English lite model, which emits the same Universal POS tags; the model is loaded
 * on first use and results are memoised, since the same product names recur across episodes.
 */
export function titleNouns(text: string): string[] {
  const hit = cache.get(text);
  if (hit) return hit;
  nlp ??= winkNLP(model);
  const its = nlp.its;
  const tokens = nlp.readDoc(text).tokens();
  const tags = tokens.out(its.pos);
  const words = tokens.out(its.value);
  const nouns: string[] = [];
  tags.forEach((tag, i) => {
    if (tag === 'NOUN' || tag === 'PROPN') nouns.push((words[i] ?? '').toLowerCase());
  });
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, nouns);
  return nouns;
}
