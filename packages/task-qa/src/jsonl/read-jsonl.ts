import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type JsonObject } from '@skillrl/core';
import { isJsonObject } from './field-path.js';
import type { JsonlProblem } from './jsonl-problem.js';

export interface JsonlRow {
  /** 1-based line number in the file. */
  line: number;
  value: JsonObject;
}

export interface JsonlRead {
  rows: JsonlRow[];
  problems: JsonlProblem[];
}

/**
 * Reads a JSONL file: one JSON object a line. Blank lines are skipped (a trailing newline is normal); a line
 * that is not JSON, or is JSON but not an object, is reported as a problem with its line number and skipped.
 * A missing or unreadable file is an `InvalidArgumentError` naming the option and the path.
 */
export function readJsonl(path: string, option = 'path'): JsonlRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'read error';
    throw new InvalidArgumentError(option, `cannot read the JSONL file ${path} (${code}); check the path`, {
      cause,
    });
  }
  // A UTF-8 byte-order mark is not part of the first row.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const rows: JsonlRow[] = [];
  const problems: JsonlProblem[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      problems.push({ file: path, line, severity: 'error', message: `not valid JSON (${reason})` });
      continue;
    }
    if (!isJsonObject(value)) {
      const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
      problems.push({ file: path, line, severity: 'error', message: `expected a JSON object, got ${kind}` });
      continue;
    }
    rows.push({ line, value });
  }
  return { rows, problems };
}
