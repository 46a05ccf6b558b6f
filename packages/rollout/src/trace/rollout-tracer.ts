import { type Tracer, trace } from '@opentelemetry/api';

/** The instrumentation scope of rollout's spans. */
export const ROLLOUT_TRACER_NAME = '@skillrl/rollout';

/**
 * Rollout's tracer. The API hands out a proxy that follows whichever tracer provider the application
 * registers, even later: with none registered (no SDK loaded), its spans are non-recording no-ops.
 */
export const rolloutTracer: Tracer = trace.getTracer(ROLLOUT_TRACER_NAME);
