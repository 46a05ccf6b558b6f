import type { ChatTurn, ChatTurnMessage, ChatTurnRecord } from '../contracts/chat-turn.js';
import type { JsonObject } from '../contracts/json.js';
import type { TrajectoryStep } from '../contracts/trajectory.js';
import { InvalidArgumentError } from '../errors/index.js';

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

function leadingEqual<T>(
  previous: readonly T[] | undefined,
  next: readonly T[],
  eq: (a: T, b: T) => boolean,
) {
  if (!previous) return 0;
  const n = Math.min(previous.length, next.length);
  let i = 0;
  while (i < n && eq(previous[i] as T, next[i] as T)) i++;
  return i;
}

/**
 * The record of `turn` against the previous turn of the same episode (`undefined` for the first): the
 * messages and prompt token ids the two requests share at the front are referred to by count, the rest
 * written out; the tools only when they changed.
 */
export function encodeChatTurn(previous: ChatTurn | undefined, turn: ChatTurn): ChatTurnRecord {
  const keep = leadingEqual<ChatTurnMessage>(previous?.messages, turn.messages, same);
  const record: ChatTurnRecord = { keep, append: turn.messages.slice(keep), reply: turn.reply };
  const tools = turn.tools ?? [];
  if (!same(previous?.tools ?? [], tools)) record.tools = tools;
  if (turn.promptTokenIds) {
    const ids = turn.promptTokenIds;
    const kept = leadingEqual<number>(previous?.promptTokenIds, ids, (a, b) => a === b);
    record.promptTokenIds = { keep: kept, append: ids.slice(kept) };
  }
  return record;
}

/**
 * The full turn a record describes, given the previous turn of the episode. Throws `InvalidArgumentError`
 * when the record refers to more of the previous turn than there is (a step's record is missing or was
 * edited).
 */
export function applyChatTurn(previous: ChatTurn | undefined, record: ChatTurnRecord): ChatTurn {
  const before = previous?.messages ?? [];
  if (record.keep > before.length) {
    throw new InvalidArgumentError(
      'info.chat.keep',
      `the record repeats ${record.keep} messages of the previous turn, which had ${before.length}`,
    );
  }
  const turn: ChatTurn = {
    messages: [...before.slice(0, record.keep), ...record.append],
    reply: record.reply,
  };
  const tools: JsonObject[] | undefined = record.tools ?? previous?.tools;
  if (tools && tools.length > 0) turn.tools = tools;
  if (record.promptTokenIds) {
    const ids = previous?.promptTokenIds ?? [];
    const { keep, append } = record.promptTokenIds;
    if (keep > ids.length) {
      throw new InvalidArgumentError(
        'info.chat.promptTokenIds.keep',
        `the record repeats ${keep} prompt tokens of the previous turn, which had ${ids.length}`,
      );
    }
    turn.promptTokenIds = [...ids.slice(0, keep), ...append];
  }
  return turn;
}

function recordOf(step: TrajectoryStep): ChatTurnRecord | undefined {
  const chat = step.info?.chat as ChatTurnRecord | undefined;
  return chat && typeof chat === 'object' && Array.isArray(chat.append) && typeof chat.keep === 'number'
    ? chat
    : undefined;
}

/**
 * Every step's chat turn, expanded from the records at `step.info.chat`; `undefined` for a step without a
 * record (an agent that records none), and for one that leans on a turn that cannot be rebuilt (a missing
 * or damaged earlier record).
 */
export function chatTurnsOf(steps: readonly TrajectoryStep[]): (ChatTurn | undefined)[] {
  const out: (ChatTurn | undefined)[] = [];
  let previous: ChatTurn | undefined;
  for (const step of steps) {
    const record = recordOf(step);
    let turn: ChatTurn | undefined;
    if (record) {
      try {
        turn = applyChatTurn(previous, record);
      } catch {
        turn = undefined;
      }
    }
    out.push(turn);
    // After a gap the agent writes a self-contained record (nothing to refer to), which applies to `undefined`.
    previous = turn;
  }
  return out;
}
