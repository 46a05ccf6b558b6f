import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runCli } from '@skillrl/cli';
import { loadConfig, type RunConfig, readRunStream } from '@skillrl/orchestrator';

/**
 * Test helpers for one example folder: its configs are read from `dir`, its test runs go to the git-ignored
 * `dir/runs/test/`. Every example's tests use the same helpers, bound to their own folder.
 */
export function exampleKit(dir: string) {
  const EXAMPLE = dir;
  const TEST_RUNS = join(EXAMPLE, 'runs', 'test');

  /** Removes the named test runs and their configs (only those: test files of one example run in parallel). */
  function cleanTestRuns(names: readonly string[]): void {
    for (const name of names) {
      rmSync(join(TEST_RUNS, name), { recursive: true, force: true });
      rmSync(join(TEST_RUNS, `${name}.json`), { force: true });
    }
    // The folders go too once empty; another test file still writing keeps them.
    for (const folder of [TEST_RUNS, join(EXAMPLE, 'runs')]) {
      try {
        rmdirSync(folder);
      } catch (error) {
        // Not empty (another test file's runs) or already gone: both fine.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'ENOENT' && code !== 'EEXIST') throw error;
      }
    }
  }

  /** Reads a config of this example the way `skillrl run` does (schema-checked). */
  function exampleConfig(file: string): RunConfig {
    return loadConfig(join(EXAMPLE, file)).config;
  }

  /**
   * Writes a shortened copy of a config next to the example's own (so packages resolve from the same place)
   * and returns its path. The copy is JSON, which `skillrl run` reads as well as YAML.
   */
  function writeTestConfig(name: string, config: RunConfig): string {
    mkdirSync(TEST_RUNS, { recursive: true });
    const path = join(TEST_RUNS, `${name}.json`);
    writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
    return path;
  }

  return { EXAMPLE, TEST_RUNS, cleanTestRuns, exampleConfig, writeTestConfig };
}

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
  /** The `--json` result line of `skillrl run`. */
  result: { ok: boolean; dir: string; report: string; metrics: Record<string, number>; ran: number };
}

/** `skillrl <args> --json`, in-process: the same program as the `skillrl` binary. */
export async function skillrl(args: readonly string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--json'], { out: (t) => out.push(t), err: (t) => err.push(t) });
  const last = out[out.length - 1];
  return { code, out, err, result: last === undefined ? ({} as CliRun['result']) : JSON.parse(last) };
}

/**
 * The records of `<run-dir>/<stream>.jsonl` — with the segments the run rotated it into (`segments/`,
 * gzip), in order — or of any other JSONL file.
 */
export function readJsonl<T>(file: string): T[] {
  const stream = /^([a-z0-9][a-z0-9_-]*)\.jsonl$/.exec(basename(file))?.[1];
  if (stream) return [...readRunStream<T>(dirname(file), stream)];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function everyFile(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...everyFile(path));
    else files.push(path);
  }
  return files;
}

/** Every file under a folder, as text (to look for a secret anywhere in a run directory). */
export function everyText(dir: string): string {
  return everyFile(dir)
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

/** The files every finished run directory holds. */
export const RUN_FILES = [
  'config.json',
  'run.json',
  'events.jsonl',
  'rollouts.jsonl',
  'advantages.jsonl',
  'summary.json',
  'report.html',
];

export function missingRunFiles(dir: string): string[] {
  // A stream is present as its open file or as gzip segments (a stream of store.compressOnCloseBytes or more
  // is closed into segments/ when the run ends).
  const inSegments = (stream: string) =>
    existsSync(join(dir, 'segments')) &&
    readdirSync(join(dir, 'segments')).some((f) => f.startsWith(`${stream}.`) && f.includes('.jsonl'));
  return RUN_FILES.filter((f) => {
    if (existsSync(join(dir, f))) return false;
    const stream = /^(.+)\.jsonl$/.exec(f)?.[1];
    return !(stream && inSegments(stream));
  });
}
