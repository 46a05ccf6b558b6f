import {
  applyChatTurn,
  type ChatTurn,
  type ChatTurnMessage,
  type ChatTurnRecord,
  encodeChatTurn,
  type JsonObject,
  type TrajectoryStep,
  type Usage,
} from '@skillrl/core';
import { addUsage } from '@skillrl/rollout';
import type { RecordedCall } from '../proxy/recorded-call.js';

/** One model call of a program, as a step stores it (`TrajectoryStep.info.calls`). */
export interface ProgramCallRecord {
  index: number;
  startedAt: string;
  latencyMs: number;
  status: number;
  stream: boolean;
  /** The model the program asked for (the proxy sends the configured one). */
  requestedModel?: string;
  /** The request and reply, delta-coded against the episode's previous call (`programCallsOf` expands). */
  turn: ChatTurnRecord;
  usage?: Usage;
  tokenIds?: number[];
  logProbs?: number[];
  injectedSkill?: boolean;
  error?: string;
}

/** What one decision's calls add to its step: the records, their usage, the last call's tokens. */
export interface StepCalls {
  /** Every call made since the previous decision. */
  calls: ProgramCallRecord[];
  /** The last call's turn, delta-coded against the previous step's `chat` (what report and export read). */
  chat?: ChatTurnRecord;
  usage?: Usage;
  tokenIds?: number[];
  logProbs?: number[];
}

/** The chains a program episode's call records are delta-coded along. */
export interface CallChains {
  /** The episode's previous call, whichever step it belonged to. */
  previousCall?: ChatTurn;
  /** The previous step's last call: `info.chat`'s base, as `chatTurnsOf` expands it. */
  previousStep?: ChatTurn;
}

const messageOf = (m: unknown): ChatTurnMessage => {
  const r = (m ?? {}) as Record<string, unknown>;
  const content = r.content;
  const out: ChatTurnMessage = {
    role: typeof r.role === 'string' ? r.role : 'user',
    content: typeof content === 'string' || content === null ? content : JSON.stringify(content ?? null),
  };
  if (Array.isArray(r.tool_calls)) out.tool_calls = r.tool_calls as ChatTurnMessage['tool_calls'];
  if (typeof r.tool_call_id === 'string') out.tool_call_id = r.tool_call_id;
  return out;
};

/** A recorded call as a chat turn: the messages the program sent, the tools, the reply. */
export function turnOf(call: RecordedCall): ChatTurn {
  const reply: ChatTurnMessage = { role: 'assistant', content: call.reply?.content ?? null };
  const toolCalls = call.reply?.toolCalls ?? [];
  if (toolCalls.length > 0) {
    reply.tool_calls = toolCalls.map((c) => ({
      id: c.id,
      type: 'function' as const,
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  const turn: ChatTurn = {
    messages: (Array.isArray(call.request.messages) ? call.request.messages : []).map(messageOf),
    reply,
  };
  if (Array.isArray(call.request.tools) && call.request.tools.length > 0) {
    turn.tools = call.request.tools as JsonObject[];
  }
  if (call.promptTokenIds) turn.promptTokenIds = call.promptTokenIds;
  return turn;
}

/** The step's share of a program's calls; advances `chains`. */
export function stepCallsOf(calls: readonly RecordedCall[], chains: CallChains): StepCalls {
  const out: StepCalls = { calls: [] };
  let last: ChatTurn | undefined;
  let lastCall: RecordedCall | undefined;
  for (const call of calls) {
    const turn = turnOf(call);
    const record: ProgramCallRecord = {
      index: call.index,
      startedAt: call.startedAt,
      latencyMs: call.latencyMs,
      status: call.status,
      stream: call.stream,
      turn: encodeChatTurn(chains.previousCall, turn),
    };
    if (typeof call.request.model === 'string') record.requestedModel = call.request.model;
    if (call.usage) record.usage = call.usage;
    if (call.tokenIds) record.tokenIds = call.tokenIds;
    if (call.logProbs) record.logProbs = call.logProbs;
    if (call.request.injectedSkill === true) record.injectedSkill = true;
    if (call.error) record.error = call.error;
    out.calls.push(record);
    out.usage = addUsage(out.usage, call.usage);
    chains.previousCall = turn;
    if (!call.error) {
      last = turn;
      lastCall = call;
    }
  }
  if (last && lastCall) {
    out.chat = encodeChatTurn(chains.previousStep, last);
    chains.previousStep = last;
    if (lastCall.tokenIds) out.tokenIds = lastCall.tokenIds;
    if (lastCall.logProbs) out.logProbs = lastCall.logProbs;
  } else {
    // A step without a turn is a gap: the next step's `chat` is self-contained, as `chatTurnsOf` expects.
    chains.previousStep = undefined;
  }
  return out;
}

/**
 * Every model call of a program's episode, expanded (request messages, tools, reply), in order across its
 * steps: the inverse of the delta coding in `TrajectoryStep.info.calls`. A call whose record cannot be
 * rebuilt (a damaged earlier record) ends the list.
 */
export function programCallsOf(steps: readonly TrajectoryStep[]): ChatTurn[] {
  const out: ChatTurn[] = [];
  let previous: ChatTurn | undefined;
  for (const step of steps) {
    const calls = step.info?.calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls as ProgramCallRecord[]) {
      try {
        previous = applyChatTurn(previous, call.turn);
      } catch {
        return out;
      }
      out.push(previous);
    }
  }
  return out;
}
