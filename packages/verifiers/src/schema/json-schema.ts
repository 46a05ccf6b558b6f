import { InvalidArgumentError, type Trajectory } from '@skillrl/core';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type AsyncVerifier, answerOf, checkThreshold, makeVerdict, quote } from '../shared/index.js';
import { describeAjvError, type SchemaIssue } from './describe-ajv-error.js';
import { extractJson } from './extract-json.js';

export interface JsonSchemaOptions {
  name?: string;
  /** A JSON Schema (draft-07 / 2019-09 keywords ajv 8 understands). Formats (`email`, `date-time`…) are known. */
  schema: object;
  /** How the JSON is read from the answer. Default `lenient` (fenced blocks and surrounding prose allowed). */
  parse?: 'strict' | 'lenient';
  /** At most this many failing paths are listed in the reason (all are in `details.issues`). Default 5. */
  maxIssuesInReason?: number;
  extract?: (trajectory: Trajectory) => string;
  threshold?: number;
}

/** Score 1 when the answer is JSON that satisfies the schema; otherwise 0 and the reason lists the failing paths. */
export function jsonSchema(options: JsonSchemaOptions): AsyncVerifier {
  const name = options.name ?? 'jsonSchema';
  const threshold = checkThreshold(name, options.threshold, 1);
  const mode = options.parse ?? 'lenient';
  const maxListed = options.maxIssuesInReason ?? 5;
  let validateFn: ValidateFunction;
  try {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validateFn = ajv.compile(options.schema);
  } catch (cause) {
    throw new InvalidArgumentError(
      `${name} options.schema`,
      `ajv cannot compile it: ${(cause as Error).message}`,
      { cause },
    );
  }
  return {
    name,
    async verify(_task, trajectory) {
      const text = (options.extract ?? answerOf)(trajectory);
      const parsed = extractJson(text, mode);
      if (!parsed.ok)
        return makeVerdict(0, threshold, `answer is not JSON (${parsed.error}): ${quote(text)}`);
      if (validateFn(parsed.value))
        return makeVerdict(1, threshold, 'answer satisfies the schema', { from: parsed.from });
      const issues: SchemaIssue[] = [];
      const seen = new Set<string>();
      for (const e of validateFn.errors ?? []) {
        const issue = describeAjvError(e);
        const key = `${issue.path}\u0000${issue.message}`;
        if (!seen.has(key)) {
          seen.add(key);
          issues.push(issue);
        }
      }
      const listed = issues.slice(0, maxListed).map((i) => `${i.path} ${i.message}`);
      const more = issues.length > maxListed ? ` (+${issues.length - maxListed} more)` : '';
      return makeVerdict(0, threshold, `schema violations: ${listed.join('; ')}${more}`, {
        issues,
        from: parsed.from,
      });
    },
  };
}
