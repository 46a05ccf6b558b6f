import {
  type AgentAction,
  type AgentContext,
  type ChatTurnRecord,
  chatTurnsOf,
  type Skill,
  type Task,
  type TrajectoryStep,
} from '@skillrl/core';
import { createOpenAIAgent, type SystemPromptInput } from '@skillrl/rollout';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { setupAgent } from './support.js';

// Export writes the messages an agent recorded (`step.info.chat`, expanded by core's `chatTurnsOf`), so the
// Tinker agent and rollout's openai agent in text mode must record the same transcript for the same decision:
// a trained policy's rows and an API model's rows are then the same prompts.

const openai: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(openai.splice(0).map((s) => s.close()));
});

const task: Task = { id: 'sky-1', family: 'sky', split: 'train', prompt: 'what color is the sky ?' };
const skill: Skill = { name: 'sky-color', description: 'The sky.', body: 'the sky is blue .' };
const step = (index: number, observation: string, action: string, raw?: string): TrajectoryStep => ({
  index,
  observation,
  action,
  reward: 0,
  done: false,
  ...(raw ? { info: { raw } } : {}),
});

const decisions: Record<string, AgentContext> = {
  'first decision, with the skill': {
    task,
    skill,
    condition: 1,
    observation: 'answer with one word .',
    history: [],
    stepIndex: 0,
    admissibleActions: ['blue', 'red'],
  },
  'without the skill (condition 0), a history': {
    task,
    skill,
    condition: 0,
    observation: 'again .',
    history: [step(0, 'answer with one word .', 'red', '<action>red</action>'), step(1, 'wrong', 'green')],
    stepIndex: 2,
    admissibleActions: ['blue'],
  },
  'a history window and a spent tool budget': {
    task,
    condition: 0,
    observation: 'last .',
    history: [step(0, 'a .', 'red'), step(1, 'b .', 'green'), step(2, 'c .', 'white')],
    stepIndex: 3,
    toolBudget: { maxCalls: 3, notice: 'answer now .' },
  },
};

/** The messages of the decision as export reads them back from the step the action becomes. */
function recorded(context: AgentContext, action: AgentAction) {
  const steps: TrajectoryStep[] = [
    ...context.history,
    {
      ...step(context.history.length, context.observation, action.action),
      info: { chat: action.info?.chat as ChatTurnRecord },
    },
  ];
  return chatTurnsOf(steps).at(-1)?.messages;
}

// A function template sees what the decision gives it: the skill only under condition 1, the actions.
const describeInput = (input: SystemPromptInput) =>
  `skill ${input.skill ? input.skill.name : 'none'} , ${input.admissibleActions?.length ?? 0} actions .`;

describe('one transcript: the Tinker agent records what the openai agent (text mode) records', () => {
  for (const [name, context] of Object.entries(decisions)) {
    it(name, async () => {
      for (const systemPrompt of [undefined, describeInput]) {
        const prompt = systemPrompt ? { systemPrompt } : {};
        const { agent: tinker } = await setupAgent({ historyWindow: 2, ...prompt });
        const server = await startFakeOpenAI({ script: ['<action>blue</action>'] });
        openai.push(server);
        const api = createOpenAIAgent({
          model: 'm',
          baseURL: server.baseURL,
          mode: 'text',
          historyWindow: 2,
          ...prompt,
        });
        const fromTinker = recorded(context, await tinker.act(context));
        const fromApi = recorded(context, await api.act(context));
        expect(fromTinker).toBeDefined();
        expect(fromTinker).toEqual(fromApi);
      }
    });
  }
});
