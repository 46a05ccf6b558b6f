import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, SkillrlError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { runCreateSkillrl } from './create-cli.js';
import { RUN_TEMPLATES } from './run-templates.js';
import { ScaffoldError } from './scaffold-error.js';

async function create(args: string[], name?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCreateSkillrl(
    args,
    { out: (t) => out.push(t), err: (t) => err.push(t) },
    name === undefined ? {} : { name },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `create-skillrl-${label}-`));

describe('create-skillrl adapter|estimator <dir>', () => {
  it('writes the package and prints the next steps; --json gives the same as data', async () => {
    const dir = tempDir('pkg');
    const r = await create(['adapter', join(dir, 'my-adapter')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^wrote adapter package my-adapter in \S*my-adapter: package\.json, /);
    expect(r.out).toMatch(
      /\nnext: cd \S*my-adapter && npm install && npm test && npm run build && npx skillrl run run\.yaml$/,
    );
    const j = await create(['estimator', join(dir, 'est'), '--name', '@acme/est', '--json']);
    expect(j.code, j.err).toBe(0);
    const result = JSON.parse(j.out);
    expect(result).toMatchObject({ ok: true, kind: 'estimator', name: '@acme/est', dir: join(dir, 'est') });
    expect(result.next).toMatch(/ && npx skillrl run run\.yaml && npm run compare$/);
    for (const file of result.files) expect(existsSync(join(dir, 'est', file)), file).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'est', 'package.json'), 'utf8')).name).toBe('@acme/est');
  });

  it('a folder with files is refused (exit 1, the argument and the fix), unless --force', async () => {
    const dir = tempDir('full');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await create(['adapter', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `error: Invalid <dir>: ${dir} is not empty; choose a new folder (or pass --force to write into it)`,
    );
    const j = await create(['adapter', dir, '--json']);
    expect(JSON.parse(j.out)).toEqual({
      ok: false,
      error: {
        code: 'SKILLRL_INVALID_ARGUMENT',
        message: `Invalid <dir>: ${dir} is not empty; choose a new folder (or pass --force to write into it)`,
        argument: '<dir>',
        fix: 'choose a new folder (or pass --force to write into it)',
      },
    });
    expect((await create(['adapter', dir, '--force'])).code).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('a name that makes no npm name names --name', async () => {
    const r = await create(['adapter', join(tempDir('bad'), 'x'), '--name', '!!!']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'error: Invalid --name: "!!!" does not make an npm package name; pass --name my-package',
    );
  });

  it('an estimator named like a built-in (grpo) is refused before anything is written: the argument, a free name', async () => {
    const dir = tempDir('builtin');
    const r = await create(['estimator', join(dir, 'grpo')]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'error: Invalid <dir>: "grpo" is the name of a built-in estimator (@skillrl/advantage), and the package registers its estimator under its own name, which skillrl run refuses for a built-in\'s; choose another folder name, or pass --name my-grpo',
    );
    expect(existsSync(join(dir, 'grpo'))).toBe(false);
    const j = await create(['estimator', join(dir, 'x'), '--name', '@acme/grpo_passk', '--json']);
    expect(JSON.parse(j.out).error).toMatchObject({
      code: 'SKILLRL_INVALID_ARGUMENT',
      argument: '--name',
      fix: 'pass --name @acme/my-grpo_passk',
    });
    // The suggested name is free; an adapter may take any name (it registers none).
    expect((await create(['estimator', join(dir, 'grpo'), '--name', 'my-grpo'])).code).toBe(0);
    expect((await create(['adapter', join(dir, 'skillc')])).code).toBe(0);
  });

  it('usage errors exit 2; no arguments prints the help with the npm create examples', async () => {
    expect((await create(['adapter'])).code).toBe(2);
    expect((await create(['nope'])).code).toBe(2);
    const help = await create([]);
    expect(help.code).toBe(0);
    expect(help.out).toContain('npm create skillrl@latest adapter my-adapter');
    expect(help.out).toContain('npm create skillrl run skillc.yaml -- --template household-skillc');
    const named = await create(['--help'], 'skillrl init');
    expect(named.code).toBe(0);
    expect(named.out).toContain('Usage: skillrl init');
  });
});

describe('create-skillrl run <file> --template <name>', () => {
  it('writes the config (and GAIA its data) and prints steps that install the CLI and what it needs', async () => {
    const dir = tempDir('run');
    const file = join(dir, 'skillc.yaml');
    const r = await create(['run', file, '--template', 'household-skillc']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      /\nnext: npm install @skillrl\/cli @skillrl\/task-household @skillrl\/policy-tfjs && npx skillrl check \S*skillc\.yaml && npx skillrl run \S*skillc\.yaml$/,
    );
    expect(readFileSync(file, 'utf8')).toContain('name: household-skillc');
    const gaia = await create(['run', join(dir, 'gaia.yaml'), '--template', 'gaia-openai', '--json']);
    const result = JSON.parse(gaia.out);
    expect(result.files.map((f: string) => f.slice(dir.length + 1))).toEqual([
      'gaia.yaml',
      'data/validation/metadata.jsonl',
      'data/validation/sales.csv',
    ]);
    const text = await create(['run', join(dir, 'gaia2.yaml'), '--template', 'gaia-openai']);
    expect(text.out).toContain('the run reads OPENAI_API_KEY from the environment');
  });

  it('an existing file is refused unless --force; an unknown template lists the names', async () => {
    const dir = tempDir('run-errors');
    const file = join(dir, 'x.yaml');
    expect((await create(['run', file, '--template', 'shop'])).code).toBe(0);
    const again = await create(['run', file, '--template', 'shop']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('exists; choose another file (or pass --force)');
    expect((await create(['run', file, '--template', 'evolve-llm', '--force'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('name: evolve-llm');
    const unknown = await create(['run', file, '--template', 'nope', '--force']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(
      `unknown template "nope"; the templates are ${RUN_TEMPLATES.map((t) => t.name).join(', ')}`,
    );
    const missing = await create(['run', file]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('usage: create-skillrl run <file> --template <name>; the templates:');
  });

  it('--list (on its own or on run) describes every template; --json as data', async () => {
    const list = await create(['--list']);
    expect(list.code).toBe(0);
    for (const t of RUN_TEMPLATES) expect(list.out).toContain(`  ${t.name.padEnd(22)} ${t.describe}`);
    expect(list.out).toContain('demo-grpo-control');
    expect((await create(['run', '--list'])).out).toContain('household-skillc');
    const json = JSON.parse((await create(['--list', '--json'])).out);
    expect(json.kinds).toEqual(['adapter', 'estimator']);
    expect(json.templates.map((t: { name: string }) => t.name)).toEqual(RUN_TEMPLATES.map((t) => t.name));
  });
});

describe('ScaffoldError', () => {
  it('carries the argument and the fix, and is recognised as core’s InvalidArgumentError', () => {
    const error = new ScaffoldError('--template', 'unknown template "x"', 'use household-skillc');
    expect(error.message).toBe('Invalid --template: unknown template "x"; use household-skillc');
    expect(ScaffoldError.isInstance(error)).toBe(true);
    expect(SkillrlError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(ScaffoldError.isInstance(new Error('x'))).toBe(false);
  });
});
