import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir, writeConfig } from './support.js';

// Combinations that cannot work, reported by `skillrl check` and refused by `skillrl run` before anything is
// written: the built CLI, as a child process.

function skillrl(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A folder with a questions file (free-text answers, no skills, no step vocabulary) and a config over it. */
function project(name: string, config: Record<string, unknown>): { dir: string; path: string } {
  const dir = tempDir(name);
  writeFileSync(
    join(dir, 'q.jsonl'),
    `${Array.from({ length: 6 }, (_, i) => JSON.stringify({ question: `What is ${i} + 1?`, answer: String(i + 1) })).join('\n')}\n`,
  );
  return { dir, path: writeConfig(dir, { seed: 1, name, ...config }) };
}
const questions = { name: 'qa-jsonl', options: { path: 'q.jsonl' } };
const openai = { name: 'openai', options: { model: 'gpt-4o-mini', baseURL: 'http://127.0.0.1:9/v1' } };

describe('skillrl check / run: combinations that cannot work', () => {
  it('a tfjs trainer with the openai agent: named fields and the fix, at check and before run', () => {
    const { dir, path } = project('tfjs-openai', {
      method: 'internalize',
      adapter: 'household',
      tasks: { split: 'train', limit: 4 },
      agent: openai,
      internalize: { trainer: 'tfjs' },
    });
    const check = skillrl(['check', path]);
    expect(check.code).toBe(1);
    expect(check.err).toContain(
      '$.internalize.trainer: "tfjs" trains the in-process skill-reading policy, but agent is "openai"; set agent: skill-reading, or use trainer: external',
    );
    const run = skillrl(['run', path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('$.internalize.trainer');
    expect(run.err).not.toContain("reading 'embedding'");
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it('the step editor and the skill-reading agent on question answering: both named, nothing run', () => {
    const { dir, path } = project('qa-step', {
      method: 'evolve',
      adapter: questions,
      tasks: { split: 'test', limit: 2 },
      agent: 'skill-reading',
      evolve: { generator: 'step-editor', generations: 1 },
    });
    const check = skillrl(['check', path, '--json']);
    expect(check.code).toBe(1);
    const json = JSON.parse(check.out) as {
      ok: boolean;
      components: { role: string; error?: { message: string } }[];
    };
    expect(json.ok).toBe(false);
    const byRole = Object.fromEntries(
      json.components.filter((c) => c.error).map((c) => [c.role, c.error?.message]),
    );
    expect(byRole['evolve.generator']).toContain(
      '"step-editor" edits skills with the adapter\'s step vocabulary',
    );
    expect(byRole['evolve.generator']).toContain('use generator: llm-editor');
    expect(byRole.agent).toContain('"skill-reading" chooses among admissible actions');
    const text = skillrl(['check', path]);
    expect(text.err).toContain('error: evolve.generator: Invalid config (1 problem):');
    const run = skillrl(['run', path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('$.evolve.generator');
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it('internalize over an adapter without skills, and held-out tasks that are training tasks', () => {
    const skillless = project('qa-skillc', {
      method: 'internalize',
      adapter: questions,
      tasks: { split: 'test', limit: 4 },
      agent: openai,
      internalize: { trainer: 'external', validation: { split: 'test', limit: 2 } },
    });
    const check = skillrl(['check', skillless.path]);
    expect(check.code).toBe(1);
    expect(check.err).toContain('error: adapter: Invalid config (1 problem):');
    expect(check.err).toContain('has no skill for any of its families');
    expect(check.err).toContain('or use internalize.variant: grpo');

    const overlap = project('qa-heldout', {
      method: 'evolve',
      adapter: questions,
      tasks: { split: 'test', limit: 4 },
      agent: openai,
      evolve: {
        generator: {
          name: 'llm-editor',
          options: { model: { model: 'm', baseURL: 'http://127.0.0.1:9/v1' } },
        },
        heldOut: { split: 'test', limit: 4 },
      },
    });
    const held = skillrl(['check', overlap.path]);
    expect(held.code).toBe(1);
    expect(held.err).toMatch(/error: evolve\.heldOut: .*held-out tasks? (is|are) also training tasks?/s);
    const run = skillrl(['run', overlap.path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('$.evolve.heldOut');
    expect(existsSync(join(overlap.dir, 'runs'))).toBe(false);
  });

  it('mode grpo with the LLM editor is refused when the config is read', () => {
    const { path } = project('grpo-llm', {
      method: 'evolve',
      adapter: 'household',
      tasks: { split: 'train', limit: 2 },
      agent: openai,
      evolve: { mode: 'grpo', generator: { name: 'llm-editor', options: { model: { model: 'm' } } } },
    });
    const check = skillrl(['check', path]);
    expect(check.code).toBe(1);
    expect(check.err).toContain('$.evolve.mode: "grpo" trains the editor, but "llm-editor" has no update()');
  });
});
