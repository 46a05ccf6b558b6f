import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { redactSecrets } from '@skillrl/core';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { SendResult } from '../connection/create-openai-connection.js';
import { endpointAttributes } from './endpoint-attributes.js';
import { rolloutTracer } from './rollout-tracer.js';
import { MODEL_CALL_ATTRIBUTES as A, SPAN_NAMES } from './span-vocabulary.js';

/** What the request loop tells the span as it goes: the endpoint of the last attempt, and how many. */
export interface ModelCallNote {
  baseURL?: string;
  attempts: number;
}

function requestAttributes(model: string, body: ChatCompletionCreateParamsNonStreaming): Attributes {
  const attributes: Attributes = {
    [A.operation]: 'chat',
    // The wire protocol's provider: every endpoint here speaks OpenAI's chat API (vLLM, SGLang, Ollama too).
    [A.provider]: 'openai',
    [A.requestModel]: model,
  };
  if (typeof body.temperature === 'number') attributes[A.temperature] = body.temperature;
  if (typeof body.top_p === 'number') attributes[A.topP] = body.top_p;
  if (typeof body.max_tokens === 'number') attributes[A.maxTokens] = body.max_tokens;
  if (typeof body.seed === 'number') attributes[A.seed] = body.seed;
  return attributes;
}

function endpointOf(note: ModelCallNote): Attributes {
  const where = note.baseURL === undefined ? undefined : endpointAttributes(note.baseURL);
  if (!where) return {};
  return { [A.serverAddress]: where.address, [A.serverPort]: where.port, [A.endpoint]: where.endpoint };
}

/** An error's message as a span may hold it: secrets redacted, and no `user:password@` of a URL in it. */
export function spanErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message).replace(/\/\/[^/\s@]+@/g, '//[REDACTED]@');
}

function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  return error instanceof Error ? error.name : 'Error';
}

/**
 * Runs one model call (`send`: cache, retries and all) inside a `chat <model>` client span, a child of the
 * span active when it is called (the episode's). Nothing is computed when no tracer provider records: the
 * call gets no note and runs as it would untraced. The span holds counts, the model and where the call went,
 * never a prompt, a reply or a header: the key stays out of it, and so do the task's contents.
 */
export async function traceModelCall(
  model: string,
  body: ChatCompletionCreateParamsNonStreaming,
  send: (note?: ModelCallNote) => Promise<SendResult>,
): Promise<SendResult> {
  const span = rolloutTracer.startSpan(`${SPAN_NAMES.modelCallPrefix} ${model}`, { kind: SpanKind.CLIENT });
  if (!span.isRecording()) {
    span.end();
    return send();
  }
  span.setAttributes(requestAttributes(model, body));
  const note: ModelCallNote = { attempts: 0 };
  try {
    const sent = await send(note);
    const { response, usage } = sent;
    const attributes: Attributes = {
      ...endpointOf(note),
      [A.attempts]: note.attempts,
      [A.cached]: sent.cached,
      [A.latencyMs]: sent.latencyMs,
      [A.inputTokens]: usage.inputTokens,
      [A.outputTokens]: usage.outputTokens,
    };
    if (typeof response.model === 'string') attributes[A.responseModel] = response.model;
    if (typeof response.id === 'string') attributes[A.responseId] = response.id;
    const reasons = (response.choices ?? [])
      .map((c) => c?.finish_reason)
      .filter((r): r is NonNullable<typeof r> => typeof r === 'string');
    if (reasons.length > 0) attributes[A.finishReasons] = reasons;
    if (usage.cost !== undefined) attributes[A.cost] = usage.cost;
    span.setAttributes(attributes);
    return sent;
  } catch (error) {
    span.setAttributes({ ...endpointOf(note), [A.attempts]: note.attempts, [A.errorType]: errorType(error) });
    span.setStatus({ code: SpanStatusCode.ERROR, message: spanErrorMessage(error) });
    throw error;
  } finally {
    span.end();
  }
}
