import { healthSchema } from './health-options.js';
import { storeSchema } from './store-options.js';
import { workersSchema } from './workers-options.js';

/** The published JSON Schema of a run config (also shipped as `@skillrl/orchestrator/config-schema.json`). */

const componentSpec = {
  type: ['string', 'object'],
  minLength: 1,
  description:
    'A registry name, or { name?, package?, export?, options? }: package is an npm name or a module path resolved from the config file.',
  properties: {
    name: { type: 'string', minLength: 1 },
    package: { type: 'string', minLength: 1 },
    export: { type: 'string', minLength: 1 },
    options: { type: 'object' },
  },
  additionalProperties: false,
} as const;

const taskSelection = {
  type: 'object',
  required: ['split'],
  properties: {
    split: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1 },
    seed: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;

const positiveInt = { type: 'integer', minimum: 1 } as const;

export const CONFIG_SCHEMA_ID = 'https://skillrl.dev/schemas/run-config.json';

export const configSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: CONFIG_SCHEMA_ID,
  title: 'skillrl run config',
  type: 'object',
  required: ['method', 'seed', 'adapter', 'tasks', 'agent'],
  properties: {
    method: { enum: ['evolve', 'internalize'] },
    seed: { type: 'integer', minimum: 0 },
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
    runDir: { type: 'string', minLength: 1 },
    adapter: componentSpec,
    tasks: taskSelection,
    agent: {
      ...componentSpec,
      description: `${componentSpec.description} Built in: openai, skill-reading, tinker (options: baseModel, tokenizer, baseURL, apiKeyEnv, loraRank, maxTokens, …), program (any program as the task model; short form { program: { command, upstream, … } }).`,
      properties: {
        ...componentSpec.properties,
        program: {
          type: 'object',
          description:
            'Any program as the task model, run once per episode: { command: [argv] | package (a module exporting run(task, ctx)), export?, cwd?, env?, timeoutMs?, concurrency?, graceMs?, injectSkill?: system | none, upstream: { model, baseURL | baseURLs, apiKeyEnv, timeoutMs, retry, concurrency, requestsPerMinute, tokensPerMinute, extraBody } }.',
        },
      },
    },
    skills: {
      type: 'object',
      required: ['dir'],
      properties: {
        dir: { type: 'string', minLength: 1 },
        families: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
        },
        lenient: { type: 'boolean' },
      },
      additionalProperties: false,
      description:
        "your own Agent Skills folder in place of the adapter's skills (read from the config's folder); families maps a skill's name to its families",
    },
    estimator: componentSpec,
    concurrency: positiveInt,
    maxSteps: positiveInt,
    health: healthSchema,
    store: storeSchema,
    workers: workersSchema,
    evolve: {
      type: 'object',
      properties: {
        variant: { enum: ['skill-r1', 'no-skill', 'vanilla-grpo'] },
        mode: { enum: ['inference', 'grpo'] },
        generations: positiveInt,
        candidates: positiveInt,
        episodes: positiveInt,
        lambda: { type: 'number', minimum: 0 },
        carry: { enum: ['best', 'sample'] },
        finalEpisodes: { type: 'integer', minimum: 0 },
        finalPaired: { type: 'boolean' },
        initialSkill: {
          oneOf: [
            { enum: ['adapter', 'none'] },
            {
              type: 'object',
              required: ['path'],
              properties: { path: { type: 'string', minLength: 1 } },
              additionalProperties: false,
            },
          ],
          description:
            "the starting skill s0: adapter (the adapter's skill for each task's family), none, or { path } (an Agent Skills folder or SKILL.md, read from the config's folder)",
        },
        heldOut: taskSelection,
        proposalRetries: { type: 'integer', minimum: 0 },
        generator: {
          ...componentSpec,
          description: `${componentSpec.description} Built in: step-editor, llm-editor (options.trainer: tinker trains it on the Tinker API).`,
        },
      },
      additionalProperties: false,
    },
    internalize: {
      type: 'object',
      properties: {
        variant: { enum: ['skillc', 'grpo', 'skill0', 'd2skill-mixed'] },
        ablation: { enum: ['none', 'no-pairing', 'fixed-rho', 'no-pruning', 'optimistic-start'] },
        steps: positiveInt,
        tasksPerStep: positiveInt,
        groupSize: positiveInt,
        validateEvery: positiveInt,
        validationEpisodes: positiveInt,
        validation: taskSelection,
        test: taskSelection,
        testEpisodes: positiveInt,
        dynamicSampling: {
          type: 'object',
          description:
            "DAPO's dynamic sampling (verl's filter_groups): drop groups whose rollouts all scored alike and refill the step with fresh tasks, up to maxBatches generation batches (the step's own included).",
          required: ['maxBatches'],
          properties: {
            maxBatches: positiveInt,
            metric: { enum: ['score', 'success'] },
          },
          additionalProperties: false,
        },
        curriculum: { type: 'object' },
        trainer: {
          ...componentSpec,
          description: `${componentSpec.description} Built in: tfjs, tinker (with agent: tinker; options: loss, learningRate, chunkSize, …), external.`,
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;
