import {
  type Agent,
  type AgentAction,
  type AgentContext,
  createRng,
  InvalidArgumentError,
  type Seed,
  type Task,
  throwOnOptionIssues,
} from '@skillrl/core';
import { type BackendInfo, ensureBackend } from '@skillrl/tensor-ops';
import { type AgentConfig, resolveAgentConfig } from '../model/agent-config.js';
import {
  type DecisionRecord,
  decodeDecisionRecord,
  type StoredDecisionRecord,
} from '../model/decision-record.js';
import { createDecisionEncoder } from '../model/encode-decision.js';
import {
  type AgentParameters,
  checkParameters,
  copyParameters,
  initParameters,
} from '../model/parameters.js';
import { createEmbeddingCache, type EmbeddingCache, scoreDecisions } from '../model/score-decision.js';
import type { GoalBindings } from '../skill/skill-clauses.js';
import type { Vocabulary } from '../text/vocabulary.js';
import { checkSkillReadingAgentOptions } from './check-skill-reading-agent-options.js';
import { saveSkillReadingAgent } from './checkpoint.js';
import { expandTemplates } from './expand-templates.js';

export interface SkillReadingAgentOptions {
  /** Word ids: `vocabularyFromAdapter(adapter)` or `vocabularyFromTexts(texts)`. */
  vocabulary: Vocabulary;
  /** Seeds the initial weights and, when a context carries no seed, the sampling stream (default 0). */
  seed?: Seed;
  config?: Partial<AgentConfig>;
  /** Start from these weights instead of a fresh initialisation (copied). */
  parameters?: AgentParameters;
  /** Softmax temperature (default 1). */
  temperature?: number;
  /** Take the most probable action instead of sampling (evaluation; default false). */
  greedy?: boolean;
  /** What "the object" and "the target receptacle" mean in a task (default: `goalBindings`). */
  bindings?: (task: Task) => GoalBindings;
  /** Turns the admissible list into candidates (default: `expandTemplates`). */
  expandActions?: (actions: readonly string[], task: Task) => string[];
}

export interface ActionDistribution {
  candidates: string[];
  /** The memory's word ids this decision read (not part of the record: see `memoryIds`). */
  memory: number[];
  /** Log-probabilities of the candidates, in order, at the agent's temperature. */
  logProbs: Float64Array;
  /** What the network read. */
  record: DecisionRecord;
  /** The same decision as `act` stores it on the step (`info.policy`). */
  stored: StoredDecisionRecord;
}

export interface SkillReadingAgent extends Agent {
  readonly name: string;
  readonly config: AgentConfig;
  readonly vocabulary: Vocabulary;
  readonly temperature: number;
  readonly greedy: boolean;
  /**
   * The live weights, shared with every `withSampling` view and replaced by the trainer through
   * `setParameters`. Read-only: acting caches what it computed from them until they are replaced, so a write
   * into these arrays in place would not be seen.
   */
  readonly parameters: AgentParameters;
  act(context: AgentContext): Promise<AgentAction>;
  /** The policy's distribution over the candidates for a context, without choosing. */
  distribution(context: AgentContext): ActionDistribution;
  /**
   * `distribution` of several contexts at once (a round of decisions of concurrent episodes), with one
   * hidden-layer product for all of them; each entry equals `distribution` of its context exactly.
   */
  distributions(contexts: readonly AgentContext[]): ActionDistribution[];
  /**
   * `act` on several contexts at once: what an episode collector calls with one decision of each episode it
   * runs. Entry i is exactly what `act(contexts[i])` returns: each decision draws from its own context's seed
   * (contexts without one draw from the agent's stream in order), so batching never changes a trajectory.
   */
  actMany(contexts: readonly AgentContext[]): Promise<AgentAction[]>;
  /**
   * The memory's word ids for a decision taken after these earlier actions of the episode: what a trainer
   * passes to `packBatch` beside the stored records (the records do not carry it).
   */
  memoryIds(actions: readonly string[]): number[];
  /** `memoryIds` for every decision of one episode at once (entry i: after the first i actions). */
  episodeMemories(actions: readonly string[]): number[][];
  /**
   * The network's record of a stored decision (a step's `info.policy`): the very record when this agent (or
   * a view sharing its weights) made it, else decoded with this agent's vocabulary (`decodeDecisionRecord`).
   * Undefined for anything else.
   */
  decisionRecord(stored: unknown): DecisionRecord | undefined;
  /** The same weights with other sampling settings (e.g. `{ greedy: true }` for evaluation). */
  withSampling(options: { temperature?: number; greedy?: boolean; seed?: Seed }): SkillReadingAgent;
  /** Replaces the weights in place (shapes are checked). */
  setParameters(parameters: AgentParameters): void;
  /** Writes `config.json` (config + vocabulary + weight layout) and `weights.bin` (float32, little-endian). */
  save(dir: string): Promise<void>;
  /**
   * Resolves once the tfjs backend is chosen and active (tensor-ops' `ensureBackend`, started when the agent
   * is created, shared by its `withSampling` views). Acting reads typed arrays; the trainer, `createTfPolicy`
   * and a step editor beside it compute on that backend.
   */
  ready(): Promise<BackendInfo>;
}

interface SharedState {
  parameters: AgentParameters;
  /** The records behind the stored decisions acting made, for an in-process trainer. */
  records: WeakMap<StoredDecisionRecord, DecisionRecord>;
  /** Mean embeddings of the word lists acting has scored under `parameters` (dropped when they change). */
  means: EmbeddingCache;
  backend: Promise<BackendInfo>;
}

/**
 * A small policy for text environments with an admissible-action list that reads skills from its first
 * step: each candidate action attends over the skill's clauses (token overlap after binding the goal's
 * object and receptacle), with completed clauses down-weighted, and that prior is added to a learned
 * bilinear scorer over goal, observation and recent-action embeddings.
 */
export function createSkillReadingAgent(options: SkillReadingAgentOptions): SkillReadingAgent {
  throwOnOptionIssues(checkSkillReadingAgentOptions(options, 'options'), 'skill-reading agent');
  const config = resolveAgentConfig(options.config);
  const vocabulary = options.vocabulary;
  const parameters = options.parameters
    ? copyParameters(options.parameters)
    : initParameters(config, vocabulary.size, options.seed ?? 0);
  checkParameters(parameters, config, vocabulary.size);
  // Started here, so that whatever in the process computes with tfjs next finds the backend chosen (wasm
  // before cpu) instead of tfjs starting its cpu backend, and its banner, at the first tensor.
  const backend = ensureBackend();
  // Not lost if nobody awaits it: `ready()` (and the trainer's own call) report a failure.
  backend.catch(() => {});
  return makeAgent(
    { parameters, records: new WeakMap(), means: createEmbeddingCache(), backend },
    config,
    options,
  );
}

function makeAgent(
  state: SharedState,
  config: AgentConfig,
  options: SkillReadingAgentOptions,
): SkillReadingAgent {
  const temperature = options.temperature ?? 1;
  if (!(temperature > 0)) {
    throw new InvalidArgumentError('options.temperature', `expected a number > 0, got ${temperature}`);
  }
  const greedy = options.greedy ?? false;
  const vocabulary = options.vocabulary;
  const encoder = createDecisionEncoder({
    config,
    vocabulary,
    ...(options.bindings && { bindings: options.bindings }),
  });
  const expand = options.expandActions ?? expandTemplates;
  const stream = createRng(options.seed ?? 0).fork('act');
  let decisions = 0;

  const encode = (context: AgentContext) => {
    const admissible = context.admissibleActions;
    if (!admissible || admissible.length === 0) {
      throw new InvalidArgumentError(
        'context.admissibleActions',
        'this agent chooses among admissible actions; the environment must implement admissibleActions()',
      );
    }
    const candidates = expand(admissible, context.task);
    return { candidates, ...encoder.encodeWithMemory(context, candidates, temperature) };
  };
  const distributions = (contexts: readonly AgentContext[]): ActionDistribution[] => {
    const encoded = contexts.map(encode);
    const logProbs = scoreDecisions(
      state.parameters,
      encoded.map((e, i) => ({
        record: e.record,
        memory: e.memoryIds,
        memoryStart: e.memoryStart,
        memoryEnd: e.memoryEnd,
        episode: (contexts[i] as AgentContext).history,
      })),
      config.dim,
      state.means,
    );
    return encoded.map(({ candidates, memory, record, stored }, i) => ({
      candidates,
      // Copied out only when read: acting itself scores the episode's ids in place.
      get memory() {
        return memory();
      },
      logProbs: logProbs[i] as Float64Array,
      record,
      stored,
    }));
  };
  const choose = (context: AgentContext, { candidates, logProbs, record, stored }: ActionDistribution) => {
    let chosen = 0;
    if (greedy) {
      for (let c = 1; c < candidates.length; c++) {
        if ((logProbs[c] as number) > (logProbs[chosen] as number)) chosen = c;
      }
    } else {
      // One uniform draw per decision, from the context's seed when the episode loop gives one.
      const rng = context.seed !== undefined ? createRng(context.seed) : stream.fork(decisions);
      decisions += 1;
      let u = rng.float();
      chosen = candidates.length - 1;
      for (let c = 0; c < candidates.length; c++) {
        u -= Math.exp(logProbs[c] as number);
        if (u < 0) {
          chosen = c;
          break;
        }
      }
    }
    record.chosen = chosen;
    stored.chosen = chosen;
    state.records.set(stored, record);
    return {
      action: candidates[chosen] as string,
      logProb: logProbs[chosen] as number,
      info: { policy: stored },
    };
  };

  const agent: SkillReadingAgent = {
    name: 'skill-reading-tfjs',
    config,
    vocabulary,
    temperature,
    greedy,
    get parameters() {
      return state.parameters;
    },
    distribution: (context) => distributions([context])[0] as ActionDistribution,
    distributions,
    memoryIds: (actions) => encoder.memory(actions),
    episodeMemories: (actions) => encoder.memories(actions),
    decisionRecord(stored) {
      const known = state.records.get(stored as StoredDecisionRecord);
      if (known) return known;
      const decoded = decodeDecisionRecord(stored, vocabulary, encoder.wordIds);
      // Kept, so a batch replayed from disk is decoded once, not at every update.
      if (decoded && typeof stored === 'object' && stored !== null) {
        state.records.set(stored as StoredDecisionRecord, decoded);
      }
      return decoded;
    },
    async act(context) {
      return choose(context, distributions([context])[0] as ActionDistribution);
    },
    async actMany(contexts) {
      const all = distributions(contexts);
      return contexts.map((context, i) => choose(context, all[i] as ActionDistribution));
    },
    withSampling(sampling) {
      return makeAgent(state, config, {
        ...options,
        temperature: sampling.temperature ?? temperature,
        greedy: sampling.greedy ?? greedy,
        seed: sampling.seed ?? options.seed ?? 0,
      });
    },
    setParameters(next) {
      checkParameters(next, config, vocabulary.size);
      state.parameters = copyParameters(next);
    },
    save: (dir) => saveSkillReadingAgent(agent, dir),
    ready: () => state.backend,
  };
  return agent;
}
