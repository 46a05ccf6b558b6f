import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveComponent } from '../src/components/resolve-component.js';
import { tempDir } from './support.js';

const GAIA = resolve(__dirname, '../../task-qa/test-fixtures/gaia/2023/validation');

describe('built-in adapters read their data paths relative to the config file', () => {
  it('gaia: a relative path works whatever the working directory', async () => {
    const dir = tempDir('data-paths');
    mkdirSync(join(dir, 'data'), { recursive: true });
    cpSync(GAIA, join(dir, 'data', 'validation'), { recursive: true });
    // The working directory (this package) holds no data/ folder: only the config's folder does.
    expect(process.cwd()).not.toBe(dir);
    const ctx = { seed: 1, configPath: join(dir, 'run.yaml') };
    const relative = await resolveComponent(
      'adapter',
      { name: 'gaia', options: { path: 'data/validation/metadata.jsonl' } },
      ctx,
    );
    const absolute = await resolveComponent(
      'adapter',
      { name: 'gaia', options: { path: join(GAIA, 'metadata.jsonl') } },
      ctx,
    );
    const a = await relative.value.load({ split: 'validation' });
    const b = await absolute.value.load({ split: 'validation' });
    expect(a.length).toBeGreaterThan(0);
    expect(a.map((t) => t.id)).toEqual(b.map((t) => t.id));
  });

  it('a split → file map is resolved entry by entry', async () => {
    const dir = tempDir('data-paths-map');
    cpSync(GAIA, join(dir, 'v'), { recursive: true });
    const adapter = await resolveComponent(
      'adapter',
      { name: 'gaia', options: { path: { validation: 'v/metadata.jsonl' } } },
      { seed: 1, configPath: join(dir, 'run.yaml') },
    );
    expect((await adapter.value.load({ split: 'validation' })).length).toBeGreaterThan(0);
  });
});
