import {
  createRng,
  formatSkill,
  InvalidArgumentError,
  type LoadOptions,
  type Skill,
  type Task,
  type TaskAdapter,
  throwOnOptionIssues,
  type Verifier,
} from '@skillrl/core';
import { GENERATED_FAMILIES } from '../generated/families.js';
import type { GeneratedFamily, Profile } from '../generated/generated-family.js';
import { checkQaAdapterOptions } from './check-qa-adapter-options.js';
import { createQaEnvironment } from './qa-environment.js';

export const QA_SPLITS = ['train', 'valid_seen', 'valid_unseen'] as const;
export type QaSplit = (typeof QA_SPLITS)[number];

export interface QaAdapterOptions {
  /** Which generated families, in this order. Default all: arithmetic, countdown, game24, knights. */
  families?: readonly string[];
  /** Tasks per split when `load` has no `limit`. Default train 1000, valid_seen 100, valid_unseen 100. */
  sizes?: Partial<Record<QaSplit, number>>;
}

const DEFAULT_SIZES: Record<QaSplit, number> = { train: 1000, valid_seen: 100, valid_unseen: 100 };
/** Tries for an instance not yet in the split before a repeat is accepted (small families run out). */
const UNIQUE_TRIES = 200;

/** FNV-1a, 32 bits: a stable hash of an instance key, the same on every platform. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * `train` and `valid_seen` share one distribution and are split by instance: an instance whose key hashes to
 * 0 mod 10 belongs to `valid_seen`, every other one to `train`, so no puzzle is in both. `valid_unseen` draws
 * from the families' `unseen` ranges, which no `seen` instance can fall in.
 */
function belongs(split: QaSplit, key: string): boolean {
  if (split === 'valid_unseen') return true;
  return (hashKey(key) % 10 === 0) === (split === 'valid_seen');
}

/**
 * The default adapter: offline, seeded question answering over generated families with exact answers. Each
 * task is a one-step environment whose action is the answer and whose reward is the family verifier's score.
 * `load({ split, limit, seed })` is a pure function of its arguments (seed default 0); a smaller `limit` gives
 * a prefix of a larger one. Families take turns: task i belongs to family i mod F.
 */
export function createQaAdapter(options: QaAdapterOptions = {}): TaskAdapter {
  throwOnOptionIssues(checkQaAdapterOptions(options, 'options'), 'qa adapter');
  const names = options.families ?? Object.keys(GENERATED_FAMILIES);
  const families: GeneratedFamily[] = names.map((name) => {
    const family = GENERATED_FAMILIES[name];
    if (!family) {
      throw new InvalidArgumentError(
        'options.families',
        `unknown family ${JSON.stringify(name)}; expected some of ${Object.keys(GENERATED_FAMILIES).join(', ')}`,
      );
    }
    return family;
  });
  if (families.length === 0)
    throw new InvalidArgumentError('options.families', 'expected at least one family');
  const sizes = { ...DEFAULT_SIZES, ...options.sizes };
  const byName = new Map(families.map((f) => [f.name, f]));
  const verifierOf = (task: Task): Verifier => {
    const family = byName.get(task.family);
    if (!family) {
      throw new InvalidArgumentError(
        'task.family',
        `the qa adapter has no family ${JSON.stringify(task.family)}`,
      );
    }
    return family.verifier;
  };

  return {
    name: 'qa',
    families: families.map((f) => f.name),
    splits: QA_SPLITS,
    load(load: LoadOptions): Task[] {
      if (!(QA_SPLITS as readonly string[]).includes(load.split)) {
        throw new InvalidArgumentError(
          'options.split',
          `expected one of ${QA_SPLITS.join(', ')}, got ${JSON.stringify(load.split)}`,
        );
      }
      const split = load.split as QaSplit;
      const count = load.limit ?? sizes[split];
      if (!(Number.isInteger(count) && count >= 0)) {
        throw new InvalidArgumentError('options.limit', `expected an integer >= 0, got ${String(count)}`);
      }
      const seed = load.seed ?? 0;
      const profile: Profile = split === 'valid_unseen' ? 'unseen' : 'seen';
      const root = createRng(seed).fork(split);
      const state = families.map((f) => ({
        rng: root.fork(f.name),
        attempt: 0,
        keys: new Set<string>(),
        exhausted: false,
      }));
      const tasks: Task[] = [];
      for (let i = 0; i < count; i++) {
        const f = i % families.length;
        const family = families[f] as GeneratedFamily;
        const s = state[f] as (typeof state)[number];
        let tries = 0;
        for (;;) {
          const instance = family.generate(s.rng.fork(s.attempt++), profile);
          if (!belongs(split, instance.key)) continue;
          if (s.keys.has(instance.key) && !s.exhausted) {
            // Once a family has run out of new instances for this split, stop looking for more.
            if (++tries < UNIQUE_TRIES) continue;
            s.exhausted = true;
          }
          s.keys.add(instance.key);
          const j = Math.floor(i / families.length);
          tasks.push({
            id: `${family.name}-${split}-${seed}-${j}`,
            family: family.name,
            split,
            prompt: instance.prompt,
            answer: instance.answer,
            metadata: { ...instance.metadata, seed, key: instance.key },
          });
          break;
        }
      }
      return tasks;
    },
    createEnvironment(task: Task) {
      return createQaEnvironment(task, verifierOf(task));
    },
    verifier: verifierOf,
    skills(): Skill[] {
      return families.map((f) => structuredClone(f.skill));
    },
    stepVocabulary(): Record<string, string[]> {
      return Object.fromEntries(families.map((f) => [f.name, [...f.steps]]));
    },
  };
}

/** The starting skills as SKILL.md files, name → text (core's `formatSkill`). */
export function qaSkillFiles(adapter: TaskAdapter = createQaAdapter()): Record<string, string> {
  const skills = (adapter.skills?.() ?? []) as Skill[];
  return Object.fromEntries(skills.map((skill) => [skill.name, formatSkill(skill)]));
}
