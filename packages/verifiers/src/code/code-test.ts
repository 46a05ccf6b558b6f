/**
 * One test of a `codeTests` verifier: the body of an `async function (assert)` that runs after the
 * solution, in the solution's scope (it sees the solution's top-level declarations and `module.exports`).
 * It passes when it returns or resolves, and fails when it throws or rejects. `assert` is `node:assert/strict`,
 * captured before the solution ran, so a solution cannot replace it.
 *
 * @example { name: 'adds', code: 'assert.equal(add(2, 3), 5);' }
 */
export interface CodeTest {
  name?: string;
  code: string;
}

/** A test as written in options or in `task.metadata.tests`: a bare code string or `{ name, code }`. */
export type CodeTestInput = string | CodeTest;
