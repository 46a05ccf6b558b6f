import { packageFiles } from './package-files.js';
import { RANDOM_AGENT_SOURCE } from './random-agent-source.js';
import { SCAFFOLD_VERSIONS } from './scaffold-versions.js';
import { shortName } from './write-scaffold.js';

/**
 * A standalone task-adapter package: a small "repeat the word" benchmark in two families that passes the
 * adapter conformance suite, builds with tsup, and runs from `run.yaml` (the package named by path) with a
 * random baseline agent and no in-process training — no API key, no tfjs.
 */
export function adapterScaffold(name: string): Record<string, string> {
  const id = shortName(name);
  return {
    // The conformance suite plays episodes through @skillrl/rollout's runner, as real runs do.
    // @skillrl/cli gives \`npx skillrl run run.yaml\` its CLI (the lean one, not the batteries package).
    ...packageFiles(name, `A skillrl task adapter: ${id}.`, ['task-adapter'], {
      '@skillrl/cli': SCAFFOLD_VERSIONS.cli,
      '@skillrl/rollout': SCAFFOLD_VERSIONS.rollout,
    }),
    'src/index.ts': `/** ${name} — a skillrl task adapter. The default export is the adapter; the factory takes options. */
import { createAdapter } from './create-adapter.js';

export { createAdapter, type AdapterOptions } from './create-adapter.js';

const adapter = createAdapter();
export default adapter;
`,
    'src/create-adapter.ts': `import { createRng, InvalidArgumentError, type Task, type TaskAdapter } from '@skillrl/core';

const NAME = ${JSON.stringify(id)};
const SPLITS = ['train', 'test'] as const;
const FAMILIES = ['repeat-short', 'repeat-long'] as const;
const WORDS: Record<(typeof FAMILIES)[number], string[]> = {
  'repeat-short': ['ant', 'bee', 'cat', 'dog', 'elk', 'fox', 'gnu', 'hen'],
  'repeat-long': ['antelope', 'butterfly', 'crocodile', 'dragonfly', 'elephant', 'flamingo', 'gazelle'],
};
const MAX_STEPS = 3;

export interface AdapterOptions {
  /** Words the environment offers to choose from (default 3). */
  choices?: number;
}

/**
 * Repeat the word: the task shows a word and offers a few; answering with the shown word passes. Replace
 * the tasks, the environment and the verifier with your benchmark's, keeping the contract (@skillrl/core's
 * TaskAdapter): the same seed gives the same tasks, tasks are plain JSON, verdicts read the trajectory.
 */
export function createAdapter(options: AdapterOptions = {}): TaskAdapter {
  const choices = options.choices ?? 3;
  if (!Number.isInteger(choices) || choices < 2) {
    throw new InvalidArgumentError('options.choices', \`expected an integer of at least 2, got \${choices}\`);
  }
  return {
    name: NAME,
    families: FAMILIES,
    splits: SPLITS,
    load({ split, limit = 20, seed = 0 }) {
      if (!(SPLITS as readonly string[]).includes(split)) {
        throw new InvalidArgumentError('split', \`"\${split}"; expected one of \${SPLITS.join(', ')}\`);
      }
      const rng = createRng(seed).fork(split);
      return Array.from({ length: limit }, (_, index): Task => {
        const family = FAMILIES[index % FAMILIES.length] as (typeof FAMILIES)[number];
        const offered = rng.shuffle(WORDS[family]).slice(0, choices);
        const word = rng.pick(offered);
        return {
          id: \`\${NAME}/\${split}/\${seed}/\${index}\`,
          family,
          split,
          prompt: \`Repeat the word "\${word}".\`,
          answer: word,
          metadata: { word, offered },
        };
      });
    },
    createEnvironment(task) {
      const word = task.metadata?.word;
      const offered = task.metadata?.offered;
      if (typeof word !== 'string' || !Array.isArray(offered)) {
        throw new InvalidArgumentError('task.metadata', 'expected the word and the offered words this adapter stored');
      }
      let steps = 0;
      return {
        maxSteps: MAX_STEPS,
        reset() {
          steps = 0;
          return \`Repeat the word "\${word}". Answer with one of: \${offered.join(', ')}.\`;
        },
        admissibleActions: () => offered.map(String),
        step(action: string) {
          steps++;
          const correct = action.trim().toLowerCase() === word;
          return {
            observation: correct ? 'Correct.' : 'That is not the word.',
            reward: correct ? 1 : 0,
            done: correct || steps >= MAX_STEPS,
            info: { correct },
          };
        },
      };
    },
    verifier: () => ({
      name: \`\${NAME}-correct\`,
      verify(_task, trajectory) {
        // The episode runner keeps the environment's StepResult.info at step.info.env.
        const correct = trajectory.steps.at(-1)?.info?.env?.correct === true;
        return { score: correct ? 1 : 0, passed: correct, reason: correct ? 'repeated the word' : 'did not' };
      },
    }),
    skills: () => [
      {
        name: 'repeat-the-word',
        description: 'Answer with exactly the word the task shows. Use for every repeat task.',
        families: [...FAMILIES],
        body: '1. Read the word in quotes.\\n2. Answer with exactly that word, nothing else.\\n',
      },
    ],
    stepVocabulary: () => ({
      'repeat-short': ['read the word in quotes', 'answer with exactly that word'],
      'repeat-long': ['read the word in quotes', 'check its spelling', 'answer with exactly that word'],
    }),
  };
}
`,
    'src/adapter.test.ts': `import { describeAdapterConformance } from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import adapter, { createAdapter } from './index.js';

// The conformance suite every skillrl task adapter passes. \`solve\` gives the actions that solve a task (your
// benchmark's expert plan, a demo): the kit plays them as a run does and expects the verifier to pass them,
// each action among the environment's admissible ones. Keep it when you replace the tasks: without it, a
// verifier that never passes a real run can still pass the suite's other checks.
describeAdapterConformance(adapter, { limit: 6, episodes: 3, solve: (task) => [String(task.answer)] });

describe(${JSON.stringify(id)}, () => {
  it('passes when the shown word is repeated', async () => {
    const [task] = await adapter.load({ split: 'test', limit: 1, seed: 3 });
    if (!task) throw new Error('no task');
    const env = await adapter.createEnvironment(task);
    await env.reset();
    const step = await env.step(String(task.answer));
    expect(step).toMatchObject({ reward: 1, done: true, info: { correct: true } });
  });

  it('rejects bad options with a typed error', () => {
    expect(() => createAdapter({ choices: 1 })).toThrow(/options.choices/);
  });
});
`,
    'random-agent.mjs': RANDOM_AGENT_SOURCE,
    'run.yaml': `# A short offline run of this adapter: the random baseline agent, two SKILLC steps, no in-process
# training (trainer "external": the rollouts and advantages are on disk for \`skillrl export\`).
#
#   npm run build && npx skillrl run run.yaml    # the CLI is @skillrl/cli, a devDependency
method: internalize
seed: 1
name: ${id}-smoke
adapter: { package: "./" } # this package, by path; once installed elsewhere: { package: "${name}" }
tasks: { split: train, limit: 8 }
agent: { package: "./random-agent.mjs" }
concurrency: 4
internalize:
  steps: 2
  tasksPerStep: 2
  groupSize: 4
  validateEvery: 1
  # Retirement needs 36 episodes a side pooled, confirmed twice: 12 tasks (6 per family) × 3 episodes give 18
  # a side per validation, enough by the run's 3rd and last validation.
  validation: { split: test, limit: 12 }
  validationEpisodes: 3
  trainer: external
`,
    'README.md': `# ${name}

A [skillrl](https://www.npmjs.com/package/skillrl) task adapter, scaffolded by \`npm create skillrl adapter\`
(or \`skillrl init adapter\`). It depends on \`@skillrl/core\` alone; its tests run \`@skillrl/testkit\`'s
adapter conformance suite.

\`\`\`sh
npm install
npm test            # the conformance suite and this adapter's own tests
npm run build       # dist/: ESM, CommonJS and types
npx skillrl run run.yaml   # a short run (the CLI: @skillrl/cli, a devDependency)
\`\`\`

A run config names it by path (\`adapter: { package: "./path/to/${id}" }\`) or, once installed, by package
(\`adapter: { package: "${name}" }\`, or \`{ package: "${name}", export: "createAdapter", options: { choices: 4 } }\`
to pass options to the factory). The default export is the adapter.
`,
  };
}
