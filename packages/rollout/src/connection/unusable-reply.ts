/**
 * What a caller can use of a choice: `text` (a string `content`: the chat model, and the agent in text mode,
 * which offers no tools) or `text-or-tool-call` (the agent in tools mode: a string `content`, or at least
 * one function call with a name).
 */
export type ReplyUse = 'text' | 'text-or-tool-call';

interface ToolCallShape {
  type?: unknown;
  function?: { name?: unknown };
}

interface ChoiceShape {
  message?: { content?: unknown; tool_calls?: ToolCallShape[] | null } | null;
  finish_reason?: unknown;
}

const kindOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

function toolCalls(choice: ChoiceShape): ToolCallShape[] {
  const calls = choice.message?.tool_calls;
  return Array.isArray(calls) ? calls : [];
}

/** A call the agent decodes: a function call with a name (a custom tool's call, or one without a name, is not). */
const isFunctionCall = (call: ToolCallShape | null | undefined) =>
  call?.type === 'function' && typeof call.function?.name === 'string';

/** A call in words: its function's name, and what it is instead of a function call when it is not one. */
function callName(call: ToolCallShape | null | undefined): string {
  const name = typeof call?.function?.name === 'string' ? call.function.name : '?';
  if (isFunctionCall(call)) return name;
  const type = typeof call?.type === 'string' ? `type ${call.type}` : 'no type';
  return `${name} (${type}${name === '?' ? ', no function name' : ''}: not a function call)`;
}

/** Whether a choice gives the caller something: text, or (for `text-or-tool-call`) a function call. */
export function isUsableChoice(choice: unknown, use: ReplyUse): boolean {
  const c = choice as ChoiceShape | null | undefined;
  if (!c || typeof c !== 'object') return false;
  if (typeof c.message?.content === 'string') return true;
  return use === 'text-or-tool-call' && toolCalls(c).some(isFunctionCall);
}

/** One unusable choice in words: "a choice whose content is null and which has only a tool call (name read_file)". */
function describeChoice(choice: unknown): string {
  const c = choice as ChoiceShape | null | undefined;
  if (!c || typeof c !== 'object') return `a choice that is ${kindOf(choice)}`;
  const finish = typeof c.finish_reason === 'string' ? `, finish_reason ${c.finish_reason}` : '';
  if (!c.message || typeof c.message !== 'object') return `a choice with no message${finish}`;
  const content = c.message.content;
  const subject =
    content === undefined
      ? 'a choice with no content'
      : `a choice whose content is ${content === null ? 'null' : `${kindOf(content)}, not text`}`;
  const names = toolCalls(c).map(callName);
  if (names.length === 0) return `${subject} and no tool call${finish}`;
  const calls =
    names.length === 1
      ? `only a tool call (name ${names[0]})`
      : `only tool calls (names ${names.join(', ')})`;
  return `${subject} and which has ${calls}${finish}`;
}

/**
 * Why a 200 response gives the caller no usable choice, in words that say what arrived, or `undefined`
 * when at least one choice is usable. The connection turns a reason into a retried `NoChoiceError`.
 */
export function unusableReply(response: unknown, use: ReplyUse): string | undefined {
  const lead = 'the endpoint answered 200 with';
  if (response === null || typeof response !== 'object' || Array.isArray(response)) {
    return `${lead} ${kindOf(response)} instead of a completion object`;
  }
  if (!('choices' in response) || (response as { choices?: unknown }).choices === undefined) {
    return `${lead} no choices field`;
  }
  const choices = (response as { choices: unknown }).choices;
  if (!Array.isArray(choices)) return `${lead} choices of type ${kindOf(choices)} (expected an array)`;
  if (choices.length === 0) return `${lead} choices: [] (no choice)`;
  if (choices.some((choice) => isUsableChoice(choice, use))) return undefined;
  const first = describeChoice(choices[0]);
  const wanted = use === 'text' ? 'text was asked for' : 'text or a function call was expected';
  return choices.length === 1
    ? `${lead} ${first} (${wanted})`
    : `${lead} ${choices.length} choices, none usable (${wanted}); the first is ${first}`;
}
