import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, writeReport } from '../src/index.js';
import { makeEvolveRun, makeInternalizeRun } from './make-run-dir.js';

let root: string;
const dirOf = (name: string) => join(root, name);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillrl-report-build-'));
  makeEvolveRun(dirOf('evolve'), { seed: 3 });
  makeEvolveRun(dirOf('evolve-again'), { seed: 3 });
  makeEvolveRun(dirOf('evolve-crashed'), { seed: 3, crashAfterGeneration: 2 });
  makeInternalizeRun(dirOf('internalize'), { seed: 3 });
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Every `http(s)://…` in the page, with what precedes it, to tell references from text. */
function urlsIn(html: string): string[] {
  return [...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);
}

describe('buildReport on a Skill-R1 run', () => {
  it('summarises the run: method, seed, rollouts, generations, success per family, errors', () => {
    const { summary } = buildReport(dirOf('evolve'));
    // 3 tasks × (generation 0: 1 candidate × 4 rollouts + 4 generations × 4 candidates × 4 rollouts) = 3 × 68.
    expect(summary).toMatchObject({
      runId: 'evolve-3',
      method: 'evolve',
      methodLabel: 'evolve:grpo',
      seed: 3,
      status: 'completed',
      rollouts: 204,
      generations: 4,
    });
    const rollouts = readFileSync(join(dirOf('evolve'), 'rollouts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const errored = (family: string) => rollouts.filter((t) => t.family === family && t.error).length;
    expect(summary.rolloutErrors).toBe(rollouts.filter((t) => t.error).length);
    expect(summary.rolloutErrors).toBeGreaterThan(0);
    // Errored rollouts are counted on their own, never in the episodes a success rate is over.
    expect(
      summary.families.map((f) => [
        f.family,
        f.withSkill.episodes + f.withSkill.errored,
        f.withSkill.errored,
        f.withoutSkill.episodes,
      ]),
    ).toEqual([
      ['clean', 68, errored('clean'), 0],
      ['heat', 68, errored('heat'), 0],
      ['pick', 68, errored('pick'), 0],
    ]);
    expect(summary.charts).toEqual(
      expect.arrayContaining(['evolve-reward', 'evolve-reward-tasks', 'evolve-metric-train-loss']),
    );
    expect(summary.notes).toEqual([]);
  });

  it('references nothing outside the page: URLs appear only as text', () => {
    const { html } = buildReport(dirOf('evolve'));
    // No element may load a resource: no src/href/action/srcset/poster/data URL, no CSS url() or @import.
    expect(html).not.toMatch(
      /\b(src|href|action|formaction|srcset|poster|data|background)\s*=\s*["']?\s*(https?:)?\/\//i,
    );
    expect(html).not.toMatch(/url\(\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<(link|iframe|img|object|embed|base)\b/i);
    // The only URLs are Chart.js's licence comment and the text of the fixture's skill, which the page shows.
    expect(new Set(urlsIn(html))).toEqual(
      new Set([
        'https://www.chartjs.org',
        'https://github.com/kurkle/color#readme',
        'https://example.com/alfworld-notes',
      ]),
    );
    // And the page forbids loading anything at all.
    expect(html).toContain(`content="default-src 'none'; script-src 'unsafe-inline'`);
  });

  it('shows skill text as text: markup in a skill is escaped and scripts are only the three of the page', () => {
    const { html } = buildReport(dirOf('evolve'));
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<script\b/g)).toHaveLength(3);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });

  it('is the same page for the same seed, and contains the diffs and the generation tables', () => {
    const a = buildReport(dirOf('evolve'));
    const b = buildReport(dirOf('evolve-again'));
    expect(b.html.replaceAll(dirOf('evolve-again'), dirOf('evolve'))).toBe(a.html);
    expect(a.html.match(/<table class="generations">/g)).toHaveLength(3);
    expect(a.html).toContain('<span class="d-add">');
  });

  it('reports a crashed run up to what it recorded, with notes, and leaves its files untouched', () => {
    const dir = dirOf('evolve-crashed');
    const before = readFileSync(join(dir, 'events.jsonl'), 'utf8');
    const { summary, html } = buildReport(dir);
    expect(summary.status).toBe('in progress');
    expect(summary.generations).toBe(2);
    expect(summary.notes.some((n) => n.startsWith('events.jsonl: the last line is unfinished'))).toBe(true);
    expect(summary.notes.some((n) => n.startsWith('No run:end event'))).toBe(true);
    expect(html).toContain('id="notes"');
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe(before);
  });
});

describe('buildReport on a SKILLC run', () => {
  it('has validation, gap, λ, ρ and training metric charts, and retirements per family', () => {
    const { summary, html } = buildReport(dirOf('internalize'));
    expect(summary).toMatchObject({ method: 'internalize', seed: 3, status: 'completed', steps: 40 });
    // 40 steps × 6 types × 6 rollouts.
    expect(summary.rollouts).toBe(1440);
    expect(summary.charts).toEqual(
      expect.arrayContaining([
        'skillc-success',
        'skillc-gap',
        'skillc-lambda',
        'skillc-rho',
        'skillc-metric-loss',
      ]),
    );
    expect(summary.families).toHaveLength(6);
    for (const f of summary.families) {
      expect(f.lastValidation?.step).toBe(40);
      expect(f.withSkill.episodes + f.withoutSkill.episodes).toBe(240);
    }
    const retired = summary.families.filter((f) => f.retiredAt !== undefined);
    expect(retired.length).toBeGreaterThan(0);
    expect(html).toContain('id="retirements"');
    for (const f of retired) expect(html).toContain(`retired at step ${f.retiredAt}`);
  });
});

describe('buildReport on damaged or partial run directories', () => {
  it('makes a page for an empty directory that says nothing was recorded', () => {
    const dir = dirOf('empty');
    mkdirSync(dir);
    const { summary, html } = buildReport(dir);
    expect(summary).toMatchObject({ status: 'not started', method: 'unknown', rollouts: 0, charts: [] });
    expect(summary.notes).toEqual([
      'events.jsonl is missing: nothing has been recorded yet, or the run was moved.',
    ]);
    expect(html).toContain('No rollouts recorded yet.');
  });

  it('skips damaged and unknown records with notes, and counts from rollouts.jsonl when events lack them', () => {
    const dir = dirOf('damaged');
    makeInternalizeRun(dir, { seed: 4, steps: 8, families: ['clean', 'heat'] });
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n');
    const kept = events.filter((l) => JSON.parse(l).type !== 'rollout');
    kept.splice(
      2,
      0,
      'this line is not JSON',
      '{"type":"mystery","runId":"x"}',
      '{"type":"step","step":"two"}',
    );
    writeFileSync(join(dir, 'events.jsonl'), `${kept.join('\n')}\n`);
    writeFileSync(join(dir, 'config.json'), '{ not json');
    const { summary } = buildReport(dir);
    // 8 steps × 2 types × 6 rollouts, read from the trajectories.
    expect(summary.rollouts).toBe(96);
    expect(summary.seed).toBe(4);
    expect(summary.notes).toEqual([
      expect.stringContaining('config.json: could not be parsed'),
      'events.jsonl: skipped 1 line(s) that are not valid JSON (line 3).',
      'events.jsonl: ignored 2 record(s) of an unknown type or with missing fields.',
    ]);
  });

  it('refuses a path that is not a directory, naming the argument', () => {
    let error: unknown;
    try {
      buildReport(join(root, 'no-such-run'));
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('runDir');
    expect(() => buildReport(dirOf('evolve'), { maxSkillTasks: -1 })).toThrow(/options.maxSkillTasks/);
  });

  it('limits the tasks whose skills are shown and says how many are left out', () => {
    const { html } = buildReport(dirOf('evolve'), { maxSkillTasks: 1, title: 'Custom title' });
    expect(html.match(/<details class="task"/g)).toHaveLength(1);
    expect(html).toContain('2 more task(s) not shown');
    expect(html).toContain('<title>Custom title</title>');
  });
});

describe('writeReport', () => {
  it('writes report.html atomically beside the run and touches nothing else', () => {
    const dir = dirOf('internalize');
    const listBefore = readdirSync(dir).sort();
    const eventsBefore = readFileSync(join(dir, 'events.jsonl'), 'utf8');
    const written = writeReport(dir);
    expect(written.path).toBe(join(dir, 'report.html'));
    expect(readFileSync(written.path, 'utf8')).toBe(written.html);
    expect(readdirSync(dir).sort()).toEqual([...listBefore, 'report.html'].sort());
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe(eventsBefore);
    // A second write replaces the file whole and leaves no temp file behind.
    writeReport(dir);
    expect(readdirSync(dir).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });
});
