import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunEvent, readRunStream, type Trajectory } from '@skillrl/core';
import { EPISODE_ATTRIBUTES as E, MODEL_CALL_ATTRIBUTES as M, SPAN_NAMES } from '@skillrl/rollout';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startFakeOpenAI,
  startOtlpReceiver,
  startRedisServer,
} from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI,
  evolveConfig,
  finish,
  internalizeConfig,
  refusedPort,
  startCli,
  tempDir,
  writeConfig,
} from './support.js';

// The done-when of issue 35 item 5: runs through the built CLI with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a
// real OTLP/HTTP receiver, checked against what the run directory holds.

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** The environment without any OTEL_* variable of the machine running the tests, plus `extra`. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OTEL_')) env[k] = v;
  return { ...env, ...extra };
}

/** The spans of one command: its service's episode spans are told apart by the run's rollout ids. */
const spansOfTrace = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

const rolloutsOf = (dir: string) => [...readRunStream<Trajectory>(dir, 'rollouts')];

/** The small household SKILLC run of the other tests (planner fixture agent, noise trainer): seconds. */
const smallInternalize = (name: string, steps = 2) =>
  internalizeConfig({ name }, { steps, validateEvery: 2, validation: { split: 'valid_seen', limit: 4 } });

describe('skillrl run with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('a household run: exactly one episode span per rollout, skill attributes only at z = 1, the stored reward', async () => {
    receiver.clear();
    const dir = tempDir('traces-run');
    const config = writeConfig(dir, smallInternalize('traced'));
    const run = await finish(
      startCli(['run', config, '--json'], { env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }) }),
    );
    expect(run.code, run.err).toBe(0);
    expect(run.err).not.toMatch(/warning: .*trace/i);
    const rollouts = rolloutsOf(join(dir, 'runs', 'traced'));
    // Everything was flushed before the process exited: nothing to wait for.
    const spans = receiver.spans();
    const episodes = spansOfTrace(spans, SPAN_NAMES.episode);
    expect(rollouts.length).toBeGreaterThan(20);
    expect(episodes).toHaveLength(rollouts.length);
    const byId = new Map(episodes.map((s) => [s.attributes[E.rolloutId], s]));
    expect(byId.size).toBe(rollouts.length);
    const conditions = new Set<number>();
    for (const t of rollouts) {
      const span = byId.get(t.id) as ReceivedSpan;
      expect(span, t.id).toBeDefined();
      conditions.add(t.condition);
      expect(span.attributes).toMatchObject({
        [E.taskId]: t.taskId,
        [E.family]: t.family,
        [E.condition]: t.condition,
        [E.reward]: t.reward,
        [E.passed]: t.verdict.passed,
        [E.unit]: t.id.split('/')[0],
        [E.steps]: t.steps.length,
        [E.errored]: t.error !== undefined,
      });
      if (t.condition === 1) {
        expect(span.attributes[E.skillName]).toBe(t.skill?.name);
        expect(span.attributes[E.skillHash]).toBe(t.skill?.hash);
      } else {
        expect(span.attributes).not.toHaveProperty(E.skillName);
        expect(span.attributes).not.toHaveProperty(E.skillHash);
      }
      expect(span.resource['service.name']).toBe('skillrl');
    }
    expect([...conditions].sort()).toEqual([0, 1]);
    // Each episode is a child of its unit's span, in the unit's trace.
    const units = new Map(spansOfTrace(spans, SPAN_NAMES.unit).map((s) => [s.spanId, s]));
    expect(new Set([...units.values()].map((u) => u.attributes['skillrl.unit']))).toEqual(
      new Set(rollouts.map((t) => t.id.split('/')[0])),
    );
    for (const span of episodes) {
      const unit = units.get(span.parentSpanId as string);
      expect(unit?.attributes['skillrl.unit']).toBe(span.attributes[E.unit]);
      expect(unit?.traceId).toBe(span.traceId);
    }
    for (const unit of units.values()) {
      const own = rollouts.filter((t) => t.id.startsWith(`${unit.attributes['skillrl.unit']}/`));
      expect(unit.attributes['skillrl.unit.rollouts']).toBe(own.length);
    }
  }, 120_000);

  it('an LLM agent: model-call child spans with token counts and the endpoint; no API key in anything received', async () => {
    receiver.clear();
    const key = 'sk-traces-test-key-7f3a9c1e5b';
    const server = await startFakeOpenAI({
      respond: (_r, ctx) => (ctx.index % 2 ? 'Action: inventory' : 'Action: look'),
    });
    try {
      const dir = tempDir('traces-llm');
      const config = writeConfig(
        dir,
        evolveConfig(
          {
            name: 'llm',
            tasks: { split: 'train', limit: 1 },
            maxSteps: 3,
            agent: {
              name: 'openai',
              options: { model: 'fake-model', baseURL: server.baseURL, apiKeyEnv: 'SKILLRL_TRACE_KEY' },
            },
          },
          { generations: 1, candidates: 1, episodes: 1 },
        ),
      );
      const run = await finish(
        startCli(['run', config, '--json'], {
          env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, SKILLRL_TRACE_KEY: key }),
        }),
      );
      expect(run.code, run.err).toBe(0);
      const rollouts = rolloutsOf(join(dir, 'runs', 'llm'));
      const spans = receiver.spans();
      const episodes = new Map(spansOfTrace(spans, SPAN_NAMES.episode).map((s) => [s.spanId, s]));
      expect([...episodes.values()].map((s) => s.attributes[E.rolloutId]).sort()).toEqual(
        rollouts.map((t) => t.id).sort(),
      );
      const calls = spans.filter((s) => s.name === 'chat fake-model');
      const steps = rollouts.reduce((n, t) => n + t.steps.length, 0);
      expect(calls).toHaveLength(steps);
      const port = Number(new URL(server.baseURL).port);
      for (const call of calls) {
        const episode = episodes.get(call.parentSpanId as string);
        expect(episode, 'a model call is a child of its episode').toBeDefined();
        expect(call.kind).toBe(3);
        expect(call.attributes).toMatchObject({
          [M.requestModel]: 'fake-model',
          [M.serverAddress]: '127.0.0.1',
          [M.serverPort]: port,
          [M.endpoint]: server.baseURL,
        });
        expect(call.attributes[M.inputTokens]).toBeGreaterThan(0);
        expect(call.attributes[M.outputTokens]).toBeGreaterThan(0);
      }
      // The tokens on the spans are the trajectories' tokens, call by call.
      const sum = (f: (s: ReceivedSpan) => number) => calls.reduce((n, s) => n + f(s), 0);
      expect(sum((s) => s.attributes[M.inputTokens] as number)).toBe(
        rollouts.reduce((n, t) => n + (t.usage?.inputTokens ?? 0), 0),
      );
      expect(sum((s) => s.attributes[M.outputTokens] as number)).toBe(
        rollouts.reduce((n, t) => n + (t.usage?.outputTokens ?? 0), 0),
      );
      // Nothing the collector received holds the key: bodies as sent (before decoding) and headers.
      for (const received of receiver.exports()) {
        expect(Buffer.from(received.body).toString('latin1')).not.toContain(key);
        expect(JSON.stringify(received.headers)).not.toContain(key);
      }
      expect(server.stats().received).toBe(steps);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('an unreachable collector: the run completes (exit 0), says so once, and exits within the export timeout', async () => {
    const port = await refusedPort();
    const dir = tempDir('traces-refused');
    const config = writeConfig(dir, smallInternalize('refused'));
    const run = await finish(
      startCli(['run', config, '--json'], {
        env: envWith({
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
        }),
      }),
    );
    const exited = Date.now();
    expect(run.code, run.err).toBe(0);
    const said = run.err.split('\n').filter((l) => l.startsWith('warning: traces could not be sent'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`http://127.0.0.1:${port}/v1/traces`);
    const events = [...readRunStream<RunEvent>(join(dir, 'runs', 'refused'), 'events')];
    const end = events.find((e) => e.type === 'run:end') as RunEvent;
    expect(end).toMatchObject({ status: 'completed' });
    // From run:end to the exit: the report, then at most the exporter's timeout (1 s here); typically about
    // 1.5 s. Without the bound it is the exporter's default 10 s of retries (and more): under 9 s tells them
    // apart with the margin wall-clock asserts need on a loaded machine.
    expect(exited - Date.parse(end.time)).toBeLessThan(9000);
  }, 120_000);

  it('SIGINT mid-run: exit 130, and the spans of every rollout on disk were sent before the exit', async () => {
    receiver.clear();
    // A task model that takes 40 ms a call, so the signal lands mid-run.
    const server = await startFakeOpenAI({ respond: () => 'Action: look', latencyMs: 40 });
    try {
      const dir = tempDir('traces-sigint');
      const config = writeConfig(
        dir,
        evolveConfig(
          {
            name: 'interrupted',
            maxSteps: 4,
            agent: { name: 'openai', options: { model: 'fake-model', baseURL: server.baseURL } },
          },
          { generations: 3, candidates: 2, episodes: 2 },
        ),
      );
      const runDir = join(dir, 'runs', 'interrupted');
      const child = startCli(['run', config, '--json'], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
      });
      const done = finish(child);
      for (;;) {
        const n = existsSync(join(runDir, 'rollouts.jsonl')) ? rolloutsOf(runDir).length : 0;
        if (n >= 6 || child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGINT');
      const run = await done;
      expect(run.code, run.err).toBe(130);
      const rollouts = rolloutsOf(runDir);
      expect(rollouts.length).toBeGreaterThanOrEqual(6);
      const episodes = spansOfTrace(receiver.spans(), SPAN_NAMES.episode);
      for (const t of rollouts) {
        const own = episodes.filter((s) => s.attributes[E.rolloutId] === t.id);
        expect(own, t.id).toHaveLength(1);
        expect(own[0]?.attributes[E.reward]).toBe(t.reward);
      }
      // Episodes cancelled in flight are not rollouts; their spans end in error.
      const stored = new Set(rollouts.map((t) => t.id));
      for (const span of episodes.filter((s) => !stored.has(s.attributes[E.rolloutId] as string))) {
        expect(span.status.code).toBe(2);
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('tracing off', () => {
  /** A preload that logs every module specifier the process resolves (ESM loader hooks, Node >= 20.6). */
  function importLogger(dir: string): { preload: string; log: string } {
    const log = join(dir, 'imports.log');
    const preload = join(dir, 'log-imports.mjs');
    const hook = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, specifier + ' ' + result.url + '\\n');
  return result;
}`;
    writeFileSync(
      preload,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});\n`,
    );
    writeFileSync(log, '');
    return { preload, log };
  }

  const runLogged = (
    dir: string,
    config: string,
    env: NodeJS.ProcessEnv,
  ): Promise<{ code: number | null; imports: string[] }> => {
    const { preload, log } = importLogger(dir);
    const child: ChildProcess = spawn(process.execPath, ['--import', preload, CLI, 'run', config, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    return finish(child).then((r) => ({ code: r.code, imports: readFileSync(log, 'utf8').split('\n') }));
  };

  const SDK = /@opentelemetry\/(sdk-|exporter-|resources|otlp-|context-async-hooks)/;

  it('with no OTEL_EXPORTER_OTLP_* variable no SDK module is loaded; with one, the SDK is (the check can fail)', async () => {
    const dir = tempDir('traces-off');
    const config = writeConfig(dir, smallInternalize('off', 1));
    const off = await runLogged(dir, config, envWith());
    expect(off.code).toBe(0);
    // The logger saw the run's own modules, and the API (a dependency, a no-op without an SDK)...
    expect(off.imports.some((l) => l.startsWith('@skillrl/rollout '))).toBe(true);
    expect(off.imports.some((l) => l.startsWith('@opentelemetry/api '))).toBe(true);
    // ...and nothing of the SDK.
    expect(off.imports.filter((l) => SDK.test(l))).toEqual([]);

    const onDir = tempDir('traces-on');
    const onConfig = writeConfig(onDir, smallInternalize('on', 1));
    receiver.clear();
    const on = await runLogged(onDir, onConfig, envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }));
    expect(on.code).toBe(0);
    expect(on.imports.some((l) => l.startsWith('@opentelemetry/sdk-trace-node '))).toBe(true);
    expect(receiver.spans().length).toBeGreaterThan(0);
  }, 120_000);
});

describe('skillrl worker with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it("traces the episodes it runs: one episode span per rollout of the session's run", async () => {
    receiver.clear();
    const redis = await startRedisServer();
    const children: ChildProcess[] = [];
    try {
      const queue = 'traced';
      const worker = startCli(['worker', '--redis', redis.url, '--queue', queue, '--concurrency', '2'], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
      });
      children.push(worker);
      const stopped = finish(worker);
      await new Promise<void>((resolve, reject) => {
        let out = '';
        worker.stdout?.on('data', (d) => {
          out += String(d);
          if (out.includes('listening on queue')) resolve();
        });
        worker.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
      });
      const dir = tempDir('traces-worker');
      const config = writeConfig(dir, {
        method: 'internalize',
        seed: 5,
        name: 'queued',
        adapter: 'household',
        tasks: { split: 'train', limit: 8 },
        agent: 'skill-reading',
        concurrency: 4,
        workers: { redis: redis.url, queue },
        internalize: {
          variant: 'skillc',
          steps: 2,
          tasksPerStep: 2,
          groupSize: 4,
          validateEvery: 2,
          validation: { split: 'valid_seen', limit: 2 },
          trainer: { name: 'tfjs', options: { lr: 0.01 } },
        },
      });
      // The session itself runs untraced: every span comes from the worker.
      const run = await finish(startCli(['run', config, '--json'], { env: envWith() }));
      expect(run.code, run.err).toBe(0);
      worker.kill('SIGTERM');
      expect((await stopped).code).toBe(0);
      const rollouts = rolloutsOf(join(dir, 'runs', 'queued'));
      const episodes = spansOfTrace(receiver.spans(), SPAN_NAMES.episode);
      expect(episodes.map((s) => s.attributes[E.rolloutId]).sort()).toEqual(rollouts.map((t) => t.id).sort());
      for (const t of rollouts) {
        const span = episodes.find((s) => s.attributes[E.rolloutId] === t.id) as ReceivedSpan;
        expect(span.attributes[E.reward]).toBe(t.reward);
        expect(span.attributes[E.condition]).toBe(t.condition);
        expect(span.attributes[E.skillHash]).toBe(t.condition === 1 ? t.skill?.hash : undefined);
      }
      expect(spansOfTrace(receiver.spans(), SPAN_NAMES.unit)).toEqual([]);
    } finally {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      await redis.stop();
    }
  }, 180_000);
});
