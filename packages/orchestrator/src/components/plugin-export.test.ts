import { describe, expect, it } from 'vitest';
import { pluginExport } from './resolve-component.js';

const adapter = { name: 'a', families: ['x'], load() {}, createEnvironment() {}, verifier() {} };
const createAdapter = () => adapter;
const pick = (
  mod: Record<string, unknown>,
  spec: { export?: string; options?: Record<string, never> | object },
) => pluginExport('adapter', mod, { package: 'pkg', ...spec } as never, 'adapter "pkg"');

describe('pluginExport: options need a factory to reach', () => {
  it('without options the first candidate wins; with options a factory beside a ready default export', () => {
    const mod = { default: adapter, createAdapter };
    expect(pick(mod, {})).toBe('default');
    expect(pick(mod, { options: {} })).toBe('default');
    expect(pick(mod, { options: { size: 2 } })).toBe('createAdapter');
  });

  it('options for a named export that is a ready component are an error naming them', () => {
    expect(() =>
      pick({ default: adapter, createAdapter }, { export: 'default', options: { size: 2 } }),
    ).toThrow(/the config gives options \(size\), and a ready TaskAdapter takes none/);
    expect(() => pick({ default: adapter }, { options: { size: 2 } })).toThrow(/Export a factory/);
  });
});
