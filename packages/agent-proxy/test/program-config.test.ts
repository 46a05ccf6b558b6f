import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, MissingFieldError, redactSecrets } from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkProgramAgentFiles,
  checkProgramAgentOptions,
  programAgentOptionsFromConfig,
} from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A config file in a fresh folder, with `files` beside it. */
function project(files: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'program-config-'));
  dirs.push(dir);
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
  return join(dir, 'run.yaml');
}

const upstream = { model: 'm', baseURL: 'http://127.0.0.1:9/v1' };
const noImport = async () => {
  throw new Error('nothing to import');
};

describe('checkProgramAgentFiles', () => {
  it('a missing cwd is named by its path, read from the config folder', () => {
    const config = project();
    expect(checkProgramAgentFiles({ cwd: 'nowhere', command: ['node', 'a.mjs'] }, config)).toEqual([
      { path: '$.agent.program.cwd', message: `${join(config, '..', 'nowhere')} does not exist` },
    ]);
  });

  it('a missing program path, a program not on PATH, a missing script: each named with where it was read', () => {
    const config = project();
    const folder = join(config, '..');
    expect(checkProgramAgentFiles({ command: ['./bin/agent', 'x'] }, config)).toEqual([
      {
        path: '$.agent.program.command',
        message: `${join(folder, 'bin/agent')} does not exist (paths are read from agent.program.cwd, default the config's folder)`,
      },
    ]);
    expect(
      checkProgramAgentFiles({ command: ['no-such-program-zz9'] }, config, undefined, { PATH: folder }),
    ).toEqual([
      {
        path: '$.agent.program.command',
        message: '"no-such-program-zz9" is not on PATH; give its path, or install it',
      },
    ]);
    expect(checkProgramAgentFiles({ command: [process.execPath, 'agent.py', '--flag.py'] }, config)).toEqual([
      {
        path: '$.agent.program.command',
        message: `${join(folder, 'agent.py')} does not exist (read from agent.program.cwd, default the config's folder)`,
      },
    ]);
  });

  it('files that are there pass; a bare program is found on PATH', () => {
    const config = project(['agents/agent.py']);
    const folder = join(config, '..');
    expect(
      checkProgramAgentFiles({ cwd: 'agents', command: ['node', 'agent.py'] }, config, undefined, {
        PATH: join(process.execPath, '..'),
      }),
    ).toEqual([]);
    expect(checkProgramAgentFiles({ cwd: join(folder, 'agents') }, config)).toEqual([]);
  });
});

describe('checkProgramAgentOptions with the config file', () => {
  it('the files first, then the options; without configPath no file is looked at', () => {
    const config = project();
    const options = { command: ['./missing'], upstream, timeoutMs: -1 };
    expect(checkProgramAgentOptions(options, '$.agent.program', {}, config).map((i) => i.path)).toEqual([
      '$.agent.program.command',
      '$.agent.program.timeoutMs',
    ]);
    expect(checkProgramAgentOptions(options).map((i) => i.path)).toEqual(['$.agent.program.timeoutMs']);
  });
});

describe('programAgentOptionsFromConfig', () => {
  const VAR = 'PROGRAM_CONFIG_TEST_KEY';
  afterEach(() => {
    delete process.env[VAR];
  });

  it('cwd read from the config folder (default: the folder itself); the key registered as a secret', async () => {
    const config = project();
    const folder = join(config, '..');
    process.env[VAR] = 'sk-program-config-9d1e';
    const options = await programAgentOptionsFromConfig(
      { command: ['node', 'a.mjs'], cwd: 'agents', upstream: { ...upstream, apiKeyEnv: VAR } },
      { configPath: config, importModule: noImport },
    );
    expect(options.cwd).toBe(join(folder, 'agents'));
    expect(options.upstream).toEqual({ ...upstream, apiKeyEnv: VAR });
    expect(redactSecrets('sk-program-config-9d1e')).not.toContain('sk-program-config-9d1e');
    const plain = await programAgentOptionsFromConfig(
      { command: ['node'], upstream },
      { configPath: config, importModule: noImport },
    );
    expect(plain.cwd).toBe(folder);
  });

  it('upstream.apiKeyEnv unset: a typed error naming the field', async () => {
    const error = await programAgentOptionsFromConfig(
      { command: ['node'], upstream: { ...upstream, apiKeyEnv: VAR } },
      { configPath: project(), importModule: noImport },
    ).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'agent.program.upstream.apiKeyEnv' });
    expect((error as Error).message).toContain(`the environment variable ${VAR} is not set`);
  });

  it('upstream and its model are required', async () => {
    const ctx = { configPath: project(), importModule: noImport };
    const none = await programAgentOptionsFromConfig({ command: ['node'] }, ctx).catch((e: unknown) => e);
    expect(MissingFieldError.isInstance(none)).toBe(true);
    expect(none).toMatchObject({ component: 'agent.program', field: 'upstream' });
    const noModel = await programAgentOptionsFromConfig({ command: ['node'], upstream: {} }, ctx).catch(
      (e: unknown) => e,
    );
    expect(noModel).toMatchObject({ component: 'agent.program.upstream', field: 'model' });
  });

  it('the module form: imported through the host, its run (or the named export) becomes the program', async () => {
    const run = async () => 'answer';
    const asked: [string, string][] = [];
    const importModule = async (specifier: string, what: string) => {
      asked.push([specifier, what]);
      return { run, other: run, notAFunction: 1 };
    };
    const ctx = { configPath: project(), importModule };
    const options = await programAgentOptionsFromConfig({ package: './agent.mjs', upstream }, ctx);
    expect(options.run).toBe(run);
    expect(asked).toEqual([['./agent.mjs', 'agent.program.package']]);
    expect('package' in options).toBe(false);
    await expect(
      programAgentOptionsFromConfig({ package: './agent.mjs', export: 'notAFunction', upstream }, ctx),
    ).rejects.toThrow(
      'Invalid agent.program.export: ./agent.mjs exports no function "notAFunction": export run(task, ctx) => Promise<answer>',
    );
    await expect(
      programAgentOptionsFromConfig({ package: './agent.mjs', command: ['node'], upstream }, ctx),
    ).rejects.toThrow('give command (an executable) or package (a module function), not both');
  });
});
