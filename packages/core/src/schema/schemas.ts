// JSON Schemas (draft-07) for everything that crosses a disk or a process. They are published so that
// tools in other languages can read a run directory; `validate` compiles each once with ajv.

const id = (name: string) => `https://skillrl.dev/schemas/${name}.json`;

const finiteNumber = { type: 'number' } as const;
const score01 = { type: 'number', minimum: 0, maximum: 1 } as const;

export const usageSchema = {
  $id: id('usage'),
  type: 'object',
  required: ['inputTokens', 'outputTokens'],
  properties: {
    inputTokens: { type: 'integer', minimum: 0 },
    outputTokens: { type: 'integer', minimum: 0 },
    requests: { type: 'integer', minimum: 0 },
    cost: { type: 'number', minimum: 0 },
  },
} as const;

export const taskSchema = {
  $id: id('task'),
  type: 'object',
  required: ['id', 'family', 'split', 'prompt'],
  properties: {
    id: { type: 'string', minLength: 1 },
    family: { type: 'string', minLength: 1 },
    split: { type: 'string', minLength: 1 },
    prompt: { type: 'string' },
    answer: {},
    metadata: { type: 'object' },
  },
} as const;

export const verdictSchema = {
  $id: id('verdict'),
  type: 'object',
  required: ['score', 'passed'],
  properties: {
    score: score01,
    passed: { type: 'boolean' },
    reason: { type: 'string' },
    details: { type: 'object' },
  },
} as const;

export const skillSchema = {
  $id: id('skill'),
  type: 'object',
  required: ['name', 'description', 'body'],
  properties: {
    // The Agent Skills name: Unicode letters without case or lowercase, and numbers, joined by single hyphens;
    // lengths in code points (as JSON Schema counts them). `validateSkill` adds NFKC and the exact lowercase rule.
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[\\p{Ll}\\p{Lm}\\p{Lo}\\p{N}]+(-[\\p{Ll}\\p{Lm}\\p{Lo}\\p{N}]+)*$',
    },
    description: { type: 'string', minLength: 1, maxLength: 1024 },
    body: { type: 'string' },
    families: { type: 'array', items: { type: 'string' } },
    license: { type: 'string' },
    compatibility: { type: 'string', minLength: 1, maxLength: 500 },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    allowedTools: { type: 'array', items: { type: 'string' } },
    extraFields: { type: 'object' },
  },
  additionalProperties: false,
} as const;

const trajectoryStepSchema = {
  type: 'object',
  required: ['index', 'observation', 'action', 'reward', 'done'],
  properties: {
    index: { type: 'integer', minimum: 0 },
    observation: { type: 'string' },
    action: { type: 'string' },
    reward: finiteNumber,
    done: { type: 'boolean' },
    stateKey: { type: 'string' },
    invalid: { type: 'boolean' },
    latencyMs: { type: 'number', minimum: 0 },
    usage: { $ref: id('usage') },
    tokenIds: { type: 'array', items: { type: 'integer' } },
    logProbs: { type: 'array', items: { type: 'number' } },
    logProb: { type: 'number' },
    info: { type: 'object' },
  },
} as const;

export const trajectorySchema = {
  $id: id('trajectory'),
  type: 'object',
  required: ['id', 'taskId', 'family', 'condition', 'steps', 'reward', 'verdict'],
  properties: {
    id: { type: 'string', minLength: 1 },
    taskId: { type: 'string', minLength: 1 },
    family: { type: 'string', minLength: 1 },
    condition: { enum: [0, 1] },
    skill: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, hash: { type: 'string' } },
    },
    generation: { type: 'integer', minimum: 0 },
    candidate: { type: 'integer', minimum: 0 },
    groupId: { type: 'string' },
    index: { type: 'integer', minimum: 0 },
    steps: { type: 'array', items: trajectoryStepSchema },
    answer: { type: 'string' },
    reward: finiteNumber,
    verdict: { $ref: id('verdict') },
    usage: { $ref: id('usage') },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
    seed: { type: 'integer' },
    durationMs: { type: 'number', minimum: 0 },
  },
} as const;

export const validationResultSchema = {
  $id: id('validation-result'),
  type: 'object',
  required: ['step', 'families'],
  properties: {
    step: { type: 'integer', minimum: 0 },
    families: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['withSkill', 'withoutSkill', 'withSkillEpisodes', 'withoutSkillEpisodes'],
        properties: {
          withSkill: score01,
          withoutSkill: score01,
          // Episodes per side: how much evidence each rate is (0 = that side did not run).
          withSkillEpisodes: { type: 'integer', minimum: 0 },
          withoutSkillEpisodes: { type: 'integer', minimum: 0 },
          episodes: { type: 'integer', minimum: 0 },
          erroredEpisodes: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
} as const;

const numberMap = { type: 'object', additionalProperties: { type: 'number' } } as const;

export const curriculumStateSchema = {
  $id: id('curriculum-state'),
  type: 'object',
  required: ['step', 'lambda', 'rho', 'active'],
  properties: {
    step: { type: 'integer', minimum: 0 },
    lambda: numberMap,
    rho: { type: 'object', additionalProperties: score01 },
    active: { type: 'array', items: { type: 'string' } },
    retired: { type: 'array', items: { type: 'string' } },
  },
} as const;

const eventBase = {
  runId: { type: 'string', minLength: 1 },
  time: { type: 'string', format: 'date-time' },
} as const;

const eventVariant = (type: string, required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  required: ['type', 'runId', 'time', ...required],
  properties: { type: { const: type }, ...eventBase, ...properties },
});

export const eventSchema = {
  $id: id('event'),
  type: 'object',
  required: ['type'],
  properties: {
    type: {
      enum: ['run:start', 'rollout', 'generation', 'step', 'validation', 'checkpoint', 'workers', 'run:end'],
    },
  },
  // Discriminated by `type`: each branch only applies to its own event type, so errors name the right fields.
  allOf: [
    {
      if: { properties: { type: { const: 'run:start' } } },
      then: eventVariant('run:start', ['method', 'seed'], {
        method: { type: 'string' },
        seed: { type: 'integer' },
        config: { type: 'object' },
      }),
    },
    {
      if: { properties: { type: { const: 'rollout' } } },
      then: eventVariant('rollout', ['trajectoryId', 'taskId', 'family', 'condition', 'reward', 'passed'], {
        trajectoryId: { type: 'string' },
        taskId: { type: 'string' },
        family: { type: 'string' },
        condition: { enum: [0, 1] },
        reward: finiteNumber,
        passed: { type: 'boolean' },
        generation: { type: 'integer' },
        candidate: { type: 'integer' },
        error: { type: 'string' },
      }),
    },
    {
      if: { properties: { type: { const: 'generation' } } },
      then: eventVariant('generation', ['taskId', 'generation', 'meanReward', 'bestReward', 'bestSkill'], {
        taskId: { type: 'string' },
        generation: { type: 'integer', minimum: 0 },
        meanReward: finiteNumber,
        bestReward: finiteNumber,
        bestSkill: { type: 'string' },
        metrics: numberMap,
        void: { type: 'string' },
      }),
    },
    {
      if: { properties: { type: { const: 'step' } } },
      then: eventVariant('step', ['step', 'metrics'], {
        step: { type: 'integer', minimum: 0 },
        metrics: numberMap,
        void: { type: 'string' },
      }),
    },
    {
      if: { properties: { type: { const: 'validation' } } },
      then: eventVariant('validation', ['step', 'validation'], {
        step: { type: 'integer', minimum: 0 },
        validation: { $ref: id('validation-result') },
        curriculum: { $ref: id('curriculum-state') },
        frozenPolicy: { type: 'boolean' },
      }),
    },
    {
      if: { properties: { type: { const: 'checkpoint' } } },
      then: eventVariant('checkpoint', ['step', 'path'], {
        step: { type: 'integer', minimum: 0 },
        path: { type: 'string' },
      }),
    },
    {
      if: { properties: { type: { const: 'workers' } } },
      then: eventVariant('workers', ['status', 'workers', 'message'], {
        status: { enum: ['no-worker', 'workers-back', 're-enqueued'] },
        workers: { type: 'integer', minimum: 0 },
        jobs: { type: 'integer', minimum: 0 },
        message: { type: 'string' },
      }),
    },
    {
      if: { properties: { type: { const: 'run:end' } } },
      then: eventVariant('run:end', ['status'], {
        status: { enum: ['completed', 'failed', 'cancelled'] },
        metrics: numberMap,
        error: { type: 'string' },
      }),
    },
  ],
} as const;

/** Every published schema by kind. */
export const schemas = {
  usage: usageSchema,
  task: taskSchema,
  verdict: verdictSchema,
  skill: skillSchema,
  trajectory: trajectorySchema,
  'validation-result': validationResultSchema,
  'curriculum-state': curriculumStateSchema,
  event: eventSchema,
} as const;

export type SchemaKind = keyof typeof schemas;
