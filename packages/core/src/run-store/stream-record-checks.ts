import type { ValidationIssue } from '../errors/validation-error.js';
import { checkSchema, compileSchema, type SchemaChecker } from '../schema/validate.js';

/**
 * The records of a run directory's known streams, each as small as what its readers rely on: the
 * orchestrator writes them, a resume reads them back by these fields, and nothing more is asserted, so a
 * field added by a later version is never called damage. Rollouts and events have published schemas (core's
 * `trajectory` and `event`); the others are the orchestrator's own records (`RunSession.appendOnce` puts
 * `key` first), checked here by the fields the resume, the replay of an update and the export read.
 */
const keyed = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  required: ['key', ...required],
  properties: { key: { type: 'string' }, ...properties },
});

const count = { type: 'integer', minimum: 0 } as const;
// JSON has no NaN: an estimator's NaN advantage is written as null.
const advantage = { type: ['number', 'null'] } as const;
const trajectoryId = { type: 'string' } as const;
const taskId = { type: 'string' } as const;

const orchestratorShapes: Record<string, object> = {
  // Per unit, what the update was given: per trajectory (internalize) or per task and candidate (evolve).
  advantages: keyed(['unit', 'rows'], {
    unit: { type: 'string' },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['advantage'],
        // Step-level advantages (GiGPO) when the estimator gave them: finite numbers only (a replay refuses
        // anything else), and JSON writes a NaN as null.
        properties: {
          advantage,
          trajectoryId,
          taskId,
          candidate: count,
          stepAdvantages: { type: 'array', items: { type: 'number' } },
        },
        anyOf: [
          { required: ['trajectoryId'], properties: { trajectoryId } },
          { required: ['taskId', 'candidate'], properties: { taskId, candidate: count } },
        ],
      },
    },
  }),
  // Per unit that passed the error budget: what summary.json's rolloutAccount adds up.
  units: keyed(['unit', 'rollouts', 'errored', 'rerun'], {
    unit: { type: 'string' },
    rollouts: count,
    errored: count,
    rerun: count,
  }),
  // Skill-R1: per unit and task, the candidates a resumed generation evaluates again.
  candidates: keyed(['taskId', 'generation', 'candidates'], {
    taskId: { type: 'string' },
    generation: count,
    candidates: {
      type: 'array',
      items: { type: 'object', required: ['skill'], properties: { skill: { type: 'object' } } },
    },
    attempts: { type: 'array' },
    fallback: { type: 'string' },
  }),
  // Skill-R1: each editor call that gave nothing valid, read back by (unit, task, attempt) on resume.
  rejections: keyed(['unit', 'taskId', 'attempt'], {
    unit: { type: 'string' },
    taskId: { type: 'string' },
    attempt: count,
  }),
  // Every `skillrl resume --set`.
  overrides: {
    type: 'object',
    required: ['time', 'set'],
    properties: { time: { type: 'string' }, set: { type: 'array' } },
  },
};

/** The shape a stream's records are checked against, by stream: its name in words and its checker. */
interface RecordShape {
  what: string;
  check: (value: unknown) => ValidationIssue[];
}

const shapes = new Map<string, RecordShape | null>();

/** The shape of a stream's records, compiled on first use (each orchestrator shape costs ~30 ms to compile). */
function shapeOf(stream: string): RecordShape | undefined {
  let shape = shapes.get(stream);
  if (shape !== undefined) return shape ?? undefined;
  if (stream === 'rollouts') shape = { what: 'trajectory', check: (v) => checkSchema('trajectory', v) };
  else if (stream === 'events') shape = { what: 'run event', check: (v) => checkSchema('event', v) };
  else if (Object.hasOwn(orchestratorShapes, stream)) {
    const checker: SchemaChecker<unknown> = compileSchema(
      orchestratorShapes[stream] as object,
      `${stream} record`,
    );
    shape = { what: `${stream} record`, check: (v) => checker.check(v) };
  } else shape = null;
  shapes.set(stream, shape);
  return shape ?? undefined;
}

/** Issues named in a damaged record's reason; the rest are counted. */
const SHOWN_ISSUES = 3;

/**
 * Why a parsed record of `stream` is not one its readers can use, or `undefined` when it is (or when the
 * stream is not one skillrl writes: a stream of your own is only required to be JSON).
 */
export function recordProblem(stream: string, value: unknown): string | undefined {
  const shape = shapeOf(stream);
  if (!shape) return undefined;
  const issues = shape.check(value);
  if (issues.length === 0) return undefined;
  const shown = issues.slice(0, SHOWN_ISSUES).map((i) => `${i.path}: ${i.message}`);
  const more = issues.length > SHOWN_ISSUES ? ` (and ${issues.length - SHOWN_ISSUES} more)` : '';
  return `not a valid ${shape.what}: ${shown.join('; ')}${more}`;
}
