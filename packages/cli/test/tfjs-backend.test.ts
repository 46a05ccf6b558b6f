import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CliRun,
  evolveConfig,
  finish,
  internalizeConfig,
  startCli,
  tempDir,
  writeConfig,
} from './support.js';

// Every command that loads tfjs chooses its backend once, through tensor-ops (wasm here: the native packages
// cannot install on these machines), before its first tensor. Before, only the tfjs trainer chose: evolve
// (the step editor beside the frozen skill-reading agent) and eval ran on tfjs's pure-JS cpu backend, which
// announces itself with this banner on the first tensor.
const TFJS_BANNER = /TensorFlow\.js in Node\.js|install our node backend|Platform node has already been set/;

const INDEX = resolve(__dirname, '../dist/index.js');
// tfjs as the CLI's own packages load it (one copy, CJS, whatever imports it): its `getBackend()` is the
// backend the command's tensors were on.
const TFJS = createRequire(resolve(__dirname, '../../tensor-ops/package.json')).resolve('@tensorflow/tfjs');

/**
 * `skillrl <args>` as the binary runs it (the built CLI's `runCli`, its output on this process's stdout and
 * stderr), in a child process; then the backend tfjs was left on, written to a file beside the output.
 */
async function runInChild(args: string[], dir: string): Promise<CliRun & { tfBackend: string | null }> {
  const report = join(dir, `tf-backend-${Date.now()}.json`);
  const child = `
    const { runCli } = await import(${JSON.stringify(INDEX)});
    const code = await runCli(process.argv.slice(1));
    const { createRequire } = await import('node:module');
    const tf = createRequire(import.meta.url)(${JSON.stringify(TFJS)});
    const { writeFileSync } = await import('node:fs');
    writeFileSync(${JSON.stringify(report)}, JSON.stringify({ tfBackend: tf.getBackend() ?? null }));
    process.exitCode = code;
  `;
  const run = await finish(
    spawn(process.execPath, ['--input-type=module', '-e', child, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The automatic choice is what is under test, not a developer's override.
      env: { ...process.env, SKILLRL_TF_BACKEND: '' },
    }),
  );
  const tfBackend = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).tfBackend : null;
  return { ...run, tfBackend };
}

/** The offline Skill-R1 of examples/household-skill-r1, small: the step editor and the frozen tfjs agent. */
function editorEvolve(name: string, generations: number) {
  return evolveConfig(
    // The untrained agent often fails every candidate alike: such generations are expected here, not an error.
    { name, agent: 'skill-reading', seed: 1, health: { voidUnits: 0 } },
    {
      generations,
      candidates: 2,
      episodes: 2,
      generator: { name: 'step-editor', options: { keepPrior: 1, hiddenSize: 16 } },
    },
  );
}

const NO_BACKEND = { SKILLRL_TF_BACKEND: '' };

describe('tfjs backend: chosen once, wasm, no tfjs banner', () => {
  it('evolve with the step editor and the frozen skill-reading agent runs on wasm and prints no banner', async () => {
    const dir = tempDir('tf-evolve');
    const config = writeConfig(dir, editorEvolve('tf-evolve', 1));
    const run = await runInChild(['run', config], dir);
    expect(run.code, run.err).toBe(0);
    expect(`${run.out}\n${run.err}`).not.toMatch(TFJS_BANNER);
    expect(run.tfBackend).toBe('wasm');
    expect(existsSync(join(dir, 'runs', 'tf-evolve', 'summary.json'))).toBe(true);
  }, 120_000);

  it('the built binary, killed after a generation and resumed (the editor loaded from its checkpoint): wasm, no banner', async () => {
    const dir = tempDir('tf-resume');
    const config = writeConfig(dir, editorEvolve('tf-resume', 4));
    const runDir = join(dir, 'runs', 'tf-resume');
    const child = startCli(['run', config], { env: { ...process.env, ...NO_BACKEND } });
    const first = finish(child);
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    // Snapshot 1 is written after generation 1: the first whose editor was trained and saved as a folder.
    while (!exited && !existsSync(join(runDir, 'checkpoints', 'snapshot-00000001.json'))) {
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    const killed = await first;
    expect(killed.signal).toBe('SIGKILL');
    expect(`${killed.out}\n${killed.err}`).not.toMatch(TFJS_BANNER);
    const resumed = await runInChild(['resume', runDir], dir);
    expect(resumed.code, resumed.err).toBe(0);
    expect(`${resumed.out}\n${resumed.err}`).not.toMatch(TFJS_BANNER);
    expect(resumed.tfBackend).toBe('wasm');
  }, 120_000);

  it('eval of a config with the skill-reading agent (acting alone, no trainer) chooses wasm', async () => {
    const dir = tempDir('tf-eval');
    const config = writeConfig(dir, editorEvolve('tf-eval', 1));
    const run = await runInChild(['eval', config, '--episodes', '1'], dir);
    expect(run.code, run.err).toBe(0);
    expect(`${run.out}\n${run.err}`).not.toMatch(TFJS_BANNER);
    expect(run.tfBackend).toBe('wasm');
  }, 120_000);

  it('internalize with the tfjs trainer shares the agent’s choice: wasm, no banner', async () => {
    const dir = tempDir('tf-internalize');
    const config = writeConfig(
      dir,
      internalizeConfig(
        { name: 'tf-internalize', agent: 'skill-reading' },
        {
          steps: 1,
          tasksPerStep: 2,
          groupSize: 2,
          validateEvery: 1,
          validation: { split: 'valid_seen', limit: 2 },
          trainer: { name: 'tfjs', options: { lr: 0.01 } },
        },
      ),
    );
    const run = await runInChild(['run', config], dir);
    expect(run.code, run.err).toBe(0);
    expect(`${run.out}\n${run.err}`).not.toMatch(TFJS_BANNER);
    expect(run.tfBackend).toBe('wasm');
  }, 120_000);
});
