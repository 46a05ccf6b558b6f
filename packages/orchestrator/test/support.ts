import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';

export const FIXTURES = resolve(__dirname, 'fixtures/offline-components.mjs');
export const CLI = resolve(__dirname, '../dist/cli.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** `skillrl <args>` as a child process of the built CLI, its output piped. */
export function startCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

/** `node <args>` in `cwd`, waited for: its exit code and output (a scaffold's tests or build, another bin). */
export function nodeSync(
  args: string[],
  cwd: string,
  options: { env?: NodeJS.ProcessEnv; timeout?: number } = {},
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000, ...options });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Waits for a child's exit: its code or signal and what it wrote to stdout and stderr. */
export function finish(child: ChildProcess): Promise<CliRun> {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })));
}

/** Every file under a folder. */
export function everyFile(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...everyFile(p));
    else out.push(p);
  }
  return out;
}

/**
 * node_modules as `npm install` would give a scaffold written by `skillrl init adapter|estimator`: the
 * workspace's packages (this package's dependencies), the orchestrator with them.
 */
export function linkInstall(target: string): void {
  const here = resolve(__dirname, '..');
  const from = join(here, 'node_modules');
  const nm = join(target, 'node_modules');
  mkdirSync(join(nm, '@skillrl'), { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry !== '@skillrl' && !entry.startsWith('.'))
      symlinkSync(join(from, entry), join(nm, entry), 'dir');
  }
  for (const entry of readdirSync(join(from, '@skillrl'))) {
    symlinkSync(join(from, '@skillrl', entry), join(nm, '@skillrl', entry), 'dir');
  }
  symlinkSync(here, join(nm, '@skillrl', 'orchestrator'), 'dir');
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `skillrl-${prefix}-`));
}

/** Writes a config file (YAML, or JSON for a `.json` name) in `dir`; returns its path. */
export function writeConfig(dir: string, config: object, file = 'config.yaml'): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, file.endsWith('.json') ? JSON.stringify(config, null, 2) : stringify(config));
  return path;
}

export const plannerAgent = (options: Record<string, unknown> = {}) => ({
  package: FIXTURES,
  export: 'createPlannerAgent',
  options: { noise: 0.5, slack: 1, ...options },
});

export function evolveConfig(overrides: Record<string, unknown> = {}, evolve: Record<string, unknown> = {}) {
  return {
    method: 'evolve',
    seed: 7,
    name: 'evolve-test',
    adapter: 'household',
    tasks: { split: 'train', limit: 2 },
    agent: plannerAgent(),
    concurrency: 4,
    maxSteps: 20,
    // Sized for speed, not learning (see internalizeConfig): the no-signal guard is off here.
    health: { voidUnits: 0 },
    evolve: {
      mode: 'grpo',
      generations: 2,
      candidates: 3,
      episodes: 2,
      generator: { package: FIXTURES, export: 'createVocabularyGenerator', options: { bias: -0.5 } },
      ...evolve,
    },
    ...overrides,
  };
}

export function internalizeConfig(
  overrides: Record<string, unknown> = {},
  section: Record<string, unknown> = {},
) {
  return {
    method: 'internalize',
    seed: 11,
    name: 'internalize-test',
    adapter: 'household',
    tasks: { split: 'train', limit: 12 },
    agent: plannerAgent({ noise: 0.6 }),
    concurrency: 4,
    maxSteps: 20,
    // These fixtures are sized for speed, not learning: most of their steps carry no learning signal, so
    // the no-signal guard is off here (it has its own tests: signal-guard.test.ts).
    health: { voidUnits: 0 },
    internalize: {
      steps: 4,
      tasksPerStep: 3,
      groupSize: 4,
      validateEvery: 2,
      validationEpisodes: 1,
      validation: { split: 'valid_seen', limit: 6 },
      curriculum: { tau: 0.01 },
      trainer: { package: FIXTURES, export: 'createNoiseTrainer', options: { lr: 0.5 } },
      ...section,
    },
    ...overrides,
  };
}

/** The `--json` line a command printed (its last line of stdout). */
// biome-ignore lint/suspicious/noExplicitAny: a printed JSON result, inspected field by field.
export function jsonResult(run: CliRun): Record<string, any> {
  const line = run.out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`no JSON result (exit ${run.code}):\n${run.out}\n${run.err}`);
  }
}

/** stderr less the `warning: …` lines a run prints about its config before it starts. */
export const withoutWarnings = (err: string) =>
  err
    .split('\n')
    .filter((line) => !line.startsWith('warning: '))
    .join('\n');

/** A port on which nothing listens: bound, then closed. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
