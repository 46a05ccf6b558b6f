import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { type FakeChatRequest, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, describe, expect, it } from 'vitest';

const EXAMPLE = resolve(__dirname, '..');
// Under runs/ (ignored by git), inside this package: the config names the adapter by package, and the
// package resolves from the config's folder as it would from a user's project.
const TEST_RUNS = join(EXAMPLE, 'runs', 'test');
afterAll(() => rmSync(TEST_RUNS, { recursive: true, force: true }));

/** The `skillrl` bin of @skillrl/cli, as `npx skillrl` runs it. */
function skillrlBin(): string {
  const require = createRequire(join(EXAMPLE, 'package.json'));
  const manifest = require.resolve('@skillrl/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { skillrl: string } };
  return join(dirname(manifest), bin.skillrl);
}

/** A model that sorts: it reads the row off the latest observation and swaps its leftmost inversion. */
function sortingModel(request: FakeChatRequest): string {
  const text = (request.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');
  const rows = [...text.matchAll(/The row is: ([\d ]+)\./g)];
  const row = (rows.at(-1)?.[1] ?? '').split(' ').map(Number);
  const i = row.findIndex((v, k) => k + 1 < row.length && v > (row[k + 1] as number));
  return `The leftmost pair out of order starts at ${i + 1}.\nAction: swap ${i + 1} ${i + 2}`;
}

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [skillrlBin(), ...args], { cwd: EXAMPLE, env, stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    child.on('exit', (code) => done({ code, out, err }));
  });
}

describe('skillrl eval on the sorting adapter, as its README runs it', () => {
  it('scores above zero: the verifier reads what real episodes record', async () => {
    const server = await startFakeOpenAI({ respond: sortingModel });
    try {
      mkdirSync(TEST_RUNS, { recursive: true });
      // eval.yaml as shipped, pointed at the fake endpoint.
      const config = join(TEST_RUNS, 'eval.yaml');
      writeFileSync(
        config,
        readFileSync(join(EXAMPLE, 'eval.yaml'), 'utf8').replace('https://api.openai.com/v1', server.baseURL),
      );
      const result = await run(['eval', config, '--json'], {
        ...process.env,
        OPENAI_API_KEY: 'sk-example-sorting-0123456789',
      });
      expect(result.code, result.err).toBe(0);
      const evaluation = JSON.parse(result.out.trim().split('\n').at(-1) as string) as {
        ok: boolean;
        families: { family: string; withSkill: number | null; withoutSkill: number; episodes: number }[];
        overall: { withSkill: number | null; withoutSkill: number; episodes: number };
      };
      expect(evaluation.ok).toBe(true);
      // 8 tasks × 2 conditions; the model sorts every row, so both sides succeed.
      expect(evaluation.overall.episodes).toBe(16);
      expect(evaluation.overall.withoutSkill).toBeGreaterThan(0);
      expect(evaluation.overall.withSkill).toBeGreaterThan(0);
      expect(evaluation.families.map((f) => f.family).sort()).toEqual(['sort-long', 'sort-short']);
      for (const f of evaluation.families) expect(f.withoutSkill).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
