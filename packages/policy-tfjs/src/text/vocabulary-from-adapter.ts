import { createRng, type Seed, type TaskAdapter } from '@skillrl/core';
import { type Vocabulary, vocabularyFromTexts } from './vocabulary.js';

export interface VocabularyFromAdapterOptions {
  split?: string;
  /** Episodes to walk with random admissible actions, collecting every text seen (default 60). */
  episodes?: number;
  /** Random steps per episode (default 15). */
  steps?: number;
  seed?: Seed;
  hashBuckets?: number;
  maxWords?: number;
}

/**
 * The environment's own words: task prompts, observations and admissible actions met on short random walks,
 * plus the adapter's skills and step vocabulary. Words met later and not collected here hash into buckets.
 */
export async function vocabularyFromAdapter(
  adapter: TaskAdapter,
  options: VocabularyFromAdapterOptions = {},
): Promise<Vocabulary> {
  const rng = createRng(options.seed ?? 'policy-tfjs-vocabulary');
  const texts: string[] = [];
  const tasks = await adapter.load({
    split: options.split ?? 'train',
    limit: options.episodes ?? 60,
    seed: 0,
  });
  for (const task of tasks) {
    texts.push(task.prompt);
    const env = await adapter.createEnvironment(task);
    texts.push(await env.reset());
    for (let i = 0; i < (options.steps ?? 15); i++) {
      const actions = env.admissibleActions?.() ?? [];
      if (actions.length === 0) break;
      texts.push(...actions);
      const result = await env.step(rng.pick(actions));
      texts.push(result.observation);
      if (result.done) break;
    }
    await env.close?.();
  }
  for (const skill of (await adapter.skills?.()) ?? []) texts.push(skill.description, skill.body);
  for (const phrases of Object.values(adapter.stepVocabulary?.() ?? {})) texts.push(...phrases);
  return vocabularyFromTexts(texts, {
    ...(options.hashBuckets !== undefined && { hashBuckets: options.hashBuckets }),
    ...(options.maxWords !== undefined && { maxWords: options.maxWords }),
  });
}
