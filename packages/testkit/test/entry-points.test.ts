import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = join(__dirname, '../dist');

// `@skillrl/testkit` must load where vitest is not installed (a fake server in a CommonJS script); the suites
// are `@skillrl/testkit/vitest`. The built files are what a user gets.
describe('the entries as built', () => {
  it('the main entry (ESM and CommonJS) never imports vitest; the vitest entry does', () => {
    for (const file of ['index.js', 'index.cjs']) {
      expect(readFileSync(join(dist, file), 'utf8'), file).not.toMatch(
        /from ["']vitest["']|require\(["']vitest["']\)/,
      );
    }
    expect(readFileSync(join(dist, 'vitest.js'), 'utf8')).toMatch(/from ["']vitest["']/);
  });

  it('require() of the main entry gives the fake server and the plain estimator checks', () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const t = require(${JSON.stringify(join(dist, 'index.cjs'))}); console.log(typeof t.startFakeOpenAI, typeof t.estimatorConformanceChecks, 'describeAdapterConformance' in t)`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function function false');
  });
});
