import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ComponentKind } from '@skillrl/core';
import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { BUILTIN_COMPONENTS } from '../src/components/builtin-components.js';
import { importEntry } from '../src/components/call-builtin.js';
import { type ComponentCheck, checkConfigValue } from '../src/components/check-components.js';
import { importBuiltin } from '../src/components/import-package.js';
import { resolveComponent } from '../src/components/resolve-component.js';
import { evolveConfig, internalizeConfig, tempDir, writeConfig } from './support.js';

// issue 36: the orchestrator's table of built-ins names packages and their exports, nothing more; each
// component's option rules, files and keys are its package's, reached through the same glue for every one.

const issuesOf = (rows: ComponentCheck[], role: string) => {
  const error = rows.find((r) => r.role === role)?.error;
  return ValidationError.isInstance(error)
    ? error.issues.map(({ path, message }) => ({ path, message }))
    : [];
};

describe('BUILTIN_COMPONENTS', () => {
  const entries = Object.entries(BUILTIN_COMPONENTS).flatMap(([kind, table]) =>
    Object.entries(table).map(([name, entry]) => ({ kind: kind as ComponentKind, name, entry })),
  );

  it('every export an entry names is exported by the package it names', async () => {
    for (const { kind, name, entry } of entries) {
      const mod = await importEntry(entry, kind, name);
      const named = [
        typeof entry.create === 'string' ? entry.create : undefined,
        entry.probe,
        entry.persistence?.load,
        entry.persistence?.save,
      ].filter((n): n is string => n !== undefined);
      for (const fn of named) expect(typeof mod[fn], `${kind} ${name}: ${fn}`).toBe('function');
      if (entry.check) {
        const from = await importBuiltin(entry.checkFrom ?? entry.package, 'test');
        expect(typeof from[entry.check], `${kind} ${name}: ${entry.check}`).toBe('function');
      }
      for (const [trainer, t] of Object.entries(entry.trainers ?? {})) {
        const pkg = await importBuiltin(t.package, 'test');
        for (const fn of [t.create, t.check])
          expect(typeof pkg[fn], `${name} ${trainer}: ${fn}`).toBe('function');
      }
    }
  }, 60_000);
});

describe("built-ins' options, checked by their packages through the one path", () => {
  it("the openai agent's option names: in the agent's row, not among the config's own issues", async () => {
    const config = internalizeConfig(
      { agent: { name: 'openai', options: { model: 'm', apiKeyEnv: 'KEY', temprature: 0.7 } } },
      { trainer: 'external' },
    );
    const checked = await checkConfigValue(config, writeConfig(tempDir('builtin-openai'), config));
    expect(checked.issues).toEqual([]);
    expect(issuesOf(checked.components, 'agent')).toEqual([
      {
        path: '$.agent.options.temprature',
        message: 'unknown option of the openai agent; did you mean temperature?',
      },
    ]);
  });

  it("the LLM editor's model names: in the generator's row", async () => {
    const config = evolveConfig(
      {},
      {
        mode: 'inference',
        generator: {
          name: 'llm-editor',
          options: { model: { model: 'm', baseURL: 'http://127.0.0.1:1/v1', temprature: 0.7, mode: 'text' } },
        },
      },
    );
    const checked = await checkConfigValue(config, writeConfig(tempDir('builtin-llm-editor'), config));
    expect(checked.issues).toEqual([]);
    expect(issuesOf(checked.components, 'evolve.generator')).toEqual([
      {
        path: '$.evolve.generator.options.model.temprature',
        message: 'unknown option of the OpenAI chat model; did you mean temperature?',
      },
      {
        path: '$.evolve.generator.options.model.mode',
        message: 'unknown option of the OpenAI chat model; did you mean model?',
      },
    ]);
  });

  it('a run refuses the same before it builds the component', async () => {
    const configPath = writeConfig(tempDir('builtin-resolve'), {});
    const error = await resolveComponent(
      'agent',
      { name: 'openai', options: { model: 'm', temprature: 0.7 } },
      { seed: 1, configPath },
    ).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['$.agent.options.temprature']);
  });

  it("the files a program agent and a Tinker component name, read from the config's folder", async () => {
    const dir = tempDir('builtin-files');
    mkdirSync(join(dir, 'tok'));
    const config = evolveConfig(
      {
        agent: {
          name: 'program',
          options: { cwd: 'agents', command: ['node', 'agent.mjs'], upstream: { model: 'm' } },
        },
      },
      {
        generator: {
          name: 'llm-editor',
          options: { trainer: { name: 'tinker', options: { baseModel: 'b', tokenizer: 'tok' } } },
        },
      },
    );
    const checked = await checkConfigValue(config, writeConfig(dir, config), { probe: false });
    expect(issuesOf(checked.components, 'agent')).toEqual([
      { path: '$.agent.program.cwd', message: `${join(dir, 'agents')} does not exist` },
    ]);
    const tokenizer = issuesOf(checked.components, 'evolve.generator');
    expect(tokenizer.map((i) => i.path)).toEqual(['$.evolve.generator.options.trainer.options.tokenizer']);
    expect(tokenizer[0]?.message).toContain(
      `${join(dir, 'tok')} has no tokenizer.json or tokenizer_config.json`,
    );
  });
});
