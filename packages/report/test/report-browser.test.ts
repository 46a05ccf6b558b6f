import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WrittenReport, writeReport } from '../src/index.js';
import { makeEvolveRun, makeInternalizeRun } from './make-run-dir.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `\n!!! ${CHROMIUM} is missing: the headless-browser checks of the report are SKIPPED.\n` +
      '!!! Install it with `apt-get update && apt-get install -y chromium` to run them.\n',
  );
}

// Screenshots land beside the test results so a person can look at the page the test saw.
const SCREENS = join(import.meta.dirname, '..', '.vitest', 'screens');

interface ChartCheck {
  id: string;
  datasets: number;
  points: number;
  width: number;
  height: number;
  /** Pixels within a small distance of the first dataset's colour. */
  colouredPixels: number;
}

interface PageVisit {
  page: Page;
  consoleErrors: string[];
  requests: string[];
  dialogs: string[];
}

describe.skipIf(!hasChromium)('report in headless Chromium', () => {
  let root: string;
  let profile: string;
  let context: BrowserContext;
  const reports: Record<string, WrittenReport> = {};

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'skillrl-report-browser-'));
    makeEvolveRun(join(root, 'evolve'), { seed: 11 });
    makeInternalizeRun(join(root, 'internalize'), { seed: 11 });
    makeInternalizeRun(join(root, 'crashed'), { seed: 12, crashAfterStep: 14 });
    for (const name of ['evolve', 'internalize', 'crashed']) reports[name] = writeReport(join(root, name));
    profile = mkdtempSync(join(tmpdir(), 'skillrl-report-chromium-'));
    // A fresh profile and no background traffic, as TOOLCHAIN.md "Browser checks" prescribes; offline, so any
    // request the page tried would fail loudly rather than quietly succeed.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      offline: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(SCREENS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function visit(report: WrittenReport): Promise<PageVisit> {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const url = pathToFileURL(report.path).href;
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('html[data-charts]', { timeout: 20_000 });
    return { page, consoleErrors, requests: requests.filter((r) => r !== url), dialogs };
  }

  function checkCharts(page: Page): Promise<ChartCheck[]> {
    return page.evaluate(() => {
      // Structural types: this function runs in the page, and the package compiles without the DOM lib.
      type Canvas = {
        width: number;
        height: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      };
      type ChartLike = { canvas: Canvas; data: { datasets: { data: unknown[]; borderColor: string }[] } };
      const charts = (globalThis as unknown as { __skillrlCharts: Record<string, ChartLike> })
        .__skillrlCharts;
      return Object.entries(charts).map(([id, chart]) => {
        const { canvas } = chart;
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        const hex = chart.data.datasets[0]?.borderColor ?? '#000000';
        const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
          number,
          number,
          number,
        ];
        let coloured = 0;
        for (let i = 0; i < pixels.length; i += 4) {
          const alpha = pixels[i + 3] as number;
          const near =
            Math.abs((pixels[i] as number) - r) +
            Math.abs((pixels[i + 1] as number) - g) +
            Math.abs((pixels[i + 2] as number) - b);
          if (alpha > 200 && near < 40) coloured++;
        }
        return {
          id,
          datasets: chart.data.datasets.length,
          points: chart.data.datasets.reduce((n, d) => n + d.data.length, 0),
          width: canvas.width,
          height: canvas.height,
          colouredPixels: coloured,
        };
      });
    });
  }

  /**
   * A full-page screenshot at the page's own height: resizing the viewport first and waiting two frames lets
   * Chart.js finish its resize, which a plain fullPage capture can catch half done.
   */
  async function screenshot(page: Page, name: string) {
    const height = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document
          .documentElement.scrollHeight,
    );
    await page.setViewportSize({ width: 1280, height: Math.min(height, 16_000) });
    await page.evaluate(
      () =>
        new Promise<void>((done) => {
          const raf = (globalThis as unknown as { requestAnimationFrame: (f: () => void) => void })
            .requestAnimationFrame;
          raf(() => raf(() => done()));
        }),
    );
    await page.screenshot({ path: join(SCREENS, `${name}.png`) });
  }

  function expectCleanLoad(v: PageVisit) {
    expect(v.consoleErrors).toEqual([]);
    expect(v.requests).toEqual([]);
    expect(v.dialogs).toEqual([]);
  }

  async function expectChartsDrawn(v: PageVisit, report: WrittenReport) {
    expect(await v.page.getAttribute('html', 'data-charts')).toBe('ready');
    const checks = await checkCharts(v.page);
    expect(checks.map((c) => c.id).sort()).toEqual([...report.summary.charts].sort());
    for (const c of checks) {
      expect(c.datasets, c.id).toBeGreaterThan(0);
      expect(c.points, c.id).toBeGreaterThan(0);
      expect(c.width * c.height, c.id).toBeGreaterThan(10_000);
      // A line of the first series is on the canvas, not only axes and grid.
      expect(c.colouredPixels, c.id).toBeGreaterThan(30);
    }
    return checks;
  }

  it('draws the Skill-R1 report offline: reward charts, tables and skill diffs', async () => {
    const report = reports.evolve as WrittenReport;
    const v = await visit(report);
    expectCleanLoad(v);
    const checks = await expectChartsDrawn(v, report);
    expect(checks.map((c) => c.id)).toEqual(expect.arrayContaining(['evolve-reward', 'evolve-reward-tasks']));
    expect(await v.page.locator('#summary tr').count()).toBeGreaterThanOrEqual(8);
    expect(await v.page.locator('#families tbody tr').count()).toBe(3);
    expect(await v.page.locator('table.generations').count()).toBe(3);
    expect(await v.page.locator('pre.diff .d-add').count()).toBeGreaterThan(0);
    // The skill text with markup in it shows as text; no script from the run directory ran.
    const marked = v.page.locator('pre.skill', { hasText: 'alert(1)' }).first();
    expect(await marked.textContent()).toContain('<script>alert(1)</script>');
    await screenshot(v.page, 'evolve');
    await v.page.close();
  });

  it('draws the SKILLC report offline: with/without success, gap, λ, ρ, retirements, metrics', async () => {
    const report = reports.internalize as WrittenReport;
    const v = await visit(report);
    expectCleanLoad(v);
    const checks = await expectChartsDrawn(v, report);
    expect(checks.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'skillc-success',
        'skillc-gap',
        'skillc-lambda',
        'skillc-rho',
        'skillc-metric-loss',
      ]),
    );
    const retired = report.summary.families.filter((f) => f.retiredAt !== undefined).length;
    expect(retired).toBeGreaterThan(0);
    expect(await v.page.locator('#retirements tbody tr').count()).toBeGreaterThanOrEqual(retired);
    expect(await v.page.locator('#families tbody tr').count()).toBe(6);
    await screenshot(v.page, 'internalize');
    await v.page.close();
  });

  it('draws what a crashed run recorded and says so at the top', async () => {
    const report = reports.crashed as WrittenReport;
    const v = await visit(report);
    expectCleanLoad(v);
    await expectChartsDrawn(v, report);
    const notes = await v.page.locator('#notes li').allInnerTexts();
    expect(notes.some((n) => n.includes('unfinished'))).toBe(true);
    expect(notes.some((n) => n.includes('No run:end'))).toBe(true);
    await v.page.screenshot({ path: join(SCREENS, 'crashed.png') });
    await v.page.close();
  });
});
