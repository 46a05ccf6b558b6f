import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeReport } from '@skillrl/report';
import type { RunConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { runConfig } from '../run/run-config.js';
import type { RunProgress } from '../run/run-types.js';

export interface DemoOptions {
  /** Folder for the demo's configs and run directories (default `runs/demo`). */
  out?: string;
  /** Smaller runs (about a minute) for a first look or CI. */
  quick?: boolean;
  seed?: number;
  signal?: AbortSignal;
  onProgress?: (method: string, progress: RunProgress) => void;
  onWarning?: (message: string) => void;
}

export interface DemoRun {
  method: 'internalize' | 'evolve';
  dir: string;
  report: string;
  metrics: Record<string, number>;
}

/**
 * The offline demo: SKILLC on household with the skill-reading tfjs agent, then Skill-R1 on household with that
 * agent frozen and the trainable step editor. No API key, no network; both runs write a report.
 */
export function demoConfigs(
  options: { quick?: boolean; seed?: number } = {},
): Record<'internalize' | 'evolve', RunConfig> {
  const seed = options.seed ?? 1;
  const quick = options.quick ?? false;
  return {
    internalize: {
      method: 'internalize',
      seed,
      name: 'demo-internalize',
      adapter: 'household',
      tasks: { split: 'train', limit: 512 },
      agent: 'skill-reading',
      concurrency: 8,
      internalize: {
        variant: 'skillc',
        steps: quick ? 10 : 120,
        tasksPerStep: 8,
        groupSize: 8,
        validateEvery: quick ? 5 : 10,
        validation: { split: 'valid_seen', limit: quick ? 12 : 48 },
        // The settings of policy-tfjs's measured learning curve: Adam at 0.05 with a light k3 KL.
        trainer: {
          name: 'tfjs',
          options: { lr: 0.05, kl: { kind: 'k3', coef: 0.001 }, aggregation: 'seq-mean-token-mean' },
        },
      },
    } as RunConfig,
    evolve: {
      method: 'evolve',
      seed,
      name: 'demo-evolve',
      adapter: 'household',
      tasks: { split: 'train', limit: quick ? 3 : 6 },
      agent: 'skill-reading',
      concurrency: 8,
      evolve: {
        mode: 'grpo',
        generations: quick ? 2 : 4,
        candidates: 4,
        episodes: 2,
        generator: 'step-editor',
      },
    } as RunConfig,
  };
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoRun[]> {
  const out = resolve(options.out ?? join('runs', 'demo'));
  mkdirSync(out, { recursive: true });
  const configs = demoConfigs(options);
  const runs: DemoRun[] = [];
  for (const method of ['internalize', 'evolve'] as const) {
    // Written to disk so the run directory points at a real config file and `skillrl resume` works.
    const path = join(out, `${method}.json`);
    writeFileSync(path, `${JSON.stringify({ ...configs[method], runDir: '.' }, null, 2)}\n`);
    const result = await runConfig(loadConfig(path), {
      runDir: join(out, configs[method].name as string),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: (p: RunProgress) => options.onProgress?.(method, p) } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    });
    runs.push({ method, dir: result.dir, report: writeReport(result.dir).path, metrics: result.metrics });
  }
  return runs;
}
