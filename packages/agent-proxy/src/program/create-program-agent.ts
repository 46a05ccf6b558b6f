import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Agent,
  type AgentAction,
  type AgentContext,
  type EpisodeEnd,
  formatSkill,
  InvalidArgumentError,
  type Skill,
  type Task,
  type ToolDefinition,
} from '@skillrl/core';
import type { ActResult, EpisodeHandler, TaskMcpServer } from '@skillrl/mcp';
import { startTaskMcpServer } from '@skillrl/mcp';
import { decodeToolCall } from '@skillrl/rollout';
import pLimit from 'p-limit';
import type { ProxyEpisode, RecordingProxy, RecordingProxyOptions } from '../proxy/index.js';
import { startRecordingProxy } from '../proxy/index.js';
import { type CallChains, stepCallsOf } from './program-calls.js';
import { ProgramError } from './program-error.js';
import { readStdoutAnswer, type StdoutAnswer } from './read-answer.js';
import { SPAWN_FAILED, type SpawnedProgram, spawnProgram } from './spawn-program.js';

/** What a module-function program gets with its task (`agent.program.run`, or `export default`). */
export interface ProgramRunContext {
  task: Task;
  /** The environment's first observation. */
  observation: string;
  condition: 0 | 1;
  episodeId: string;
  /** The proxy (`OPENAI_BASE_URL`): give it to your OpenAI-compatible client. */
  baseURL: string;
  /** This episode's token (`OPENAI_API_KEY`): valid until the episode ends. Create your client per episode. */
  apiKey: string;
  /** This episode's MCP server (`SKILLRL_MCP_URL`): the environment's `act`, the task's tools, `submit`. */
  mcpUrl: string;
  /** Only when condition is 1: a folder holding `<name>/SKILL.md` (`SKILLRL_SKILL_DIR`). */
  skillDir?: string;
  skill?: Skill;
  tools: readonly ToolDefinition[];
  /** Aborts at the episode's timeout or the run's stop. */
  signal: AbortSignal;
}

/** A program as a function: resolves with its answer (a string, any JSON value, or nothing). */
export type ProgramFunction = (task: Task, context: ProgramRunContext) => Promise<unknown>;

export interface ProgramAgentOptions {
  /** The program: any executable, run once per episode (argv; no shell). One of `command` or `run`. */
  command?: readonly string[];
  /** The program as a function, run in this process once per episode. */
  run?: ProgramFunction;
  /** The command's working directory. */
  cwd?: string;
  /** Extra environment variables for the command. */
  env?: Record<string, string>;
  /** The whole episode's budget; past it the process group is killed (an errored episode). Default 300 000. */
  timeoutMs?: number;
  /** Programs running at once, besides the run's own concurrency. Default: no extra limit. */
  concurrency?: number;
  /**
   * Keep each started program for the next episode instead of starting one per episode: it reads one JSON
   * line per episode on stdin (`{ episodeId, taskFile, baseURL, apiKey, mcpUrl, condition, skillDir? }`) and
   * prints `{"episodeId": ..., "answer": ...}` (answer optional) when it is done with it. At most one
   * episode at a time per process; as many processes as episodes run at once. A process that crashes or
   * times out errors its episode and is replaced. Default false.
   */
  reuse?: boolean;
  /** The real model behind the proxy. */
  upstream: RecordingProxyOptions['upstream'];
  /** `system` (default): the proxy prepends the skill to the system message when z = 1. `none`: never. */
  injectSkill?: 'system' | 'none';
  /** After the episode ended, how long the program may take to exit before its group is killed. Default 2 000. */
  graceMs?: number;
  /** The environment the command inherits (the `upstream.apiKeyEnv` variable is always removed). Default `process.env`. */
  processEnv?: NodeJS.ProcessEnv;
  /** Shown in events. Default `program`. */
  name?: string;
}

export interface ProgramAgentStats {
  episodes: number;
  /** Milliseconds from spawn to the program's first call (MCP or model), per episode: the cost of starting. */
  startMs: number[];
  crashes: number;
  timeouts: number;
  /** Model calls that arrived after their episode's last decision (kept in the proxy's count, not in a step). */
  lateCalls: number;
}

export interface ProgramAgent extends Agent {
  /** Starts the proxy and the MCP server (each run does on its first episode); resolves with their URLs. */
  ready(): Promise<{ proxyURL: string; mcpURL: string }>;
  stats(): ProgramAgentStats;
  /** Kills every running program and closes the proxy and the MCP server. */
  close(): Promise<void>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  settled: boolean;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const d: Deferred<T> = {
    promise: new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    }),
    resolve: (v) => {
      if (d.settled) return;
      d.settled = true;
      resolve(v);
    },
    reject: (e) => {
      if (d.settled) return;
      d.settled = true;
      reject(e);
    },
    settled: false,
  };
  // A decision nobody awaits any more (the episode was aborted) must not become an unhandled rejection.
  d.promise.catch(() => {});
  return d;
}

/** How the program finished, once it has. */
type Finish = { kind: 'answer'; answer: string } | { kind: 'none' } | { kind: 'error'; error: ProgramError };

interface Episode {
  id: string;
  context: AgentContext;
  proxy: ProxyEpisode;
  mcpToken: string;
  dir: string;
  program?: SpawnedProgram;
  /** The decision `act` is waiting for. */
  decision?: Deferred<AgentAction>;
  /** The MCP call waiting for the environment's answer to its action. */
  reply?: Deferred<ActResult>;
  finish?: Finish;
  /** The stdout answer was given as an action already; the next decision ends the episode. */
  answered: boolean;
  submitted: boolean;
  ended?: { observation: string; done: boolean; text?: string };
  chains: CallChains;
  spawnedAt: number;
  firstCallAt?: number;
  abort: AbortController;
  timer?: NodeJS.Timeout;
  release: () => void;
  timedOut: boolean;
  stopping: boolean;
  /** Settles when the program is done with the episode (it exited, answered, threw, or was killed). */
  finished: Deferred<void>;
  /** The reused process playing it (`reuse: true`). */
  worker?: ReusedProgram;
}

/** A program kept between episodes (`reuse: true`). */
interface ReusedProgram {
  program: SpawnedProgram;
  current?: Episode;
  dead: boolean;
}

const DEFAULT_TIMEOUT_MS = 300_000;

/** The config field errors name. */
const FIELD = 'agent.program';

/**
 * The program agent: any program (a command in any language, or a module function) as the task model.
 * Per episode it starts the program with the task, a per-episode token for the recording proxy in front of
 * the real model (`OPENAI_BASE_URL`, `OPENAI_API_KEY`), the skill as an Agent Skills folder when z = 1, and
 * an MCP server for the environment (`SKILLRL_MCP_URL`). The program plays the episode through MCP; each
 * `act`, tool call or `submit` it makes is this agent's decision in the one episode runner (`runEpisode`),
 * which steps the environment, runs the task's tools with their confinement and budget, and verifies — so a
 * program's reward is computed exactly as a built-in agent's. Each decision's step carries the model calls
 * the program made for it.
 */
export function createProgramAgent(options: ProgramAgentOptions): ProgramAgent {
  const hasCommand = Array.isArray(options.command);
  if (hasCommand === (typeof options.run === 'function')) {
    throw new InvalidArgumentError(
      FIELD,
      hasCommand
        ? 'give either command or run, not both'
        : 'give the program: command: ["node", "agent.mjs"] (any executable, argv without a shell), or a module function',
    );
  }
  if (hasCommand) {
    const command = options.command as readonly unknown[];
    if (command.length === 0 || command.some((c) => typeof c !== 'string' || c === '')) {
      throw new InvalidArgumentError(
        `${FIELD}.command`,
        'expected a non-empty list of non-empty strings, the program and its arguments, e.g. ["python3", "agent.py"]',
      );
    }
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new InvalidArgumentError(
      `${FIELD}.timeoutMs`,
      `expected a positive number of milliseconds, got ${timeoutMs}`,
    );
  }
  const graceMs = options.graceMs ?? 2000;
  const limit =
    options.concurrency !== undefined
      ? (() => {
          if (!(Number.isInteger(options.concurrency) && options.concurrency >= 1)) {
            throw new InvalidArgumentError(
              `${FIELD}.concurrency`,
              `expected an integer >= 1, got ${options.concurrency}`,
            );
          }
          return pLimit(options.concurrency);
        })()
      : undefined;
  const apiKeyEnv = options.upstream.apiKeyEnv ?? 'OPENAI_API_KEY';
  const episodes = new Map<string, Episode>();
  const idle: ReusedProgram[] = [];
  const reused = new Set<ReusedProgram>();
  const stats: ProgramAgentStats = { episodes: 0, startMs: [], crashes: 0, timeouts: 0, lateCalls: 0 };
  let servers: Promise<{ proxy: RecordingProxy; mcp: TaskMcpServer }> | undefined;
  const mcpEpisodes = new Map<string, EpisodeHandler>();

  const start = () => {
    servers ??= (async () => {
      const proxy = await startRecordingProxy({
        upstream: options.upstream,
        injectSkill: options.injectSkill ?? 'system',
        ...(options.processEnv ? { env: options.processEnv } : {}),
      });
      try {
        const mcp = await startTaskMcpServer({ episode: (token) => mcpEpisodes.get(token) });
        return { proxy, mcp };
      } catch (e) {
        await proxy.close();
        throw e;
      }
    })();
    return servers;
  };

  const firstCall = (ep: Episode) => {
    if (ep.firstCallAt === undefined) {
      ep.firstCallAt = performance.now();
      stats.startMs.push(Math.round(ep.firstCallAt - ep.spawnedAt));
    }
  };

  /** The step info, usage and tokens of the calls made since the previous decision. */
  const withCalls = (ep: Episode, action: AgentAction): AgentAction => {
    const recorded = ep.proxy.takeCalls();
    if (recorded.length > 0) firstCall(ep);
    const step = stepCallsOf(recorded, ep.chains);
    const info: Record<string, unknown> = { ...(action.info ?? {}), program: { calls: step.calls.length } };
    if (step.calls.length > 0) info.calls = step.calls;
    if (step.chat) info.chat = step.chat;
    const out: AgentAction = { ...action, info };
    if (step.usage) out.usage = step.usage;
    if (step.tokenIds) out.tokenIds = step.tokenIds;
    if (step.logProbs) out.logProbs = step.logProbs;
    return out;
  };

  /** Settles the pending decision; an upstream that failed past its retries makes the episode errored. */
  const decide = (ep: Episode, action: AgentAction) => {
    const decision = ep.decision;
    if (!decision || decision.settled) return false;
    const failure = ep.proxy.failure;
    if (failure) {
      decision.reject(upstreamError(failure, ep));
      return true;
    }
    decision.resolve(withCalls(ep, action));
    return true;
  };

  const upstreamError = (failure: { code: string; message: string }, ep: Episode) =>
    new ProgramError(
      'upstream',
      `${FIELD}.upstream: a model call failed past its retries (${failure.code}): ${failure.message}`,
      ep.program?.stderrTail() ?? '',
    );

  /** The MCP side of one episode: each call a decision of the episode runner. */
  const handlerOf = (ep: Episode): EpisodeHandler => {
    const afterDecision = (action: AgentAction): Promise<ActResult> => {
      firstCall(ep);
      if (ep.ended) return Promise.resolve(endedResult(ep));
      if (!ep.decision || ep.decision.settled) {
        return Promise.reject(
          new Error('one action at a time: wait for the previous act/tool call to return before the next'),
        );
      }
      const reply = deferred<ActResult>();
      ep.reply = reply;
      decide(ep, action);
      return reply.promise;
    };
    return {
      episodeId: ep.id,
      tools: ep.context.tools ?? [],
      initialObservation: () => {
        firstCall(ep);
        return ep.context.observation;
      },
      admissibleActions: () => {
        firstCall(ep);
        return ep.context.admissibleActions;
      },
      act: (action) => afterDecision({ action }),
      callTool: (name, args) => {
        const decoded = decodeToolCall(
          { id: `mcp-${randomUUID().slice(0, 8)}`, name, arguments: JSON.stringify(args ?? {}) },
          ep.context.tools,
        );
        const info: Record<string, unknown> = { toolCall: decoded.toolCall, mcp: true };
        if (decoded.toolArgs) info.toolArgs = decoded.toolArgs;
        if (decoded.error) info.error = decoded.error;
        return afterDecision({ action: decoded.action, invalid: decoded.invalid, info });
      },
      submit: (answer) => {
        ep.submitted = true;
        return afterDecision({ action: answer, info: { submit: true } });
      },
    };
  };

  const endedResult = (ep: Episode): ActResult => {
    const ended = ep.ended as NonNullable<Episode['ended']>;
    return { observation: ended.observation, done: ended.done, ...(ended.text ? { ended: ended.text } : {}) };
  };

  /** What the program's end means for the pending (or next) decision. */
  const settleFinish = (ep: Episode) => {
    const finish = ep.finish;
    if (!finish || !ep.decision || ep.decision.settled || ep.ended) return;
    if (ep.proxy.failure) {
      ep.decision.reject(upstreamError(ep.proxy.failure, ep));
    } else if (finish.kind === 'error') {
      ep.decision.reject(finish.error);
    } else if (finish.kind === 'answer' && !ep.answered && !ep.submitted) {
      ep.answered = true;
      decide(ep, { action: finish.answer, info: { stdoutAnswer: true } });
    } else {
      decide(ep, { action: '', end: true });
    }
  };

  const finishOf = (
    ep: Episode,
    code: number | null,
    signal: NodeJS.Signals | null,
    stdout: string,
  ): Finish => {
    const tail = ep.program?.stderrTail() ?? '';
    if (ep.timedOut) {
      stats.timeouts++;
      return {
        kind: 'error',
        error: new ProgramError(
          'timeout',
          `${FIELD}.timeoutMs: the program ran past ${timeoutMs} ms and its process group was killed; raise agent.program.timeoutMs, or make the program finish sooner`,
          tail,
        ),
      };
    }
    if (code === SPAWN_FAILED && /cannot start/.test(tail)) {
      stats.crashes++;
      return {
        kind: 'error',
        error: new ProgramError(
          'spawn',
          `${FIELD}.command: "${options.command?.[0]}" could not be started; give a program on PATH or a path relative to agent.program.cwd`,
          tail,
        ),
      };
    }
    if (signal !== null || code !== 0) {
      stats.crashes++;
      return {
        kind: 'error',
        error: new ProgramError(
          'crash',
          `${FIELD}.command: the program ${signal ? `was killed by ${signal}` : `exited with code ${code}`} before the episode ended`,
          tail,
        ),
      };
    }
    if (ep.proxy.calls === 0) {
      return {
        kind: 'error',
        error: new ProgramError(
          'no-model-call',
          `${FIELD}.command: the program exited having made no model call through OPENAI_BASE_URL; point its OpenAI client at process.env.OPENAI_BASE_URL with process.env.OPENAI_API_KEY (the real key is not in its environment)`,
          tail,
        ),
      };
    }
    const answer: StdoutAnswer = readStdoutAnswer(stdout);
    if (answer.kind === 'malformed') {
      return {
        kind: 'error',
        error: new ProgramError(
          'output',
          `${FIELD}.command: the last line of stdout (${answer.line}) is ${answer.why}; print {"answer": ...} as the last line, or call the MCP tool submit`,
          tail,
        ),
      };
    }
    return answer.kind === 'answer' ? { kind: 'answer', answer: answer.answer } : { kind: 'none' };
  };

  /** The command's environment: the caller's, less the real key and any SKILLRL_ variable of its own. */
  const programEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...(options.processEnv ?? process.env), ...(options.env ?? {}) };
    // The real key never reaches the program: the variable `apiKeyEnv` names is removed.
    delete env[apiKeyEnv];
    for (const key of Object.keys(env)) if (key.startsWith('SKILLRL_')) delete env[key];
    return env;
  };

  /** A program started for reuse: episodes in on stdin, `{"episodeId", "answer"}` lines out. */
  const spawnReused = (proxyURL: string): ReusedProgram => {
    const env = programEnv();
    Object.assign(env, { OPENAI_BASE_URL: proxyURL, SKILLRL_REUSE: '1' });
    const program = spawnProgram({
      command: options.command as readonly string[],
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env,
      stdin: true,
    });
    const worker: ReusedProgram = { program, dead: false };
    reused.add(worker);
    program.onLine((line) => {
      const ep = worker.current;
      if (!ep || !line.trimStart().startsWith('{')) return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return; // the program's own output
      }
      const result = value as { episodeId?: unknown; answer?: unknown };
      if (result?.episodeId !== ep.id) return;
      const answer = result.answer;
      onFinish(ep, 0, null, answer === undefined || answer === null ? '' : JSON.stringify({ answer }));
    });
    void program.exited.then(({ code, signal }) => {
      worker.dead = true;
      reused.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const ep = worker.current;
      if (!ep) return;
      if (code === 0 && signal === null && !ep.timedOut) {
        onFinish(
          ep,
          null,
          null,
          '',
          `${FIELD}.command: the reused program exited (code 0) before printing {"episodeId": "${ep.id}", ...} for its episode`,
        );
      } else onFinish(ep, code, signal, '');
    });
    return worker;
  };

  const launch = async (context: AgentContext): Promise<Episode> => {
    const id = context.episodeId ?? `${context.task.id}:${randomUUID()}`;
    let release: () => void = () => {};
    if (limit) {
      await new Promise<void>((acquired) => {
        void limit(
          () =>
            new Promise<void>((r) => {
              release = r;
              acquired();
            }),
        );
      });
    }
    const { proxy, mcp } = await start();
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-program-'));
    const proxyEpisode = proxy.openEpisode({
      episodeId: id,
      condition: context.condition,
      ...(context.skill ? { skill: context.skill } : {}),
    });
    const ep: Episode = {
      id,
      context,
      proxy: proxyEpisode,
      mcpToken: randomUUID(),
      dir,
      answered: false,
      submitted: false,
      chains: {},
      spawnedAt: performance.now(),
      abort: new AbortController(),
      release,
      timedOut: false,
      stopping: false,
      finished: deferred<void>(),
    };
    mcpEpisodes.set(ep.mcpToken, handlerOf(ep));
    episodes.set(id, ep);
    stats.episodes++;

    // The task as an agent sees it: never its answer, nor the metadata a verifier reads (GAIA's annotator
    // notes), which a program could copy.
    const seen: Task = {
      id: context.task.id,
      family: context.task.family,
      split: context.task.split,
      prompt: context.task.prompt,
    };
    const taskFile = join(dir, 'task.json');
    const tools = (context.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
    writeFileSync(
      taskFile,
      `${JSON.stringify({ task: seen, observation: context.observation, condition: context.condition, episodeId: id, tools }, null, 2)}\n`,
    );
    let skillDir: string | undefined;
    if (context.condition === 1 && context.skill) {
      skillDir = join(dir, 'skills');
      mkdirSync(join(skillDir, context.skill.name), { recursive: true });
      writeFileSync(join(skillDir, context.skill.name, 'SKILL.md'), formatSkill(context.skill));
    }
    const mcpUrl = mcp.urlFor(ep.mcpToken);
    ep.timer = setTimeout(() => {
      ep.timedOut = true;
      ep.abort.abort(new Error(`agent.program.timeoutMs (${timeoutMs} ms) passed`));
      ep.program?.kill('SIGKILL');
      if (!ep.program) onFinish(ep, null, null, '');
    }, timeoutMs);
    ep.timer.unref?.();

    if (options.command && options.reuse) {
      const worker = idle.pop() ?? spawnReused(proxy.url);
      worker.current = ep;
      ep.worker = worker;
      ep.program = worker.program;
      ep.spawnedAt = performance.now();
      worker.program.writeLine(
        JSON.stringify({
          episodeId: id,
          taskFile,
          baseURL: proxy.url,
          apiKey: proxyEpisode.token,
          mcpUrl,
          condition: context.condition,
          ...(skillDir ? { skillDir } : {}),
        }),
      );
    } else if (options.command) {
      const env = programEnv();
      Object.assign(env, {
        OPENAI_BASE_URL: proxy.url,
        OPENAI_API_KEY: proxyEpisode.token,
        SKILLRL_TASK_FILE: taskFile,
        SKILLRL_MCP_URL: mcpUrl,
        SKILLRL_EPISODE_ID: id,
        SKILLRL_CONDITION: String(context.condition),
      });
      if (skillDir) env.SKILLRL_SKILL_DIR = skillDir;
      const program = spawnProgram({
        command: options.command,
        ...(options.cwd ? { cwd: options.cwd } : {}),
        env,
      });
      ep.program = program;
      void program.exited.then(({ code, signal }) => onFinish(ep, code, signal, program.stdout()));
    } else {
      const run = options.run as ProgramFunction;
      const runContext: ProgramRunContext = {
        task: seen,
        observation: context.observation,
        condition: context.condition,
        episodeId: id,
        baseURL: proxy.url,
        apiKey: proxyEpisode.token,
        mcpUrl,
        tools: context.tools ?? [],
        signal: ep.abort.signal,
        ...(skillDir ? { skillDir } : {}),
        ...(context.condition === 1 && context.skill ? { skill: context.skill } : {}),
      };
      void (async () => {
        try {
          const value = await run(seen, runContext);
          const stdout = value === undefined || value === null ? '' : JSON.stringify({ answer: value });
          onFinish(ep, 0, null, stdout);
        } catch (e) {
          const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
          onFinish(
            ep,
            1,
            null,
            '',
            `${FIELD}.run: the program function threw before the episode ended: ${message}`,
          );
        }
      })();
    }
    return ep;
  };

  const onFinish = (
    ep: Episode,
    code: number | null,
    signal: NodeJS.Signals | null,
    stdout: string,
    thrown?: string,
  ) => {
    if (ep.finish) return;
    if (ep.timer) clearTimeout(ep.timer);
    if (ep.stopping) {
      ep.finish = { kind: 'none' };
      ep.finished.resolve();
      return;
    }
    ep.finish =
      thrown !== undefined && !ep.timedOut
        ? { kind: 'error', error: new ProgramError('crash', thrown, ep.program?.stderrTail() ?? '') }
        : finishOf(ep, code, signal, stdout);
    if (thrown !== undefined && !ep.timedOut) stats.crashes++;
    ep.finished.resolve();
    // The environment's answer to the last action will never be read: release whoever waits on it.
    ep.reply?.resolve({ observation: '', done: true, ended: 'the program ended' });
    settleFinish(ep);
  };

  const act = async (context: AgentContext): Promise<AgentAction> => {
    const key = context.episodeId;
    let ep = key ? episodes.get(key) : undefined;
    if (!ep) {
      if (context.stepIndex !== 0 && key) {
        throw new InvalidArgumentError('episodeId', `no running program for episode ${key}`);
      }
      ep = await launch(context);
    }
    ep.context = context;
    const decision = deferred<AgentAction>();
    ep.decision = decision;
    // The environment answered the previous action: that is the pending MCP call's result.
    const reply = ep.reply;
    ep.reply = undefined;
    reply?.resolve({ observation: context.observation, done: false });
    if (ep.submitted || (ep.answered && ep.finish)) {
      // After `submit` (or the stdout answer) was stepped, the episode is over.
      decide(ep, { action: '', end: true });
    } else if (ep.finish) {
      settleFinish(ep);
    }
    const signal = context.signal;
    if (signal) {
      if (signal.aborted) throw signal.reason;
      const onAbort = () => decision.reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        return await decision.promise;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    }
    return decision.promise;
  };

  const endEpisode = async (end: EpisodeEnd): Promise<void> => {
    const ep = episodes.get(end.episodeId);
    if (!ep) return;
    ep.ended = {
      observation: end.observation,
      done: end.done,
      ...(end.done
        ? {}
        : {
            text: end.error
              ? `the episode ended with an error (${end.error.code})`
              : 'the episode ended (step limit)',
          }),
    };
    ep.reply?.resolve(endedResult(ep));
    ep.reply = undefined;
    ep.decision?.resolve({ action: '', end: true });
    try {
      if (ep.program) {
        // The program is done with the episode when it exits (a reused one: when it prints its result line).
        const finished = await Promise.race([
          ep.finished.promise.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), graceMs).unref?.()),
        ]);
        if (!finished) {
          ep.stopping = true;
          ep.program.kill('SIGKILL');
          await ep.program.exited;
        }
        const worker = ep.worker;
        if (worker) {
          worker.current = undefined;
          if (!worker.dead) idle.push(worker);
        }
      } else {
        ep.abort.abort(new Error('the episode ended'));
      }
      const late = ep.proxy.takeCalls();
      stats.lateCalls += late.length;
    } finally {
      if (ep.timer) clearTimeout(ep.timer);
      ep.proxy.end();
      mcpEpisodes.delete(ep.mcpToken);
      const s = await servers;
      await s?.mcp.closeEpisode(ep.mcpToken).catch(() => {});
      rmSync(ep.dir, { recursive: true, force: true });
      episodes.delete(ep.id);
      ep.release();
    }
  };

  return {
    name: options.name ?? 'program',
    act,
    endEpisode,
    async ready() {
      const { proxy, mcp } = await start();
      return { proxyURL: proxy.url, mcpURL: mcp.urlFor('<episode>') };
    },
    stats: () => ({ ...stats, startMs: [...stats.startMs] }),
    async close() {
      for (const ep of episodes.values()) {
        ep.stopping = true;
        ep.program?.kill('SIGKILL');
        ep.abort.abort(new Error('the agent was closed'));
      }
      for (const worker of reused) worker.program.kill('SIGKILL');
      await Promise.all([
        ...[...episodes.values()].map((ep) => ep.program?.exited),
        ...[...reused].map((w) => w.program.exited),
      ]);
      idle.length = 0;
      if (servers) {
        const s = await servers.catch(() => undefined);
        servers = undefined;
        await Promise.all([s?.proxy.close(), s?.mcp.close()]);
      }
    },
  };
}
