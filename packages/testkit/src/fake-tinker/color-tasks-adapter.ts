import type { LoadOptions, Skill, Task, TaskAdapter, Trajectory, Verdict } from '@skillrl/core';

// A small task adapter for the Tinker examples and tests: name the color of a thing in one word ("what color
// is the sky ?" → blue). Six families, one per thing; each family's skill says the answer. Its words are in
// the tiny-chat vocabulary, so the fake Tinker server's model reads them; a real LLM reads them too.

const COLOR_OF: Record<string, string> = {
  sky: 'blue',
  grass: 'green',
  fire: 'red',
  snow: 'white',
  night: 'black',
  sun: 'yellow',
};
const PROMPTS: Record<string, string[]> = {
  train: ['what color is the {s} ?', 'which color is the {s} ?'],
  valid: ['the color of the {s} is what ?', 'what is the color of the {s} ?'],
};

const families = Object.keys(COLOR_OF);

function load({ split = 'train', limit, seed = 0 }: Partial<LoadOptions> = {}): Task[] {
  const prompts = PROMPTS[split] ?? (PROMPTS.valid as string[]);
  const all: Task[] = [];
  prompts.forEach((template, t) => {
    for (const family of families) {
      all.push({
        id: `${split}-${family}-${t}`,
        family,
        split,
        prompt: template.replace('{s}', family),
        answer: COLOR_OF[family] as string,
      });
    }
  });
  // A seeded rotation, so `limit` takes a mix of families.
  const start = Math.abs(Math.trunc(seed)) % all.length;
  const rotated = [...all.slice(start), ...all.slice(0, start)];
  return rotated.slice(0, limit ?? rotated.length);
}

/**
 * The color tasks: `adapter: { package: '@skillrl/testkit', export: colorTasksAdapter }` in a config. Splits
 * `train` and `valid` (other phrasings of the same questions); one-step environments rewarded 1 for the
 * right color.
 */
export const colorTasksAdapter: TaskAdapter = {
  name: 'colors',
  families,
  splits: ['train', 'valid'],
  load,
  createEnvironment(task) {
    return {
      maxSteps: 1,
      reset: () => 'answer with one word .',
      step: (action) => {
        const right = String(action).trim().toLowerCase() === task.answer;
        return { observation: right ? 'right' : 'wrong', reward: right ? 1 : 0, done: true };
      },
    };
  },
  verifier(task) {
    return {
      name: 'exact-color',
      verify(_task: Task, trajectory: Trajectory): Verdict {
        const action = trajectory.steps.at(-1)?.action?.trim().toLowerCase();
        const passed = action === task.answer;
        return {
          score: passed ? 1 : 0,
          passed,
          reason: passed ? 'right color' : `expected ${task.answer}, got ${action ?? 'nothing'}`,
        };
      },
    };
  },
  skills(): Skill[] {
    return families.map((family) => ({
      name: `${family}-color`,
      description: `How to answer color questions about the ${family}.`,
      body: `When asked about the ${family} , answer ${COLOR_OF[family]} .`,
      families: [family],
    }));
  },
};
