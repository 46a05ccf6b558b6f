import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(__dirname, '..');
const TFJS = /^(?:@tensorflow\/|@skillrl\/tensor-ops$|@skillrl\/policy-tfjs$)/;

/** Every module specifier a source file imports or re-exports (type-only ones too: they reach the .d.ts). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/g)].map(
    (m) => m[1] as string,
  );
}

/** The package imports reachable from an entry through its relative imports, each with the file that imports it. */
function reach(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const found = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of specifiers(file)) {
      if (spec.startsWith('.')) {
        const ts = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        visit(existsSync(ts) ? ts : join(resolve(dirname(file), spec), 'index.ts'));
      } else if (!found.has(spec)) found.set(spec, file.slice(src.length + 1));
    }
  };
  visit(join(src, entry));
  return found;
}

describe('entries: only the step editor reaches tfjs', () => {
  for (const entry of ['index.ts', 'entries/llm-editor.ts', 'entries/generation.ts', 'entries/history.ts']) {
    it(`${entry} imports no tfjs, directly or through what it imports`, () => {
      const tfjs = [...reach(entry)].filter(([spec]) => TFJS.test(spec));
      expect(tfjs.map(([spec, file]) => `${spec} (from ${file})`)).toEqual([]);
    });
  }

  it('the step editor entry does reach tfjs (so the check above can fail)', () => {
    expect([...reach('entries/step-editor.ts').keys()].some((spec) => TFJS.test(spec))).toBe(true);
  });

  it('the root exports the LLM editor and the generation step, the step-editor subpath the step editor', async () => {
    const root = await import('../index.js');
    expect(typeof root.createLlmSkillEditor).toBe('function');
    expect(typeof root.runSkillR1Generation).toBe('function');
    expect(typeof root.summarizeHistory).toBe('function');
    expect('createStepEditor' in root).toBe(false);
    const stepEditor = await import('./step-editor.js');
    expect(typeof stepEditor.createStepEditor).toBe('function');
    expect(typeof stepEditor.loadStepEditor).toBe('function');
  });
});
