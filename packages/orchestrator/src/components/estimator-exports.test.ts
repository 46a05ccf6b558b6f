import { PluginShapeError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { estimatorTable } from './estimator-exports.js';

const factory = () => ({ name: 'f', estimate: () => ({ advantages: new Float64Array(0), metrics: {} }) });
const read = (mod: Record<string, unknown>, spec: { export?: string; name?: string } = {}) =>
  estimatorTable(mod, 'pkg', 'estimator "pkg"', spec);

describe('estimatorTable: a package’s estimators, read like an adapter’s export', () => {
  it('a named table, a default table, and { estimators } as the default export (ESM, inline CJS, tsc)', () => {
    expect(read({ estimators: { a: factory } })).toEqual({ key: 'estimators', table: { a: factory } });
    expect(read({ default: { a: factory } })).toEqual({ key: 'default', table: { a: factory } });
    expect(read({ default: { estimators: { a: factory } } })).toEqual({
      key: 'default.estimators',
      table: { a: factory },
    });
  });

  it('honours export: a table, { estimators }, or one factory under the config’s name', () => {
    const mod = { estimators: { other: factory }, mine: { a: factory }, create: factory };
    expect(read(mod, { export: 'mine' })?.table).toEqual({ a: factory });
    expect(read({ plugin: { estimators: { b: factory } } }, { export: 'plugin' })?.table).toEqual({
      b: factory,
    });
    expect(read(mod, { export: 'create', name: 'solo' })?.table).toEqual({ solo: factory });
    expect(() => read(mod, { export: 'create' })).toThrow(/give "name" in the config/);
    expect(() => read(mod, { export: 'missing' })).toThrow(/export "missing" of "pkg".*no such export/);
  });

  it('nothing readable: undefined when the config names an estimator the package may have registered itself', () => {
    expect(read({ default: {} }, { name: 'self-registered' })).toBeUndefined();
    const error = (() => {
      try {
        read({ default: {}, helper: 1 });
      } catch (e) {
        return e;
      }
    })();
    expect(PluginShapeError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain('name the export to read with "export" in the config');
  });

  it('a table with entries that are not functions names them', () => {
    expect(() => read({ estimators: { a: factory, b: 3 } })).toThrow(/"b" is not a function/);
  });
});
