import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedOps,
  applyOp,
  type EditRules,
  END_OF_SKILL,
  insertOp,
  OP_DELETE,
  OP_END,
  OP_KEEP,
  OP_SWAP,
  opCount,
  opId,
  opName,
  replaceOp,
  startEdit,
} from './edit-ops.js';
import { buildStepIndex } from './step-index.js';

// Phrase ids: s zero 0, s one 1, s two 2, s three 3 (V = 4); operations: keep 0, delete 1, swap 2,
// end 3, insert p = 4 + p (4..7), replace p = 8 + p (8..11).
const index = buildStepIndex({ a: ['s zero', 's one', 's two'], b: ['s three', 's zero'] });
const rules = (over: Partial<EditRules> = {}): EditRules => ({
  index,
  maxSteps: 6,
  minSteps: 1,
  restrictToFamily: true,
  allowRepeats: false,
  ...over,
});
const open = (allowed: boolean[]) => allowed.flatMap((ok, id) => (ok ? [id] : []));
const run = (source: string[], ops: number[]) => {
  const state = startEdit(source);
  for (const op of ops) applyOp(state, op, index);
  return state;
};

describe('edit operations', () => {
  it('names every operation and reads the names back', () => {
    expect(opCount(4)).toBe(12);
    const names = Array.from({ length: 12 }, (_, op) => opName(op, index));
    expect(names).toEqual([
      'keep',
      'delete',
      'swap',
      END_OF_SKILL,
      'insert: s zero',
      'insert: s one',
      'insert: s two',
      'insert: s three',
      'replace: s zero',
      'replace: s one',
      'replace: s two',
      'replace: s three',
    ]);
    names.forEach((name, op) => {
      expect(opId(name, index)).toBe(op);
    });
    expect(opId('insert: S Two.', index)).toBe(6); // phrases compare normalised
    expect(opId('insert: fly', index)).toBeUndefined();
    expect(opId('jump', index)).toBeUndefined();
  });

  it('applies keep, delete, swap, insert and replace to the lines under the cursor', () => {
    const source = ['Find it.', 'Heat it.', 'Put it.'];
    // keep "Find it." · insert "s one" · swap → "Put it.", "Heat it." · end
    const a = run(source, [OP_KEEP, insertOp(1), OP_SWAP, OP_END]);
    expect(a.output).toEqual(['Find it.', 's one', 'Put it.', 'Heat it.']);
    expect(a.outputIds).toEqual([undefined, 1, undefined, undefined]);
    expect(a.ended).toBe(true);
    // delete "Find it." · replace "Heat it." with "s two" · keep "Put it." · insert "s zero" at the end · end
    const b = run(source, [OP_DELETE, replaceOp(2, 4), OP_KEEP, insertOp(0), OP_END]);
    expect(b.output).toEqual(['s two', 'Put it.', 's zero']);
    expect(b.cursor).toBe(3);
    const same = run(source, [OP_KEEP, OP_KEEP, OP_KEEP, OP_END]);
    expect(same.output).toEqual(source);
  });

  it('masks by cursor, room, family, repeats and minSteps', () => {
    // Family a, lines left: keep, delete, swap, insert of a's phrases, replace except by the line itself.
    expect(open(allowedOps(rules(), 'a', startEdit(['s one', 'x'])))).toEqual([0, 1, 2, 4, 5, 6, 8, 10]);
    // One line left: no swap.
    expect(open(allowedOps(rules(), 'a', run(['s one', 'x'], [OP_KEEP])))).toEqual([0, 1, 4, 6, 8, 10]);
    // All lines used: inserts of unused phrases and the end; s one is written, so no second copy.
    expect(open(allowedOps(rules(), 'a', run(['s one', 'x'], [OP_KEEP, OP_DELETE])))).toEqual([3, 4, 6]);
    // No lines yet written and minSteps 1: from scratch the end waits for a line.
    expect(open(allowedOps(rules(), 'b', startEdit([])))).toEqual([4, 7]);
    // Full (maxSteps 2): only delete while lines remain, only the end after.
    const full = run(['x', 'y', 'z'], [OP_KEEP, OP_KEEP]);
    expect(open(allowedOps(rules({ maxSteps: 2 }), 'a', full))).toEqual([OP_DELETE]);
    applyOp(full, OP_DELETE, index);
    expect(open(allowedOps(rules({ maxSteps: 2 }), 'a', full))).toEqual([OP_END]);
    // Unknown family or no restriction: every phrase; repeats on request.
    expect(open(allowedOps(rules(), 'zzz', startEdit([])))).toEqual([4, 5, 6, 7]);
    expect(open(allowedOps(rules({ allowRepeats: true }), 'a', run([], [insertOp(0)])))).toEqual([
      3, 4, 5, 6,
    ]);
    // Everything used before minSteps: the end is the only way out.
    expect(open(allowedOps(rules({ minSteps: 5 }), 'b', run([], [insertOp(3), insertOp(0)])))).toEqual([3]);
    // Nothing after the end.
    expect(open(allowedOps(rules(), 'a', run([], [insertOp(0), OP_END])))).toEqual([]);
  });

  it('any sequence of allowed operations ends within lines + maxSteps + 1 and respects maxSteps (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('s zero', 's two', 'Free text.', 'Other line.'), { maxLength: 9 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        (source, picks, maxSteps) => {
          const r = rules({ maxSteps, minSteps: 1 });
          const state = startEdit(source);
          let steps = 0;
          while (!state.ended) {
            const ids = open(allowedOps(r, 'a', state));
            expect(ids.length).toBeGreaterThan(0);
            applyOp(state, ids[(picks[steps] as number) % ids.length] as number, index);
            steps += 1;
            expect(steps).toBeLessThanOrEqual(source.length + maxSteps + 1);
          }
          expect(state.output.length).toBeLessThanOrEqual(maxSteps);
          expect(state.cursor).toBe(source.length);
        },
      ),
    );
  });
});
