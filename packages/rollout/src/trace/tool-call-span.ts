import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ToolDefinition, ToolExecuteOptions } from '@skillrl/core';
import { spanErrorMessage } from './model-call-span.js';
import { rolloutTracer } from './rollout-tracer.js';
import { TOOL_CALL_ATTRIBUTES as A, SPAN_NAMES } from './span-vocabulary.js';

/**
 * Executes a task tool the runner runs (a file read, a search) inside an `execute_tool <name>` span, a child
 * of the episode's: its name, the model's call id, how long it took and whether it threw. Neither the
 * arguments nor the result are recorded (they are the task's contents).
 */
export async function executeTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  options: ToolExecuteOptions,
  toolCall?: unknown,
): Promise<string> {
  if (typeof tool.execute !== 'function') {
    throw new TypeError(`tool "${tool.name}" has no execute: the environment runs it, not the runner`);
  }
  const span = rolloutTracer.startSpan(`${SPAN_NAMES.toolCallPrefix} ${tool.name}`, {
    kind: SpanKind.INTERNAL,
  });
  if (!span.isRecording()) {
    span.end();
    return tool.execute(args, options);
  }
  span.setAttributes({ [A.operation]: 'execute_tool', [A.toolName]: tool.name, [A.toolType]: 'function' });
  const id = (toolCall as { id?: unknown } | undefined)?.id;
  if (typeof id === 'string' && id.length > 0) span.setAttribute(A.toolCallId, id);
  const started = performance.now();
  try {
    const result = await tool.execute(args, options);
    span.setAttributes({ [A.latencyMs]: Math.round(performance.now() - started), [A.errored]: false });
    return result;
  } catch (error) {
    span.setAttributes({
      [A.latencyMs]: Math.round(performance.now() - started),
      [A.errored]: true,
      [A.errorType]: error instanceof Error ? error.name : 'Error',
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: spanErrorMessage(error) });
    throw error;
  } finally {
    span.end();
  }
}
