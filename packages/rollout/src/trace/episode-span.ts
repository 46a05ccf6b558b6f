import { type Attributes, context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Trajectory } from '@skillrl/core';
import { spanErrorMessage } from './model-call-span.js';
import { rolloutTracer } from './rollout-tracer.js';
import { EPISODE_ATTRIBUTES as A, SPAN_NAMES } from './span-vocabulary.js';

/** What is known of an episode before it runs (`RunEpisodeOptions`' identity), for a span that never ends well. */
export interface EpisodeIdentity {
  id?: string;
  task: { id: string; family: string };
  generation?: number;
}

/** The rollout id's prefix: the unit a run session gave it (`s7/task:c1:i0` → `s7`). */
function unitOf(id: string): string | undefined {
  const slash = id.indexOf('/');
  return slash > 0 ? id.slice(0, slash) : undefined;
}

/** The episode span's attributes, from the trajectory as it ended. */
export function episodeAttributes(trajectory: Trajectory): Attributes {
  const attributes: Attributes = {
    [A.rolloutId]: trajectory.id,
    [A.taskId]: trajectory.taskId,
    [A.family]: trajectory.family,
    [A.condition]: trajectory.condition,
    [A.seed]: trajectory.seed,
    [A.reward]: trajectory.reward,
    [A.passed]: trajectory.verdict.passed,
    [A.steps]: trajectory.steps.length,
    [A.errored]: trajectory.error !== undefined,
    [A.modelLatencyMs]: trajectory.durationMs,
  };
  const unit = unitOf(trajectory.id);
  if (unit !== undefined) attributes[A.unit] = unit;
  if (trajectory.generation !== undefined) attributes[A.generation] = trajectory.generation;
  // Only a z = 1 trajectory carries its skill: the z = 0 twin of a pair has no skill attributes at all.
  if (trajectory.skill) {
    attributes[A.skillName] = trajectory.skill.name;
    attributes[A.skillHash] = trajectory.skill.hash;
  }
  if (trajectory.groupId !== undefined) attributes[A.groupId] = trajectory.groupId;
  if (trajectory.index !== undefined) attributes[A.index] = trajectory.index;
  if (trajectory.candidate !== undefined) attributes[A.candidate] = trajectory.candidate;
  if (trajectory.error) {
    attributes[A.errorCode] = trajectory.error.code;
    attributes['error.type'] = trajectory.error.code;
  }
  if (trajectory.usage) {
    attributes[A.inputTokens] = trajectory.usage.inputTokens;
    attributes[A.outputTokens] = trajectory.usage.outputTokens;
    if (trajectory.usage.cost !== undefined) attributes[A.cost] = trajectory.usage.cost;
  }
  return attributes;
}

function endWith(span: Span, trajectory: Trajectory): void {
  span.setAttributes(episodeAttributes(trajectory));
  // The trajectory's error message is already redacted by the runner.
  if (trajectory.error) span.setStatus({ code: SpanStatusCode.ERROR, message: trajectory.error.message });
  span.end();
}

/**
 * Runs an episode inside its `skillrl.episode` span, active while it runs so that model and tool calls are
 * its children; the attributes come from the trajectory it returns (reward, skill, unit, error). An episode
 * that throws (aborted, or bad options) ends its span with an error status. With no tracer provider
 * recording, the episode runs as it would untraced: no context is switched and no attribute is computed.
 */
export function traceEpisode(identity: EpisodeIdentity, run: () => Promise<Trajectory>): Promise<Trajectory> {
  const span = rolloutTracer.startSpan(SPAN_NAMES.episode);
  if (!span.isRecording()) {
    span.end();
    return run();
  }
  return context.with(trace.setSpan(context.active(), span), async () => {
    let trajectory: Trajectory;
    try {
      trajectory = await run();
    } catch (error) {
      const attributes: Attributes = { [A.taskId]: identity.task.id, [A.family]: identity.task.family };
      if (identity.id !== undefined) {
        attributes[A.rolloutId] = identity.id;
        const unit = unitOf(identity.id);
        if (unit !== undefined) attributes[A.unit] = unit;
      }
      if (identity.generation !== undefined) attributes[A.generation] = identity.generation;
      attributes['error.type'] = error instanceof Error ? error.name : 'Error';
      span.setAttributes(attributes);
      span.setStatus({ code: SpanStatusCode.ERROR, message: spanErrorMessage(error) });
      span.end();
      throw error;
    }
    endWith(span, trajectory);
    return trajectory;
  });
}

/**
 * The span of an episode that ended before it could run (its environment or verifier could not be made):
 * every rollout gets its span, this one as long as it took, which is no time.
 */
export function traceUnrunEpisode(trajectory: Trajectory): void {
  const span = rolloutTracer.startSpan(SPAN_NAMES.episode);
  if (!span.isRecording()) {
    span.end();
    return;
  }
  endWith(span, trajectory);
}
