import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvolveRun, writeInternalizeRun, writeLongTrajectoryRun } from '../bench/synthetic-runs.mjs';
import { type ServeHandle, startServe } from '../src/index.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `\n!!! ${CHROMIUM} is missing: the headless-browser checks of skillrl serve are SKIPPED.\n` +
      '!!! Install it with `apt-get update && apt-get install -y chromium` to run them.\n',
  );
}

// The skillrl CLI as built in this repository (its home moved from the orchestrator to packages/cli): the live
// test starts a real run with it. Without a build, a run is written in-process on a timer instead, and said.
const PACKAGES = join(import.meta.dirname, '..', '..');
const CLI = [join(PACKAGES, 'cli', 'dist', 'cli.js'), join(PACKAGES, 'orchestrator', 'dist', 'cli.js')].find(
  (p) => existsSync(p),
);
if (hasChromium && !CLI) {
  console.warn(
    '\n!!! No built skillrl CLI (packages/cli/dist/cli.js): the live test follows an in-process writer.\n',
  );
}

// Every screenshot lands here (gitignored); with SKILLRL_SCREENSHOTS_TO_DOCS=1 the README's are copied to docs/.
const SCREENS = join(import.meta.dirname, '..', '.screenshots');
const DOCS = join(import.meta.dirname, '..', 'docs');

/** A SKILLC run of a few seconds: enough steps to be watched growing, small enough for CI's two cores. */
const LIVE_CONFIG = `method: internalize
seed: 2
name: live
adapter: household
tasks: { split: train, limit: 8 }
agent: skill-reading
concurrency: 2
health: { voidUnits: 100 }
internalize:
  variant: skillc
  steps: 30
  tasksPerStep: 2
  groupSize: 4
  validateEvery: 5
  validation: { split: valid_seen, limit: 6 }
  validationEpisodes: 1
  test: { split: valid_unseen, limit: 6 }
  trainer: { name: tfjs, options: { lr: 0.01 } }
`;

interface Visit {
  page: Page;
  consoleErrors: string[];
  foreignRequests: string[];
  dialogs: string[];
}

describe.skipIf(!hasChromium)('skillrl serve in headless Chromium', () => {
  let base: string;
  let root: string;
  let serve: ServeHandle;
  let context: BrowserContext;
  let profile: string;
  let longId: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'serve-browser-'));
    root = join(base, 'runs');
    mkdirSync(root);
    writeInternalizeRun(join(root, 'skillc'), { runId: 'skillc', errorEvery: 41 });
    writeInternalizeRun(join(root, 'grpo'), { runId: 'grpo', variant: 'grpo', learn: 0 });
    writeEvolveRun(join(root, 'evolve'), { runId: 'evolve', markup: true });
    longId = writeLongTrajectoryRun(join(root, 'long'), { steps: 2000 });
    serve = await startServe({ dir: root, pollMs: 200 });
    profile = mkdtempSync(join(tmpdir(), 'serve-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(SCREENS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await context?.close();
    await serve?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (base) rmSync(base, { recursive: true, force: true });
  });

  async function visit(route: string): Promise<Visit> {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const foreignRequests: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(serve.url)) foreignRequests.push(r.url());
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${serve.url}${route}`);
    await page.waitForSelector('main[data-loaded]', { timeout: 20_000 });
    return { page, consoleErrors, foreignRequests, dialogs };
  }

  /** Every page: nothing in the console, no request leaving the server, no dialog, no script from run content. */
  async function clean(v: Visit): Promise<void> {
    expect(v.consoleErrors).toEqual([]);
    expect(v.foreignRequests).toEqual([]);
    expect(v.dialogs).toEqual([]);
    expect(await v.page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();
  }

  async function shoot(page: Page, name: string, docs = false): Promise<void> {
    const path = join(SCREENS, `${name}.png`);
    await page.screenshot({ path });
    if (docs && process.env.SKILLRL_SCREENSHOTS_TO_DOCS === '1') {
      mkdirSync(DOCS, { recursive: true });
      copyFileSync(path, join(DOCS, `${name}.png`));
    }
  }

  it('follows a run started in the background: the list gains it, its step count and a chart grow, no reload', async () => {
    const v = await visit('#/');
    await v.page.evaluate(() => {
      (globalThis as { __noReload?: number }).__noReload = 1;
    });
    const dir = join(root, 'live');
    let finished: Promise<void>;
    if (CLI) {
      const config = join(base, 'live.yaml');
      writeFileSync(config, LIVE_CONFIG);
      const child = spawn(process.execPath, [CLI, 'run', config, '--run-dir', dir, '--json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr?.on('data', (c) => {
        stderr += String(c);
      });
      finished = new Promise((resolve, reject) =>
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`skillrl run exited ${code}: ${stderr.slice(-2000)}`)),
        ),
      );
    } else {
      const run = writeInternalizeRun(dir, { runId: 'live', steps: 30, keepOpen: true, validateEvery: 5 });
      finished = new Promise((resolve) => {
        let t = 0;
        const timer = setInterval(() => {
          run.step(++t);
          if (t === 30) {
            clearInterval(timer);
            run.finish();
            run.close();
            resolve();
          }
        }, 150);
      });
    }
    // The runs list learns of the new run from the live stream.
    await v.page.waitForSelector('tr[data-run="live"]', { timeout: 30_000 });
    await v.page.waitForSelector('tr[data-run="live"] [data-state="running"]', { timeout: 30_000 });
    await shoot(v.page, 'runs', true);
    await v.page.click('tr[data-run="live"] a');
    await v.page.waitForSelector('body[data-view="run"] main[data-loaded] [data-chart="train-success"]');
    const seen: { done: number; points: number }[] = [];
    const read = () =>
      v.page.evaluate(() => {
        // Structural types: this runs in the page, and the package compiles without the DOM lib.
        type Doc = { querySelector(s: string): { getAttribute(name: string): string | null } | null };
        const document = (globalThis as unknown as { document: Doc }).document;
        const done = Number(
          document.querySelector('.run-header [data-done]')?.getAttribute('data-done') ?? -1,
        );
        const charts = (
          globalThis as unknown as {
            __skillrlCharts: Record<string, { data: { datasets: { data: unknown[] }[] } }>;
          }
        ).__skillrlCharts;
        const points = charts['train-success']?.data.datasets[0]?.data.length ?? 0;
        const state = document.querySelector('.run-header [data-state]')?.getAttribute('data-state');
        return { done, points, state };
      });
    let shotMidRun = false;
    for (let i = 0; i < 600; i++) {
      const now = await read();
      if (seen.at(-1)?.done !== now.done) seen.push({ done: now.done, points: now.points });
      if (!shotMidRun && now.done >= 10) {
        shotMidRun = true;
        await shoot(v.page, 'run-live');
      }
      if (now.state === 'completed') break;
      await v.page.waitForTimeout(100);
    }
    await finished;
    await v.page.waitForSelector('.run-header [data-state="completed"]', { timeout: 20_000 });
    const last = await read();
    if (seen.at(-1)?.done !== last.done) seen.push({ done: last.done, points: last.points });
    // Seen growing in place: several step counts on the same page, the chart's points with them.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(last.done).toBe(30);
    expect(last.points).toBe(30);
    expect(seen[0]?.points).toBeLessThan(last.points);
    expect(await v.page.evaluate(() => (globalThis as { __noReload?: number }).__noReload)).toBe(1);
    await shoot(v.page, 'run', true);
    await clean(v);
    await v.page.close();
  }, 90_000);

  it('opens a trajectory as a timeline beside its z = 0 pair, with markup in run content shown as text', async () => {
    const id = 'final/household/train/1/0:c1:i0';
    const v = await visit(`#/trajectory?run=evolve&id=${encodeURIComponent(id)}`);
    await v.page.waitForSelector('.pair.two [data-z="1"] .step');
    await v.page.waitForSelector('.pair.two [data-z="0"] .step');
    const left = await v.page.textContent('[data-z="1"] .trajectory-head');
    const right = await v.page.textContent('[data-z="0"] .trajectory-head');
    expect(left).toContain(id);
    expect(right).toContain('final/household/train/1/0:c0:i0');
    // The observation holds a <script> and an <img onerror>: shown as characters, run as nothing.
    const observation = await v.page.textContent('[data-z="1"] [data-step="0"] .observation');
    expect(observation).toContain('<script>window.__xss = 1</script>');
    expect(await v.page.locator('main script, main img').count()).toBe(0);
    await shoot(v.page, 'trajectory', true);
    await clean(v);
    await v.page.close();
  });

  it('lists rollouts filtered by condition and opens one with its pair', async () => {
    const v = await visit('#/rollouts?run=skillc&z=0&unit=test');
    await v.page.waitForSelector('#rollout-list a.rollout-row');
    expect(await v.page.getAttribute('#rollout-count', 'data-matched')).toBe('12');
    const zs = await v.page.$$eval('#rollout-list a.rollout-row', (rows) =>
      rows.map((r) => r.getAttribute('data-z')),
    );
    expect(new Set(zs)).toEqual(new Set(['0']));
    await shoot(v.page, 'trajectories', true);
    await v.page.click('#rollout-list a.rollout-row');
    await v.page.waitForSelector('.pair.two [data-z="1"] .step');
    await clean(v);
    await v.page.close();
  });

  it('keeps a 2 000-step trajectory to a screenful of steps in the page, and scrolls to its last', async () => {
    const v = await visit(`#/trajectory?run=long&id=${encodeURIComponent(longId)}`);
    await v.page.waitForSelector('.timeline .step');
    const rendered = () => v.page.locator('.timeline .virtual-row').count();
    expect(await rendered()).toBeLessThan(40);
    for (let i = 0; i < 50 && (await v.page.locator('[data-step="1999"]').count()) === 0; i++) {
      await v.page.evaluate(() => {
        type Doc = { querySelector(s: string): { scrollTop: number; scrollHeight: number } };
        const t = (globalThis as unknown as { document: Doc }).document.querySelector('.timeline');
        t.scrollTop = t.scrollHeight;
      });
      await v.page.waitForTimeout(50);
    }
    expect(await v.page.locator('[data-step="1999"]').count()).toBe(1);
    expect(await rendered()).toBeLessThan(40);
    await clean(v);
    await v.page.close();
  });

  it('compares two runs: curves overlaid, the held-out difference paired by task with its interval', async () => {
    const v = await visit('#/compare?run=skillc&run=grpo');
    await v.page.waitForSelector('#paired tbody tr');
    const rows = await v.page.$$eval('#paired tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows.length).toBe(2);
    expect(rows[0]).toMatch(/skillc − grpo.*test.*without skills.*12.*\[-?\d\.\d\d, -?\d\.\d\d\]/);
    const datasets = await v.page.evaluate(() => {
      const charts = (
        globalThis as unknown as { __skillrlCharts: Record<string, { data: { datasets: unknown[] } }> }
      ).__skillrlCharts;
      return charts['cmp:cmp-val-without']?.data.datasets.length;
    });
    expect(datasets).toBe(2);
    await shoot(v.page, 'compare', true);
    await clean(v);
    await v.page.close();
  });

  it('shows the skill bank: versions, parents, intervals, a SKILL.md holding <script> as text, and its diff', async () => {
    const v = await visit('#/skills?run=evolve');
    await v.page.waitForSelector('#skills-table tbody tr');
    expect(await v.page.locator('#skills-table tbody tr').count()).toBe(15);
    // Task 0's skill of generation 1 (row 3) holds markup; its parent is generation 0's.
    await v.page.click('#skills-table tbody tr[data-index="3"] a');
    await v.page.waitForSelector('#skill-detail[data-index="3"] .skill-text');
    const text = await v.page.textContent('#skill-detail .skill-text');
    expect(text).toContain('<script>window.__xss = 3</script>');
    expect(await v.page.locator('#skill-diff .diff-add').count()).toBeGreaterThan(0);
    expect(await v.page.locator('main script, main b').count()).toBe(0);
    await shoot(v.page, 'skills', true);
    await clean(v);
    await v.page.close();
  });
});
