import type { StepIndex } from './step-index.js';

/**
 * The step editor's token space: edit operations on the current skill's numbered lines, read left to right
 * by a cursor. `keep` copies the line under the cursor, `delete` drops it, `swap` writes the next line then
 * this one, `replace: <phrase>` writes a phrase instead of it (each of these moves the cursor past what it
 * used), `insert: <phrase>` writes a phrase before it (the cursor stays), and `<end>` closes the skill once
 * every line was used. With no current skill the editor only inserts: it writes a skill from scratch.
 */
export const OP_KEEP = 0;
export const OP_DELETE = 1;
export const OP_SWAP = 2;
export const OP_END = 3;
/** Ids before the phrase operations: `insert` of phrase p is `OP_FIRST_PHRASE + p`, `replace` adds V more. */
export const OP_FIRST_PHRASE = 4;

/** The name the end-of-skill operation has in `nextStepDistribution` and `info.stepEditor.ops`. */
export const END_OF_SKILL = '<end>';
const INSERT = 'insert: ';
const REPLACE = 'replace: ';

/** Number of operations for a vocabulary of `v` phrases. */
export function opCount(v: number): number {
  return OP_FIRST_PHRASE + 2 * v;
}

export function insertOp(phrase: number): number {
  return OP_FIRST_PHRASE + phrase;
}

export function replaceOp(phrase: number, v: number): number {
  return OP_FIRST_PHRASE + v + phrase;
}

/** The phrase an insert or replace operation writes, or undefined for the others. */
export function phraseOf(op: number, v: number): number | undefined {
  return op >= OP_FIRST_PHRASE && op < opCount(v) ? (op - OP_FIRST_PHRASE) % v : undefined;
}

/** `keep`, `delete`, `swap`, `<end>`, `insert: <phrase>`, `replace: <phrase>`. */
export function opName(op: number, index: StepIndex): string {
  const v = index.steps.length;
  if (op === OP_KEEP) return 'keep';
  if (op === OP_DELETE) return 'delete';
  if (op === OP_SWAP) return 'swap';
  if (op === OP_END) return END_OF_SKILL;
  const phrase = index.steps[phraseOf(op, v) as number] as string;
  return op < OP_FIRST_PHRASE + v ? `${INSERT}${phrase}` : `${REPLACE}${phrase}`;
}

/** The id of an operation name (phrases compared after `normalizeStep`), or undefined. */
export function opId(name: string, index: StepIndex): number | undefined {
  const v = index.steps.length;
  const plain = ['keep', 'delete', 'swap', END_OF_SKILL].indexOf(name.trim());
  if (plain >= 0) return plain;
  for (const [prefix, of] of [
    [INSERT, insertOp],
    [REPLACE, (p: number) => replaceOp(p, v)],
  ] as const) {
    if (name.startsWith(prefix)) {
      const id = index.idOf(name.slice(prefix.length));
      return id === undefined ? undefined : of(id);
    }
  }
  return undefined;
}

/** Where an edit stands: the source lines, the cursor into them and the lines written so far. */
export interface EditState {
  readonly source: readonly string[];
  cursor: number;
  output: string[];
  /** Vocabulary id of each written line that is a phrase (undefined for free text). */
  outputIds: (number | undefined)[];
  /** Last operation, −1 at the start. */
  last: number;
  ended: boolean;
}

export function startEdit(source: readonly string[]): EditState {
  return { source, cursor: 0, output: [], outputIds: [], last: -1, ended: false };
}

/** The limits the masking rules need. */
export interface EditRules {
  index: StepIndex;
  maxSteps: number;
  minSteps: number;
  restrictToFamily: boolean;
  allowRepeats: boolean;
}

/** Which operations may come next. Every sequence of allowed operations ends, within source + maxSteps + 1. */
export function allowedOps(rules: EditRules, family: string, state: EditState): boolean[] {
  const { index } = rules;
  const v = index.steps.length;
  const allowed = new Array<boolean>(opCount(v)).fill(false);
  if (state.ended) return allowed;
  const own = index.familySteps.get(family);
  const pool = rules.restrictToFamily && own !== undefined ? own : index.steps.map((_, i) => i);
  const used = new Set(state.outputIds.filter((id) => id !== undefined));
  const room = rules.maxSteps - state.output.length;
  const fresh = pool.filter((id) => rules.allowRepeats || !used.has(id));
  const remaining = state.source.length - state.cursor;
  if (remaining > 0) {
    allowed[OP_KEEP] = room >= 1;
    allowed[OP_DELETE] = true;
    allowed[OP_SWAP] = remaining >= 2 && room >= 2;
    const here = index.idOf(state.source[state.cursor] as string);
    for (const id of fresh) {
      if (room >= 1) allowed[insertOp(id)] = true;
      // Replacing a line with itself would be a second spelling of `keep`.
      if (room >= 1 && id !== here) allowed[replaceOp(id, v)] = true;
    }
    return allowed;
  }
  let any = false;
  if (room >= 1) {
    for (const id of fresh) {
      allowed[insertOp(id)] = true;
      any = true;
    }
  }
  allowed[OP_END] = state.output.length >= rules.minSteps || !any;
  return allowed;
}

/** Applies one operation (assumed allowed) to the state. */
export function applyOp(state: EditState, op: number, index: StepIndex): void {
  const v = index.steps.length;
  const write = (line: string) => {
    state.output.push(line);
    state.outputIds.push(index.idOf(line));
  };
  const line = state.source[state.cursor] as string;
  if (op === OP_KEEP) {
    write(line);
    state.cursor += 1;
  } else if (op === OP_DELETE) {
    state.cursor += 1;
  } else if (op === OP_SWAP) {
    write(state.source[state.cursor + 1] as string);
    write(line);
    state.cursor += 2;
  } else if (op === OP_END) {
    state.ended = true;
  } else {
    const phrase = phraseOf(op, v) as number;
    write(index.steps[phrase] as string);
    if (op >= OP_FIRST_PHRASE + v) state.cursor += 1;
  }
  state.last = op;
}
