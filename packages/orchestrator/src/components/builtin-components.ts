import { existsSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import type {
  AdvantageEstimator,
  Agent,
  JsonObject,
  PolicyTrainer,
  SkillGenerator,
  TaskAdapter,
} from '@skillrl/core';
import {
  checkExternalTrainerOptions,
  InvalidArgumentError,
  MissingFieldError,
  registerSecret,
  throwOnOptionIssues,
} from '@skillrl/core';
import type { ComponentContext, ComponentKind, Persistence } from './component-types.js';
import { importBuiltin, importFromConfig, type ModuleNamespace } from './import-package.js';

type Fn = (...args: unknown[]) => unknown;

/** How the config uses a component, for the option checks that depend on it. */
export interface ComponentUse {
  /** The agent is trained by the run (internalize with a trainer that trains it, such as tinker). */
  trained?: boolean;
  /** The config's method (`evolve`, `internalize`). */
  method?: string;
}

export interface BuiltinEntry<T> {
  /** The package (or package subpath) that provides it: named in the error when it is not installed. */
  package: string;
  describe: string;
  create(mod: ModuleNamespace, options: JsonObject, ctx: ComponentContext): T | Promise<T>;
  persistence?(mod: ModuleNamespace): Persistence<T> | undefined;
  /**
   * What the package imports that an install may lack (tfjs, an optional peer), in the order it imports
   * them: `skillrl check` looks for them from the package's folder, so an LLM-only install is told what to add.
   */
  peers?: readonly string[];
  /** Packages besides `package` that these options need (`skillrl check` looks for them). */
  requires?(options: JsonObject): string[];
  /** Problems with the options that need the config's folder (a file they name), for `skillrl check`. */
  checkOptions?(options: JsonObject, configPath: string): { path: string; message: string }[];
  /**
   * The component package's own check of these options (every problem, by path), imported from it: called
   * by `skillrl check` when the package is installed, and before `create` by a run. The orchestrator keeps no
   * copy of a package's option lists.
   */
  checkPackageOptions?(
    options: JsonObject,
    configPath: string,
    use?: ComponentUse,
  ): Promise<{ path: string; message: string }[]>;
  /** A trainer that updates no policy (`external`): the agent beside it is not trained by the run. */
  updatesNoPolicy?: boolean;
  /**
   * `skillrl check` only, after every other check passed: what the component needs at run time is there
   * (a program agent's proxy and MCP server start, its upstream answers). Never called by a run.
   */
  probe?(
    mod: ModuleNamespace,
    options: JsonObject,
    configPath: string,
  ): Promise<{ path: string; message: string }[]>;
}

/**
 * `fn(options, path)` as `pkg` exports it; none when the installed version exports no such check (an older
 * one: its factory still checks when it builds).
 */
async function packageOptionCheck(
  pkg: string,
  fn: string,
  options: JsonObject,
  path: string,
  configPath: string,
  use: ComponentUse = {},
): Promise<{ path: string; message: string }[]> {
  let mod: ModuleNamespace;
  try {
    mod = await importBuiltin(pkg, `the options at ${path}`, configPath);
  } catch (error) {
    // An older version without the (light) subpath that carries the check: its factory checks when it builds.
    if ((error as { code?: string } | null)?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return [];
    throw error;
  }
  const check = mod[fn];
  return typeof check === 'function'
    ? ((check as Fn)(options, path, use) as { path: string; message: string }[])
    : [];
}

function exported(mod: ModuleNamespace, name: string, pkg: string): Fn {
  const fn = mod[name];
  if (typeof fn !== 'function') {
    throw new InvalidArgumentError(pkg, `expected it to export ${name}(); update the package`);
  }
  return fn as Fn;
}

function needAdapter(ctx: ComponentContext, what: string): TaskAdapter {
  if (!ctx.adapter) throw new MissingFieldError(what, 'adapter');
  return ctx.adapter;
}

/** Reads `apiKeyEnv` (an environment variable's name) into `apiKey`, registering it for redaction. */
export function withApiKey(options: JsonObject, path: string): Record<string, unknown> {
  const { apiKeyEnv, ...rest } = options;
  if (apiKeyEnv === undefined) return rest;
  if (typeof apiKeyEnv !== 'string')
    throw new InvalidArgumentError(`${path}.apiKeyEnv`, 'expected a variable name');
  const key = process.env[apiKeyEnv];
  if (key === undefined || key === '') {
    throw new InvalidArgumentError(`${path}.apiKeyEnv`, `the environment variable ${apiKeyEnv} is not set`);
  }
  registerSecret(key);
  return { ...rest, apiKey: key };
}

/**
 * A built-in adapter's data `path` (one file, or split → file) read relative to the config file, like
 * packages are, so a config runs the same from any working directory.
 */
function withDataPaths(options: JsonObject, configPath: string): JsonObject {
  const path = options.path;
  const base = dirname(configPath);
  const fix = (p: unknown) => (typeof p === 'string' && !isAbsolute(p) ? resolvePath(base, p) : p);
  if (typeof path === 'string') return { ...options, path: fix(path) as string };
  if (path !== null && typeof path === 'object' && !Array.isArray(path)) {
    return {
      ...options,
      path: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, fix(v)])) as JsonObject,
    };
  }
  return options;
}

const TINKER = '@skillrl/trainer-tinker';

/** A Tinker component's `tokenizer` folder, read relative to the config file like data paths. */
function withTokenizerPath(options: JsonObject, configPath: string): JsonObject {
  const tokenizer = options.tokenizer;
  if (typeof tokenizer !== 'string' || isAbsolute(tokenizer)) return options;
  return { ...options, tokenizer: resolvePath(dirname(configPath), tokenizer) };
}

/** The tokenizer folder a Tinker component names must hold the model's two tokenizer files. */
function checkTokenizerFolder(options: JsonObject, configPath: string, path: string) {
  const tokenizer = withTokenizerPath(options, configPath).tokenizer;
  if (typeof tokenizer !== 'string') return [];
  const missing = ['tokenizer.json', 'tokenizer_config.json'].filter((f) => !existsSync(join(tokenizer, f)));
  return missing.length === 0
    ? []
    : [
        {
          path: `${path}.tokenizer`,
          message: `${tokenizer} has no ${missing.join(' or ')} (the model's tokenizer files, e.g. \`huggingface-cli download <model> tokenizer.json tokenizer_config.json --local-dir <folder>\`)`,
        },
      ];
}

/** The `trainer` option of the LLM editor, as `{ name, options }`. */
function editorTrainer(options: JsonObject): { name: string; options: JsonObject } | undefined {
  const trainer = options.trainer;
  if (trainer === undefined) return undefined;
  if (typeof trainer === 'string') return { name: trainer, options: {} };
  if (trainer !== null && typeof trainer === 'object' && !Array.isArray(trainer)) {
    const t = trainer as { name?: unknown; options?: unknown };
    return { name: String(t.name), options: (t.options ?? {}) as JsonObject };
  }
  throw new InvalidArgumentError(
    'evolve.generator.options.trainer',
    'expected "tinker" or { name: tinker, options }',
  );
}

/**
 * A tfjs component (the skill-reading agent, the step editor) once its `ready()` has resolved: the tfjs
 * backend is then chosen (wasm before cpu, one choice for the process, shared with the tfjs trainer) before
 * the run's first tensor, which would otherwise start tfjs's slow cpu backend and print its banner. An older
 * package without `ready()` is returned as it is.
 */
async function withBackend<T>(component: T): Promise<T> {
  const ready = (component as { ready?: unknown }).ready;
  if (typeof ready === 'function') await (ready as () => Promise<unknown>).call(component);
  return component;
}

const adapterFrom =
  (factory: string) =>
  (mod: ModuleNamespace, options: JsonObject, ctx: ComponentContext): TaskAdapter =>
    Object.keys(options).length === 0
      ? (mod.default as TaskAdapter)
      : (exported(mod, factory, 'adapter package')(withDataPaths(options, ctx.configPath)) as TaskAdapter);

/** A built-in adapter's option check, as its package exports it (`check<Name>AdapterOptions`). */
const adapterOptionCheck =
  (pkg: string, fn: string): BuiltinEntry<TaskAdapter>['checkPackageOptions'] =>
  (options, configPath, use) =>
    packageOptionCheck(pkg, fn, options, '$.adapter.options', configPath, use);

const adapters: Record<string, BuiltinEntry<TaskAdapter>> = {
  household: {
    package: '@skillrl/task-household',
    describe: 'ALFWorld-like household tasks (offline)',
    create: adapterFrom('createHouseholdAdapter'),
    checkPackageOptions: adapterOptionCheck('@skillrl/task-household', 'checkHouseholdAdapterOptions'),
  },
  shop: {
    package: '@skillrl/task-shop',
    describe: 'WebShop-like shopping tasks (offline)',
    create: adapterFrom('createShopAdapter'),
    checkPackageOptions: adapterOptionCheck('@skillrl/task-shop', 'checkShopAdapterOptions'),
  },
  qa: {
    package: '@skillrl/task-qa',
    describe: 'question answering over generated sets',
    create: adapterFrom('createQaAdapter'),
    checkPackageOptions: adapterOptionCheck('@skillrl/task-qa', 'checkQaAdapterOptions'),
  },
  gaia: {
    package: '@skillrl/task-qa',
    describe: "GAIA from its metadata.jsonl (options: path), graded by GAIA's scorer",
    create: adapterFrom('createGaiaAdapter'),
    checkPackageOptions: adapterOptionCheck('@skillrl/task-qa', 'checkGaiaAdapterOptions'),
  },
  webwalker: {
    package: '@skillrl/task-qa',
    describe: 'WebWalkerQA from its JSONL rows (options: path, pages, verifier: { judge })',
    create: adapterFrom('createWebWalkerAdapter'),
    checkPackageOptions: adapterOptionCheck('@skillrl/task-qa', 'checkWebWalkerAdapterOptions'),
  },
  'qa-jsonl': {
    package: '@skillrl/task-qa',
    describe: 'questions and answers from any JSONL file (options: path, fields)',
    create: adapterFrom('createJsonlAdapter'),
    checkPackageOptions: adapterOptionCheck('@skillrl/task-qa', 'checkJsonlAdapterOptions'),
  },
};

const agents: Record<string, BuiltinEntry<Agent>> = {
  openai: {
    package: '@skillrl/rollout',
    describe: 'an LLM over any OpenAI-compatible endpoint (options: model, baseURL, apiKeyEnv, ...)',
    create(mod, options, ctx) {
      if (typeof options.model !== 'string') throw new MissingFieldError('agent.options', 'model');
      return exported(
        mod,
        'createOpenAIAgent',
        '@skillrl/rollout',
      )({
        seed: ctx.seed,
        ...withApiKey(options, 'agent.options'),
      }) as Agent;
    },
  },
  tinker: {
    package: TINKER,
    describe:
      'an LLM sampled from its Tinker sampler checkpoint (hosted Tinker or self-hosted skyrl-tx), trained by internalize.trainer: tinker (options: baseModel, tokenizer, baseURL, apiKeyEnv, loraRank, maxTokens, ...)',
    create(mod, options, ctx) {
      if (typeof options.baseModel !== 'string') throw new MissingFieldError('agent.options', 'baseModel');
      if (typeof options.tokenizer !== 'string') throw new MissingFieldError('agent.options', 'tokenizer');
      // The key is read by the client from the variable `apiKeyEnv` names (default TINKER_API_KEY), never from the config.
      return exported(
        mod,
        'createTinkerAgent',
        TINKER,
      )({ seed: ctx.seed, ...withTokenizerPath(options, ctx.configPath) }) as Agent;
    },
    checkOptions: (options, configPath) => checkTokenizerFolder(options, configPath, '$.agent.options'),
    // A trained agent samples on-policy (the package refuses temperature != 1, topP, topK then).
    checkPackageOptions: (options, configPath, use) =>
      packageOptionCheck(TINKER, 'checkTinkerAgentOptions', options, '$.agent.options', configPath, use),
  },
  program: {
    package: '@skillrl/agent-proxy',
    describe:
      'any program as the task model (agent: { program: { command | package, cwd, env, timeoutMs, concurrency, upstream, injectSkill } }): run per episode behind a recording OpenAI-compatible proxy, the task served over MCP',
    async create(mod, options, ctx) {
      return exported(
        mod,
        'createProgramAgent',
        '@skillrl/agent-proxy',
      )(await programOptions(options, ctx.configPath)) as Agent;
    },
    checkOptions: (options, configPath) => checkProgramFiles(options, configPath),
    checkPackageOptions: (options, configPath, use) =>
      packageOptionCheck(
        '@skillrl/agent-proxy',
        'checkProgramAgentOptions',
        options,
        '$.agent.program',
        configPath,
        use,
      ),
    // `skillrl check` only: the proxy and the MCP server start here, and the upstream answers.
    async probe(mod, options, configPath) {
      const probe = mod.probeProgramAgent;
      if (typeof probe !== 'function') return [];
      return (await probe(await programOptions(options, configPath))) as { path: string; message: string }[];
    },
  },
  'skill-reading': {
    package: '@skillrl/policy-tfjs',
    peers: ['@skillrl/tensor-ops', '@tensorflow/tfjs'],
    describe: 'the small in-process tfjs agent that reads skills (offline SKILLC task model)',
    create(mod, options, ctx) {
      const adapter = needAdapter(ctx, 'skill-reading agent');
      const vocabulary = exported(mod, 'vocabularyFromAdapter', '@skillrl/policy-tfjs')(adapter);
      return Promise.resolve(vocabulary).then((v) =>
        withBackend(
          exported(
            mod,
            'createSkillReadingAgent',
            '@skillrl/policy-tfjs',
          )({ seed: ctx.seed, ...options, vocabulary: v }) as Agent,
        ),
      );
    },
    // The light subpath: checking the options loads no tfjs.
    checkPackageOptions: (options, configPath, use) =>
      packageOptionCheck(
        '@skillrl/policy-tfjs/options',
        'checkSkillReadingAgentOptions',
        options,
        '$.agent.options',
        configPath,
        use,
      ),
    persistence(mod) {
      return {
        kind: 'dir',
        save: async (agent, dir) => {
          await exported(mod, 'saveSkillReadingAgent', '@skillrl/policy-tfjs')(agent, dir);
        },
        load: async (dir) =>
          (await exported(mod, 'loadSkillReadingAgent', '@skillrl/policy-tfjs')(dir)) as Agent,
      };
    },
  },
};

/**
 * The files `agent.program` names: its `cwd` exists, and its command's program is a file there (a path) or
 * on PATH (a bare name), as the operating system will look for it.
 */
function checkProgramFiles(options: JsonObject, configPath: string): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const base = dirname(configPath);
  const cwd = typeof options.cwd === 'string' ? resolvePath(base, options.cwd) : base;
  if (!existsSync(cwd)) {
    issues.push({ path: '$.agent.program.cwd', message: `${cwd} does not exist` });
    return issues;
  }
  const command = options.command;
  if (!Array.isArray(command) || typeof command[0] !== 'string' || command[0] === '') return issues;
  const program = command[0];
  if (program.includes('/')) {
    const file = resolvePath(cwd, program);
    if (!existsSync(file)) {
      issues.push({
        path: '$.agent.program.command',
        message: `${file} does not exist (paths are read from agent.program.cwd, default the config's folder)`,
      });
    }
  } else {
    const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
    if (!dirs.some((d) => existsSync(join(d, program)))) {
      issues.push({
        path: '$.agent.program.command',
        message: `"${program}" is not on PATH; give its path, or install it`,
      });
    }
  }
  for (const arg of command.slice(1)) {
    // A script argument next to the config (agent.py, agent.mjs) that is missing is the common mistake.
    if (typeof arg === 'string' && /\.(m?js|cjs|py|ts|rb|sh)$/.test(arg) && !arg.startsWith('-')) {
      const file = resolvePath(cwd, arg);
      if (!existsSync(file)) {
        issues.push({
          path: '$.agent.program.command',
          message: `${file} does not exist (read from agent.program.cwd, default the config's folder)`,
        });
      }
    }
  }
  return issues;
}

/**
 * `agent.program` as `createProgramAgent` takes it: `cwd` read from the config's folder, the module form
 * (`package`, `export`) imported like any plugin, the upstream's key checked and registered as a secret (the
 * proxy reads it from the variable; the program never sees it).
 */
async function programOptions(options: JsonObject, configPath: string): Promise<Record<string, unknown>> {
  const { package: specifier, export: exportName, cwd, upstream, ...rest } = options;
  const out: Record<string, unknown> = { ...rest };
  const base = dirname(configPath);
  out.cwd = typeof cwd === 'string' ? (isAbsolute(cwd) ? cwd : resolvePath(base, cwd)) : base;
  if (upstream === null || typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new MissingFieldError('agent.program', 'upstream');
  }
  const up = upstream as JsonObject;
  if (typeof up.model !== 'string') throw new MissingFieldError('agent.program.upstream', 'model');
  const apiKeyEnv = typeof up.apiKeyEnv === 'string' ? up.apiKeyEnv : undefined;
  if (apiKeyEnv !== undefined) {
    const key = process.env[apiKeyEnv];
    if (key === undefined || key === '') {
      throw new InvalidArgumentError(
        'agent.program.upstream.apiKeyEnv',
        `the environment variable ${apiKeyEnv} is not set`,
      );
    }
    registerSecret(key);
  } else if (process.env.OPENAI_API_KEY) {
    registerSecret(process.env.OPENAI_API_KEY);
  }
  out.upstream = up;
  if (typeof specifier === 'string') {
    if (out.command !== undefined) {
      throw new InvalidArgumentError(
        'agent.program',
        'give command (an executable) or package (a module function), not both',
      );
    }
    const mod = await importFromConfig(specifier, configPath, 'agent.program.package');
    const name = typeof exportName === 'string' ? exportName : undefined;
    const fn = name ? mod[name] : (mod.run ?? mod.default);
    if (typeof fn !== 'function') {
      throw new InvalidArgumentError(
        name ? 'agent.program.export' : 'agent.program.package',
        `${specifier} exports no function ${name ? `"${name}"` : '"run" or default'}: export run(task, ctx) => Promise<answer>`,
      );
    }
    out.run = fn;
  }
  return out;
}

const generators: Record<string, BuiltinEntry<SkillGenerator>> = {
  'step-editor': {
    // The subpath that loads tfjs; needs @skillrl/tensor-ops and @tensorflow/tfjs installed.
    package: '@skillrl/skill-generator/step-editor',
    peers: ['@skillrl/tensor-ops', '@tensorflow/tfjs'],
    describe: 'the trainable in-process step editor over the adapter step vocabulary (offline Skill-R1)',
    create(mod, options, ctx) {
      const adapter = needAdapter(ctx, 'step-editor');
      if (!adapter.stepVocabulary) {
        throw new InvalidArgumentError(
          'evolve.generator',
          `adapter "${adapter.name}" has no stepVocabulary(); use "llm-editor"`,
        );
      }
      return withBackend(
        exported(
          mod,
          'createStepEditor',
          '@skillrl/skill-generator',
        )({
          seed: ctx.seed,
          ...options,
          vocabulary: adapter.stepVocabulary(),
        }) as SkillGenerator,
      );
    },
    // The package root loads no tfjs: checking the options does not need the peers.
    checkPackageOptions: (options, configPath, use) =>
      packageOptionCheck(
        '@skillrl/skill-generator',
        'checkStepEditorOptions',
        options,
        '$.evolve.generator.options',
        configPath,
        use,
      ),
    persistence(mod) {
      return {
        kind: 'dir',
        save: (editor, dir) => (editor as SkillGenerator & { save(dir: string): Promise<void> }).save(dir),
        load: async (dir) =>
          (await exported(mod, 'loadStepEditor', '@skillrl/skill-generator')(dir)) as SkillGenerator,
      };
    },
  },
  'llm-editor': {
    // The subpath that loads no tfjs.
    package: '@skillrl/skill-generator/llm-editor',
    describe:
      'the LLM skill editor over an OpenAI-compatible endpoint (inference), or on Tinker with trainer: tinker (trained by Skill-R1 GRPO)',
    async create(mod, options, ctx) {
      const trainer = editorTrainer(options);
      if (trainer) {
        const { trainer: _trainer, ...rest } = options;
        if (trainer.name !== 'tinker') {
          throw new InvalidArgumentError(
            'evolve.generator.options.trainer',
            `unknown trainer "${trainer.name}"; the LLM editor trains with "tinker"`,
          );
        }
        if (rest.model !== undefined) {
          throw new InvalidArgumentError(
            'evolve.generator.options.model',
            'an editor trained on Tinker samples from its own training run: give trainer.options (baseModel, tokenizer, ...) and no model',
          );
        }
        const tinker = await importBuiltin(
          TINKER,
          'evolve.generator.options.trainer "tinker"',
          ctx.configPath,
        );
        const parts = exported(
          tinker,
          'createTinkerEditorParts',
          TINKER,
        )({
          seed: ctx.seed,
          ...withTokenizerPath(trainer.options, ctx.configPath),
        }) as { model: unknown; train: (editor: SkillGenerator) => SkillGenerator };
        const editor = exported(
          mod,
          'createLlmSkillEditor',
          '@skillrl/skill-generator',
        )({
          seed: ctx.seed,
          ...rest,
          model: parts.model,
          // The editor learns from its own tokens and their log-probs.
          logprobs: true,
        }) as SkillGenerator;
        return parts.train(editor);
      }
      const model = options.model;
      if (model === null || typeof model !== 'object' || Array.isArray(model)) {
        throw new MissingFieldError('evolve.generator.options', 'model');
      }
      return exported(
        mod,
        'createLlmSkillEditor',
        '@skillrl/skill-generator',
      )({
        seed: ctx.seed,
        ...options,
        model: { seed: ctx.seed, ...withApiKey(model, 'evolve.generator.options.model') },
      }) as SkillGenerator;
    },
    requires: (options) => (options.trainer !== undefined ? [TINKER] : []),
    async checkPackageOptions(options, configPath) {
      const trainer = options.trainer;
      if (trainer === null || typeof trainer !== 'object' || Array.isArray(trainer)) return [];
      const t = trainer as { name?: unknown; options?: unknown };
      if (t.name !== 'tinker') return [];
      const inner = t.options ?? {};
      if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return [];
      return packageOptionCheck(
        TINKER,
        'checkTinkerEditorOptions',
        inner as JsonObject,
        '$.evolve.generator.options.trainer.options',
        configPath,
      );
    },
    checkOptions(options, configPath) {
      const trainer = options.trainer;
      if (trainer === null || typeof trainer !== 'object' || Array.isArray(trainer)) return [];
      const inner = (trainer as { options?: unknown }).options;
      if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return [];
      return checkTokenizerFolder(
        inner as JsonObject,
        configPath,
        '$.evolve.generator.options.trainer.options',
      );
    },
  },
};

const trainers: Record<string, BuiltinEntry<PolicyTrainer>> = {
  external: {
    package: '@skillrl/core',
    describe: 'no in-process update: train elsewhere from `skillrl export` (rollouts with their advantages)',
    updatesNoPolicy: true,
    // It trains nothing, and says so: the loop reports that no update happened and marks its validations
    // and curriculum decisions as made against a frozen policy.
    create(_mod, options) {
      throwOnOptionIssues(
        checkExternalTrainerOptions(options, 'internalize.trainer.options'),
        'external trainer',
      );
      return { updatesPolicy: false, update: async () => ({}) };
    },
    checkPackageOptions: (options, configPath) =>
      packageOptionCheck(
        '@skillrl/core',
        'checkExternalTrainerOptions',
        options,
        '$.internalize.trainer.options',
        configPath,
      ),
  },
  tinker: {
    package: TINKER,
    describe:
      'one on-policy update of the tinker agent per step on the Tinker API: forward_backward with the loss, optim_step, new sampler weights (options: loss, learningRate, chunkSize, ...)',
    create(mod, options, ctx) {
      if (!ctx.agent) throw new MissingFieldError('tinker trainer', 'agent');
      return exported(mod, 'createTinkerTrainer', TINKER)(ctx.agent, options) as PolicyTrainer;
    },
    checkPackageOptions: (options, configPath) =>
      packageOptionCheck(
        TINKER,
        'checkTinkerTrainerOptions',
        options,
        '$.internalize.trainer.options',
        configPath,
      ),
  },
  tfjs: {
    package: '@skillrl/policy-tfjs',
    peers: ['@skillrl/tensor-ops', '@tensorflow/tfjs'],
    describe: 'in-process policy-gradient trainer for the skill-reading agent',
    create(mod, options, ctx) {
      if (!ctx.agent) throw new MissingFieldError('tfjs trainer', 'agent');
      return exported(mod, 'createTfjsTrainer', '@skillrl/policy-tfjs')(ctx.agent, options) as PolicyTrainer;
    },
    checkPackageOptions: (options, configPath) =>
      packageOptionCheck(
        '@skillrl/policy-tfjs/options',
        'checkTfjsTrainerOptions',
        options,
        '$.internalize.trainer.options',
        configPath,
      ),
  },
};

const estimators: Record<string, BuiltinEntry<(extra?: JsonObject) => AdvantageEstimator>> = {};

export const BUILTIN_COMPONENTS: { [K in ComponentKind]: Record<string, BuiltinEntry<unknown>> } = {
  adapter: adapters,
  agent: agents,
  generator: generators,
  trainer: trainers,
  estimator: estimators,
};

/** Loads the package behind a built-in entry. */
export function importEntry(
  entry: BuiltinEntry<unknown>,
  kind: ComponentKind,
  name: string,
  configPath?: string,
): Promise<ModuleNamespace> {
  return importBuiltin(entry.package, `${kind} "${name}"`, configPath);
}
