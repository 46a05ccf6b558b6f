import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Trajectory } from '@skillrl/core';
import { EPISODE_ATTRIBUTES, SPAN_NAMES, spanErrorMessage } from '@skillrl/rollout';

/** The orchestrator's instrumentation scope. */
export const ORCHESTRATOR_TRACER_NAME = '@skillrl/orchestrator';

const tracer = trace.getTracer(ORCHESTRATOR_TRACER_NAME);

/** Attributes of the unit span besides the unit itself (`skillrl.unit`). */
export const UNIT_ATTRIBUTES = {
  runId: 'skillrl.run.id',
  unit: EPISODE_ATTRIBUTES.unit,
  generation: EPISODE_ATTRIBUTES.generation,
  planned: 'skillrl.unit.planned',
  rollouts: 'skillrl.unit.rollouts',
  errored: 'skillrl.unit.errored',
} as const;

export interface UnitIdentity {
  runId: string;
  /** `g2`, `s7`, `v10`, `test`: the prefix of the unit's rollout ids. */
  unit: string;
  planned: number;
  generation?: number;
}

/**
 * Runs a unit's episodes inside one `skillrl.unit` span, so every episode span of the unit (run in this
 * process) is its child and a backend shows the unit as one trace. A unit stopped by the error budget or a
 * signal ends its span with an error status. A no-op without a registered SDK.
 */
export async function traceUnit(
  identity: UnitIdentity,
  run: () => Promise<Trajectory[]>,
): Promise<Trajectory[]> {
  const span = tracer.startSpan(SPAN_NAMES.unit);
  if (!span.isRecording()) {
    span.end();
    return run();
  }
  span.setAttributes({
    [UNIT_ATTRIBUTES.runId]: identity.runId,
    [UNIT_ATTRIBUTES.unit]: identity.unit,
    [UNIT_ATTRIBUTES.planned]: identity.planned,
    ...(identity.generation !== undefined ? { [UNIT_ATTRIBUTES.generation]: identity.generation } : {}),
  });
  try {
    const trajectories = await context.with(trace.setSpan(context.active(), span), run);
    span.setAttributes({
      [UNIT_ATTRIBUTES.rollouts]: trajectories.length,
      [UNIT_ATTRIBUTES.errored]: trajectories.filter((t) => t.error).length,
    });
    return trajectories;
  } catch (error) {
    span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: spanErrorMessage(error) });
    throw error;
  } finally {
    span.end();
  }
}
