import type { ComponentKind, JsonObject, PolicyTrainer } from '@skillrl/core';

/**
 * A built-in component: the package that provides it and the names of its exports. What its options mean
 * (which are required, which files they name, where its key is read from) is that package's; `call-builtin.ts`
 * calls the same exports the same way for every built-in.
 */
export interface BuiltinEntry {
  /** The package (or package subpath) that provides it: named in the error when it is not installed. */
  package: string;
  describe: string;
  /**
   * The factory's export, called `(options, context)` with the options as the config gives them and the
   * context a plugin's factory gets, plus `path` (where the options sit, for messages) and `importModule` (a
   * module resolved from the config's folder). An adapter's factory takes its options alone, data paths read
   * from the config's folder; an adapter given no options is its package's default export. A function is a
   * component of the orchestrator's own.
   */
  create: string | ((options: JsonObject) => unknown);
  /** The export that checks its options, `(options, path, use, configPath)` → every problem by path. */
  check?: string;
  /** The (light) subpath that exports `check`, when not `package`: checking then loads no tfjs. */
  checkFrom?: string;
  /** Where its options sit in a config, when not where its kind's do. */
  at?: string;
  /**
   * What the package imports that an install may lack (tfjs, an optional peer), in the order it imports
   * them: `skillrl check` looks for them from the package's folder, so an LLM-only install is told what to add.
   */
  peers?: readonly string[];
  /** Its state in a checkpoint folder: `load(dir)` exported, and `save(component, dir)` or its own `save(dir)`. */
  persistence?: { load: string; save?: string };
  /** A trainer that updates no policy (`external`): the agent beside it is not trained by the run. */
  updatesNoPolicy?: boolean;
  /**
   * `skillrl check` only, after every other check passed: the export, called as `create` is, that starts
   * what the component needs at run time and returns the problems. Never called by a run.
   */
  probe?: string;
  /**
   * What its `trainer` option may name, from packages it may not import itself: the package, the export that
   * builds the training (`{ seed, options, configPath }`, handed to the factory as `context.trainers`) and the
   * export that checks the trainer's options (at `<options>.trainer.options`).
   */
  trainers?: Readonly<Record<string, { package: string; create: string; check: string }>>;
}

const TINKER = '@skillrl/trainer-tinker';
const TFJS_PEERS = ['@skillrl/tensor-ops', '@tensorflow/tfjs'];

/** A built-in adapter: its package's `create<Name>Adapter` and `check<Name>AdapterOptions`. */
const adapter = (pkg: string, name: string, describe: string): BuiltinEntry => ({
  package: pkg,
  describe,
  create: `create${name}Adapter`,
  check: `check${name}AdapterOptions`,
});

const adapters: Record<string, BuiltinEntry> = {
  household: adapter('@skillrl/task-household', 'Household', 'ALFWorld-like household tasks (offline)'),
  shop: adapter('@skillrl/task-shop', 'Shop', 'WebShop-like shopping tasks (offline)'),
  qa: adapter('@skillrl/task-qa', 'Qa', 'question answering over generated sets'),
  gaia: adapter(
    '@skillrl/task-qa',
    'Gaia',
    "GAIA from its metadata.jsonl (options: path), graded by GAIA's scorer",
  ),
  webwalker: adapter(
    '@skillrl/task-qa',
    'WebWalker',
    'WebWalkerQA from its JSONL rows (options: path, pages, verifier: { judge })',
  ),
  'qa-jsonl': adapter(
    '@skillrl/task-qa',
    'Jsonl',
    'questions and answers from any JSONL file (options: path, fields)',
  ),
};

const agents: Record<string, BuiltinEntry> = {
  openai: {
    package: '@skillrl/rollout',
    describe: 'an LLM over any OpenAI-compatible endpoint (options: model, baseURL, apiKeyEnv, ...)',
    create: 'createOpenAIAgentFromConfig',
    check: 'checkOpenAIAgentConfigOptions',
  },
  tinker: {
    package: TINKER,
    describe:
      'an LLM sampled from its Tinker sampler checkpoint (hosted Tinker or self-hosted skyrl-tx), trained by internalize.trainer: tinker (options: baseModel, tokenizer, baseURL, apiKeyEnv, loraRank, maxTokens, ...)',
    create: 'createTinkerAgentFromConfig',
    // A trained agent samples on-policy (the package refuses temperature != 1, topP, topK then).
    check: 'checkTinkerAgentOptions',
  },
  program: {
    package: '@skillrl/agent-proxy',
    describe:
      'any program as the task model (agent: { program: { command | package, cwd, env, timeoutMs, concurrency, upstream, injectSkill } }): run per episode behind a recording OpenAI-compatible proxy, the task served over MCP',
    create: 'createProgramAgentFromConfig',
    check: 'checkProgramAgentOptions',
    at: 'agent.program',
    // `skillrl check` only: the proxy and the MCP server start here, and the upstream answers.
    probe: 'probeProgramAgentFromConfig',
  },
  'skill-reading': {
    package: '@skillrl/policy-tfjs',
    peers: TFJS_PEERS,
    describe: 'the small in-process tfjs agent that reads skills (offline SKILLC task model)',
    create: 'createSkillReadingAgentFromConfig',
    check: 'checkSkillReadingAgentOptions',
    checkFrom: '@skillrl/policy-tfjs/options',
    persistence: { save: 'saveSkillReadingAgent', load: 'loadSkillReadingAgent' },
  },
};

const generators: Record<string, BuiltinEntry> = {
  'step-editor': {
    // The subpath that loads tfjs; its root, which carries the check, loads none.
    package: '@skillrl/skill-generator/step-editor',
    peers: TFJS_PEERS,
    describe: 'the trainable in-process step editor over the adapter step vocabulary (offline Skill-R1)',
    create: 'createStepEditorFromConfig',
    check: 'checkStepEditorOptions',
    checkFrom: '@skillrl/skill-generator',
    persistence: { load: 'loadStepEditor' },
  },
  'llm-editor': {
    // The subpath that loads no tfjs.
    package: '@skillrl/skill-generator/llm-editor',
    describe:
      'the LLM skill editor over an OpenAI-compatible endpoint (inference), or on Tinker with trainer: tinker (trained by Skill-R1 GRPO)',
    create: 'createLlmEditorFromConfig',
    check: 'checkLlmEditorOptions',
    trainers: {
      tinker: { package: TINKER, create: 'createTinkerEditorTraining', check: 'checkTinkerEditorOptions' },
    },
  },
};

const trainers: Record<string, BuiltinEntry> = {
  external: {
    package: '@skillrl/core',
    describe: 'no in-process update: train elsewhere from `skillrl export` (rollouts with their advantages)',
    updatesNoPolicy: true,
    // It trains nothing, and says so: the loop reports that no update happened and marks its validations
    // and curriculum decisions as made against a frozen policy. Its check refuses every option.
    create: (): PolicyTrainer => ({ updatesPolicy: false, update: async () => ({}) }),
    check: 'checkExternalTrainerOptions',
  },
  tinker: {
    package: TINKER,
    describe:
      'one on-policy update of the tinker agent per step on the Tinker API: forward_backward with the loss, optim_step, new sampler weights (options: loss, learningRate, chunkSize, ...)',
    create: 'createTinkerTrainerFromConfig',
    check: 'checkTinkerTrainerOptions',
  },
  tfjs: {
    package: '@skillrl/policy-tfjs',
    peers: TFJS_PEERS,
    describe: 'in-process policy-gradient trainer for the skill-reading agent',
    create: 'createTfjsTrainerFromConfig',
    check: 'checkTfjsTrainerOptions',
    checkFrom: '@skillrl/policy-tfjs/options',
  },
};

export const BUILTIN_COMPONENTS: { [K in ComponentKind]: Record<string, BuiltinEntry> } = {
  adapter: adapters,
  agent: agents,
  generator: generators,
  trainer: trainers,
  estimator: {},
};
