import type { JsonObject } from '../contracts/json.js';
import type { HealthOptions } from './health-options.js';
import type { StoreOptions } from './store-options.js';
import type { WorkersOptions } from './workers-options.js';

/**
 * A component named in a config: a registry name (`"household"`), or an object naming it and/or the npm
 * package (or relative module path) that provides it. Installing a package is enough to swap a part.
 */
export type ComponentSpec =
  | string
  | {
      /** Registry name, or the estimator name a package registers. */
      name?: string;
      /** npm package or module path, resolved from the config file's directory. */
      package?: string;
      /** Export of the package to use (default: `default`, then a kind-specific name). */
      export?: string;
      options?: JsonObject;
    };

export interface TaskSelection {
  split: string;
  limit?: number;
  /** Seed for generated benchmarks and for sampling `limit` tasks (default: the run seed). */
  seed?: number;
}

export interface EvolveSection {
  /** `skill-r1` (default), or the baselines `no-skill` and `vanilla-grpo` (G = 1, A_intra only). */
  variant?: 'skill-r1' | 'no-skill' | 'vanilla-grpo';
  /** `inference`: the editor is frozen; `grpo`: `editor.update` after each generation (default inference). */
  mode?: 'inference' | 'grpo';
  /** Generations G (default 3; `vanilla-grpo` forces 1). */
  generations?: number;
  /** Candidate skills K per generation (default 4). */
  candidates?: number;
  /** Task-model episodes M per candidate (default 2). */
  episodes?: number;
  /** Weight of A_inter (default 1; `vanilla-grpo` forces 0). */
  lambda?: number;
  /** The skill carried into the next generation: the best candidate (default) or one sampled by reward. */
  carry?: 'best' | 'sample';
  /**
   * Fresh episodes per task under the final carried skill (none for `no-skill`) after the last generation,
   * reported as `final_eval_reward` (default 0: none). The best of K candidates' M-episode means is biased
   * upward by the selection; these episodes are not.
   */
  finalEpisodes?: number;
  /**
   * Run the `finalEpisodes` of each task without its skill too (default true): each final skill's measured
   * utility, with − without success paired by task (`final_utility_*` in the summary, `utility` in the skill
   * bank and in exported skills' metadata). Only the runs with the skill enter `final_eval_*`.
   */
  finalPaired?: boolean;
  /**
   * Starting skill s0: the adapter's skill for the task's family (default), none (generation 0 is skipped),
   * or your own Agent Skills folder, `{ path }` (a SKILL.md, a `<name>/SKILL.md` folder, or a folder of them;
   * read from the config's folder): each task starts from the skill for its family (a skill listing no family
   * is for every task).
   */
  initialSkill?: 'adapter' | 'none' | { path: string };
  /**
   * Held-out task instances (e.g. `{ split: valid_unseen, limit: 24 }`) on which, after training, the editor
   * — frozen — runs the same loop from s0 (G generations of K candidates × M episodes, then `finalEpisodes`
   * fresh episodes under the carried skill): does what the editor learned transfer to tasks it never saw?
   * Reported as `heldout_final_eval_success` and `heldout_generation_<g>_mean`. Default none.
   */
  heldOut?: TaskSelection;
  /**
   * Editor calls retried per task and generation when one gives no valid candidate (each retry is told
   * what was wrong); past them the task keeps its current skill, or runs without one (default 2).
   */
  proposalRetries?: number;
  /**
   * The skill editor: `step-editor`, `llm-editor` (inference over an OpenAI-compatible `model`; with
   * `options.trainer: tinker` — or `{ name: tinker, options: { baseModel, tokenizer, loraRank, loss, … } }` — it
   * samples from and trains on the Tinker API, so `mode: grpo` updates it), or a package.
   */
  generator?: ComponentSpec;
}

export interface InternalizeSection {
  /** `skillc` (default), or the baselines `grpo` (no skills), `skill0`, `d2skill-mixed`. */
  variant?: 'skillc' | 'grpo' | 'skill0' | 'd2skill-mixed';
  /** SKILLC ablations (default none). */
  ablation?: 'none' | 'no-pairing' | 'fixed-rho' | 'no-pruning' | 'optimistic-start';
  /** Training steps (default 20). */
  steps?: number;
  /** Tasks sampled per step (default 4). */
  tasksPerStep?: number;
  /** Rollouts per task (default 8). */
  groupSize?: number;
  /** Paired validation every d steps (default 10), and after the last step. */
  validateEvery?: number;
  /** Episodes per validation task and condition (default 1). */
  validationEpisodes?: number;
  validation?: TaskSelection;
  /**
   * Held-out tasks evaluated once after training, with and without each family's skill, and never shown to
   * the curriculum (e.g. `{ split: valid_unseen }`): `test_success_without` and per-family rates. Default none.
   */
  test?: TaskSelection;
  /** Episodes per test task and condition (default 1). */
  testEpisodes?: number;
  /**
   * DAPO's dynamic sampling (verl's `algorithm.filter_groups`): groups whose rollouts all scored alike (by
   * `metric`: `score`, the default, or `success`) are dropped and fresh tasks refill the step, up to
   * `maxBatches` generation batches including the step's own (verl's `max_num_gen_batches`). Default off.
   */
  dynamicSampling?: { maxBatches: number; metric?: 'score' | 'success' };
  /** Options passed to the curriculum (SKILLC, SKILL0 or static) after the variant's own. */
  curriculum?: JsonObject;
  /**
   * The policy trainer: `tfjs` (the skill-reading agent), `tinker` (the tinker agent, one on-policy update per
   * step on the Tinker API), `external` (no update: `skillrl export`), or a package.
   */
  trainer?: ComponentSpec;
}

/** The config file, as written by the user (before defaults). */
export interface RunConfig {
  method: 'evolve' | 'internalize';
  seed: number;
  /** Run id: the folder under `runDir` (default `<method>-<seed>`). */
  name?: string;
  /** Parent folder of run directories, relative to the config file (default `runs`). */
  runDir?: string;
  adapter: ComponentSpec;
  tasks: TaskSelection;
  /** The task model: `openai` (any OpenAI-compatible endpoint), `skill-reading` (tfjs), `tinker` (a Tinker sampler), or a package. */
  agent: ComponentSpec;
  /**
   * Your own skills in place of the adapter's: an Agent Skills folder (a skill repository, `skillrl skills
   * export`'s output, or written by hand), read from the config's folder. `families` maps a skill's name to the
   * families it is for; otherwise its metadata's `skillrl.families` does, and a skill with none is general.
   * Evolve starts from them, internalize internalizes them, eval's with-skill side uses them. `lenient`: fields
   * that clients add (`disable-model-invocation`, `argument-hint`, `version`, ...) are warnings, not errors, for
   * published skills.
   */
  skills?: { dir: string; families?: Record<string, string[]>; lenient?: boolean };
  /** Overrides the method's estimator. */
  estimator?: ComponentSpec;
  /** Episodes in flight at once (default 8). */
  concurrency?: number;
  /** Per-episode step limit (default: the environment's). */
  maxSteps?: number;
  evolve?: EvolveSection;
  internalize?: InternalizeSection;
  /** The error budget: when the run stops because its calls fail (defaults in `HEALTH_DEFAULTS`). */
  health?: HealthOptions;
  /** The run directory's layout: segments, compression, checkpoints kept (defaults in `STORE_DEFAULTS`). */
  store?: StoreOptions;
  /** Run episodes on rollout workers through a BullMQ queue in Redis (`@skillrl/queue`) instead of here. */
  workers?: WorkersOptions;
}

/** A config after loading: validated, with where it came from. */
export interface LoadedConfig {
  config: RunConfig;
  /** Absolute path of the config file (packages resolve from its directory). */
  path: string;
}
