import type { FakeChatRequest, FakeReply } from '@skillrl/testkit';

/** The fixture questions of `data/tools/validation/metadata.jsonl`, by a phrase of each. */
export const TOOL_QUESTIONS = {
  'skillrl-gaia-tools-0001': 'How many visitors were there in Oslo and Bergen together?',
  'skillrl-gaia-tools-0002': 'What was the total revenue over the three months?',
  'skillrl-gaia-tools-0003': 'In which year was the capital city of Australia founded?',
  'skillrl-gaia-tools-0004': 'What colour is the single pixel of the attached image?',
} as const;

type TaskId = keyof typeof TOOL_QUESTIONS;

const call = (name: string, args: Record<string, unknown>): FakeReply => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

/**
 * What the fake model does on each question, turn by turn (turn n follows n tool results), and the GAIA
 * score its answer must get. The workbook and CSV are read with read_file; the founding year takes a
 * web_search over the example's page cache and a fetch_page of the result; the image cannot be read, the
 * model is told so, and its guess is wrong.
 */
export const TOOL_SCRIPTS: Record<TaskId, { turns: FakeReply[]; reward: number; tools: string[] }> = {
  'skillrl-gaia-tools-0001': {
    turns: [
      call('read_file', { path: 'visits.xlsx' }),
      'The total row of the Visits sheet says 200.\nFINAL ANSWER: 200',
    ],
    reward: 1,
    tools: ['read_file'],
  },
  'skillrl-gaia-tools-0002': {
    turns: [call('read_file', {}), 'FINAL ANSWER: $3,500'],
    reward: 1,
    tools: ['read_file'],
  },
  'skillrl-gaia-tools-0003': {
    turns: [
      call('web_search', { query: 'capital of Australia founded' }),
      call('fetch_page', { url: 'https://en.example.org/wiki/Canberra' }),
      call('act', { action: 'FINAL ANSWER: 1913' }),
    ],
    reward: 1,
    tools: ['web_search', 'fetch_page'],
  },
  'skillrl-gaia-tools-0004': {
    turns: [call('read_file', { path: 'pixel.png' }), 'I could not see the image.\nFINAL ANSWER: blue'],
    reward: 0,
    tools: ['read_file'],
  },
};

function userText(request: FakeChatRequest): string {
  return (request.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
}

/** The fixture question a request is about. */
export function toolQuestionOf(request: FakeChatRequest): TaskId | undefined {
  const text = userText(request);
  return (Object.keys(TOOL_QUESTIONS) as TaskId[]).find((id) => text.includes(TOOL_QUESTIONS[id]));
}

/** The tool results the request carries back to the model, in order. */
export function toolResults(request: FakeChatRequest): string[] {
  return (request.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

export function respondWithTools(request: FakeChatRequest): FakeReply {
  const id = toolQuestionOf(request);
  if (!id) return 'FINAL ANSWER: unknown question';
  return TOOL_SCRIPTS[id].turns[toolResults(request).length] ?? 'FINAL ANSWER: out of script';
}
