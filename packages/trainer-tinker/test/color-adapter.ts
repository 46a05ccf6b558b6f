import type { Skill, Task, TaskAdapter, Trajectory } from '@skillrl/core';

// A one-step task for tests: name the color of a thing ("what color is the sky ?" → blue). Its words are in
// the tiny-chat vocabulary, so the fake Tinker server's model can read them.
export const COLOR_OF: Record<string, string> = {
  sky: 'blue',
  grass: 'green',
  fire: 'red',
  snow: 'white',
  night: 'black',
  sun: 'yellow',
};
const PROMPTS = ['what color is the {s} ?', 'which color is the {s} ?', 'the color of the {s} is what ?'];

export function colorAdapter(): TaskAdapter {
  const families = Object.keys(COLOR_OF);
  return {
    name: 'colors',
    families,
    load({ split, limit }) {
      const tasks: Task[] = [];
      for (let i = 0; tasks.length < (limit ?? 24); i++) {
        const family = families[i % families.length] as string;
        const template = PROMPTS[
          (Math.floor(i / families.length) + (split === 'train' ? 0 : 1)) % PROMPTS.length
        ] as string;
        tasks.push({
          id: `${split}-${i}`,
          family,
          split,
          prompt: template.replace('{s}', family),
          answer: COLOR_OF[family] as string,
        });
      }
      return tasks;
    },
    createEnvironment(task) {
      return {
        maxSteps: 1,
        reset: () => 'answer with one word .',
        step: (action: string) => {
          const right = action.trim().toLowerCase() === task.answer;
          return { observation: right ? 'right' : 'wrong', reward: right ? 1 : 0, done: true };
        },
      };
    },
    verifier(task) {
      return {
        name: 'exact',
        verify(_task: Task, trajectory: Trajectory) {
          const action = trajectory.steps.at(-1)?.action.trim().toLowerCase();
          const passed = action === task.answer;
          return { score: passed ? 1 : 0, passed };
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
}
