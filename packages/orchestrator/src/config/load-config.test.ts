import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support.js';
import { checkConfig, loadConfig } from './load-config.js';

const good = {
  method: 'internalize',
  seed: 1,
  adapter: 'household',
  tasks: { split: 'train', limit: 4 },
  agent: { name: 'skill-reading' },
  internalize: { trainer: 'tfjs' },
};

describe('config checks', () => {
  it('accepts a minimal config', () => {
    expect(checkConfig(good)).toEqual([]);
  });

  it('lists every problem by path at once', () => {
    const issues = checkConfig({
      method: 'evolve',
      seed: 1.5,
      adapter: { options: {} },
      tasks: { limit: 0 },
      agent: { name: 'openai', options: { model: 'm', apiKey: 'sk-secret-value-123456' } },
      concurrency: 0,
      evolve: { mode: 'train', candidates: 0 },
      extra: true,
    });
    const paths = issues.map((i) => i.path).sort();
    expect(paths).toEqual(
      [
        '$.extra',
        '$.seed',
        '$.tasks.split',
        '$.tasks.limit',
        '$.concurrency',
        '$.evolve.mode',
        '$.evolve.candidates',
        '$.adapter',
        '$.agent.options',
        '$.evolve.generator',
      ].sort(),
    );
    // The secret itself is never echoed back.
    expect(JSON.stringify(issues)).not.toContain('sk-secret-value-123456');
  });

  it('cross-field rules: the method’s own section, ablations only for skillc, vanilla-grpo is one generation', () => {
    const issues = checkConfig({
      ...good,
      internalize: { variant: 'grpo', ablation: 'no-pruning' },
      evolve: { generations: 2 },
    });
    expect(issues.map((i) => i.path).sort()).toEqual(
      ['$.evolve', '$.internalize.ablation', '$.internalize.trainer'].sort(),
    );
    const vanilla = checkConfig({
      ...good,
      method: 'evolve',
      internalize: undefined,
      evolve: { variant: 'vanilla-grpo', generations: 3, generator: 'step-editor' },
    });
    expect(vanilla).toEqual([
      { path: '$.evolve.generations', message: expect.stringContaining('one generation') },
    ]);
  });

  it('loadConfig reads YAML and JSON and throws a ValidationError naming the file problems', () => {
    const dir = tempDir('config');
    const yamlPath = join(dir, 'a.yaml');
    writeFileSync(
      yamlPath,
      'method: internalize\nseed: 1\nadapter: household\ntasks: { split: train }\nagent: skill-reading\ninternalize: { trainer: tfjs }\n',
    );
    expect(loadConfig(yamlPath).config.seed).toBe(1);
    const jsonPath = join(dir, 'a.json');
    writeFileSync(jsonPath, JSON.stringify({ ...good, seed: 'x' }));
    const error = (() => {
      try {
        loadConfig(jsonPath);
      } catch (e) {
        return e;
      }
    })();
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).issues).toEqual([{ path: '$.seed', message: 'expected integer' }]);
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'method: [unclosed\n');
    expect(() => loadConfig(broken)).toThrow(/not valid YAML/);
  });
});
