import type { Trajectory, TrajectoryStep } from '@skillrl/core';

/** One decision of an episode as the timeline shows it. */
export interface TimelineStep {
  index: number;
  /** What the agent saw. */
  observation: string;
  /** The action the environment was given ('' for a tool call that was not an action). */
  action: string;
  /** A tool call, as the agent made it: name and arguments (JSON text). */
  toolCall?: { name: string; arguments: string };
  /** The model's own reply, when the agent recorded it (an LLM's message text and tool calls). */
  reply?: string;
  reward: number;
  done: boolean;
  invalid?: boolean;
  latencyMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Tokens of the action, when the model returned their ids. */
  actionTokens?: number;
  logProb?: number;
  /** The environment's own info for the step (small values only). */
  env?: string;
}

/** One rollout, ready for the timeline. */
export interface TrajectoryView {
  id: string;
  taskId: string;
  family: string;
  condition: 0 | 1;
  skill?: { name: string; hash?: string };
  generation?: number;
  candidate?: number;
  reward: number;
  verdict: { score: number; passed: boolean; reason?: string };
  error?: { code: string; message: string };
  answer?: string;
  usage?: { inputTokens: number; outputTokens: number; requests?: number };
  durationMs?: number;
  seed?: number;
  steps: TimelineStep[];
}

/** Text of a step field that may be anything (an agent's own info). */
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** The environment's info, unless it is too large to be worth a line (then its keys). */
function envText(env: unknown): string | undefined {
  const text = asText(env);
  if (text === undefined || text === '{}') return undefined;
  return text.length <= 400 ? text : `{${Object.keys(env as object).join(', ')}} (${text.length} characters)`;
}

function replyOf(step: TrajectoryStep): string | undefined {
  const chat = step.info?.chat as { reply?: { content?: unknown; tool_calls?: unknown[] } } | undefined;
  if (chat?.reply) {
    const parts: string[] = [];
    if (typeof chat.reply.content === 'string' && chat.reply.content.length > 0)
      parts.push(chat.reply.content);
    for (const call of chat.reply.tool_calls ?? []) {
      const fn = (call as { function?: { name?: string; arguments?: string } }).function;
      if (fn) parts.push(`→ ${fn.name ?? '?'}(${fn.arguments ?? ''})`);
    }
    if (parts.length > 0) return parts.join('\n');
  }
  return asText(step.info?.raw);
}

function toolCallOf(step: TrajectoryStep): TimelineStep['toolCall'] {
  const call = step.info?.toolCall as { name?: unknown; arguments?: unknown } | undefined;
  if (!call || typeof call.name !== 'string') return undefined;
  return { name: call.name, arguments: asText(call.arguments) ?? '' };
}

/**
 * A trajectory as the timeline shows it: per step the observation, the action or tool call, the model's
 * reply, the reward, tokens and latency. What a policy records for training (candidates, features, token
 * ids) stays out: it can be tens of kilobytes a step and says nothing to a reader. Everything here is data,
 * and the page writes it as text.
 */
export function trajectoryView(t: Trajectory): TrajectoryView {
  const steps = (Array.isArray(t.steps) ? t.steps : []).map((s, i): TimelineStep => {
    const toolCall = toolCallOf(s);
    const reply = replyOf(s);
    const env = envText(s.info?.env);
    return {
      index: typeof s.index === 'number' ? s.index : i,
      observation: String(s.observation ?? ''),
      action: String(s.action ?? ''),
      ...(toolCall ? { toolCall } : {}),
      ...(reply !== undefined ? { reply } : {}),
      reward: typeof s.reward === 'number' ? s.reward : 0,
      done: s.done === true,
      ...(s.invalid ? { invalid: true } : {}),
      ...(typeof s.latencyMs === 'number' ? { latencyMs: s.latencyMs } : {}),
      ...(s.usage ? { inputTokens: s.usage.inputTokens, outputTokens: s.usage.outputTokens } : {}),
      ...(Array.isArray(s.tokenIds) ? { actionTokens: s.tokenIds.length } : {}),
      ...(typeof s.logProb === 'number' ? { logProb: s.logProb } : {}),
      ...(env ? { env } : {}),
    };
  });
  return {
    id: t.id,
    taskId: String(t.taskId),
    family: String(t.family ?? ''),
    condition: t.condition === 1 ? 1 : 0,
    ...(t.skill ? { skill: { name: t.skill.name, ...(t.skill.hash ? { hash: t.skill.hash } : {}) } } : {}),
    ...(typeof t.generation === 'number' ? { generation: t.generation } : {}),
    ...(typeof t.candidate === 'number' ? { candidate: t.candidate } : {}),
    reward: t.reward,
    verdict: {
      score: t.verdict?.score ?? 0,
      passed: t.verdict?.passed === true,
      ...(t.verdict?.reason ? { reason: t.verdict.reason } : {}),
    },
    ...(t.error ? { error: { code: String(t.error.code), message: String(t.error.message) } } : {}),
    ...(typeof t.answer === 'string' ? { answer: t.answer } : {}),
    ...(t.usage
      ? {
          usage: {
            inputTokens: t.usage.inputTokens,
            outputTokens: t.usage.outputTokens,
            ...(t.usage.requests !== undefined ? { requests: t.usage.requests } : {}),
          },
        }
      : {}),
    ...(typeof t.durationMs === 'number' ? { durationMs: t.durationMs } : {}),
    ...(typeof t.seed === 'number' ? { seed: t.seed } : {}),
    steps,
  };
}
