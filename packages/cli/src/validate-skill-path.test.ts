import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './create-cli.js';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A skill as Claude Code writes one: client fields, comma-separated tools, a references/ file. */
function claudeStyleSkill(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'skillrl-validate-skill-')), 'code-review');
  mkdirSync(join(dir, 'references'), { recursive: true });
  writeFileSync(
    join(dir, 'skill.md'),
    [
      '---',
      'name: code-review',
      'description: Review a diff for bugs. Use when asked for a code review.',
      'allowed-tools: Read, Grep, Glob',
      'disable-model-invocation: true',
      'argument-hint: "[pr-number]"',
      '---',
      'Check [the checklist](references/checklist.md), then run scripts/lint.sh.',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'references', 'checklist.md'), '- tests\n');
  return dir;
}

describe('skillrl validate-skill --lenient', () => {
  it('strict: refuses client fields and a missing referenced file, naming each rule', async () => {
    const r = await cli(['validate-skill', claudeStyleSkill()]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('[unknown-field] disable-model-invocation');
    expect(r.err).toContain('[unknown-field] argument-hint');
    expect(r.err).toContain('[reference-missing] scripts/lint.sh');
    expect(r.err).toContain('warning: [allowed-tools-format] allowed-tools');
  });

  it('lenient: the same folder passes, each of those a warning (lowercase skill.md found)', async () => {
    const r = await cli(['validate-skill', claudeStyleSkill(), '--lenient', '--json']);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out) as { ok: boolean; name: string; path: string; warnings: string[] };
    expect(result).toMatchObject({ ok: true, name: 'code-review' });
    expect(result.path).toMatch(/code-review[/\\]skill\.md$/);
    expect(result.warnings.map((w) => w.split(' ').slice(0, 2).join(' '))).toEqual([
      '[allowed-tools-format] allowed-tools:',
      '[unknown-field] disable-model-invocation:',
      '[unknown-field] argument-hint:',
      '[reference-missing] scripts/lint.sh:',
    ]);
  });
});
