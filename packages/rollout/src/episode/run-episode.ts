import {
  type Agent,
  type AgentAction,
  type Condition,
  createRng,
  type Environment,
  InvalidArgumentError,
  redactSecrets,
  type Skill,
  skillHash,
  type Task,
  type ToolDefinition,
  type Trajectory,
  type TrajectoryError,
  type TrajectoryStep,
  type Usage,
  type Verdict,
  type Verifier,
} from '@skillrl/core';
import { traceEpisode } from '../trace/episode-span.js';
import { executeTool } from '../trace/tool-call-span.js';
import { addUsage } from '../usage/price-table.js';
import { type ToolBudgetContext, toolBudgetNotice } from './tool-budget.js';

export interface RunEpisodeOptions {
  agent: Agent;
  env: Environment;
  task: Task;
  /** Injected into the prompt under condition 1. */
  skill?: Skill;
  /** Default: 1 when a skill is given, else 0. */
  condition?: Condition;
  /** Default: `env.maxSteps`. The smaller of the two applies. */
  maxSteps?: number;
  verifier: Verifier;
  signal?: AbortSignal;
  /** Default `${task.id}:c${condition}:i${index ?? 0}`. */
  id?: string;
  /** Episode seed; each decision gets `createRng(seed).seedFor(step)`. Default 0. */
  seed?: number;
  groupId?: string;
  index?: number;
  candidate?: number;
  generation?: number;
  /** Task tools; those with `execute` run here, the others go to the environment as actions. */
  tools?: ToolDefinition[];
  /** What the agent sees after an invalid action. */
  invalidActionObservation?: (observation: string, action: AgentAction) => string;
}

const defaultInvalid = (observation: string, action: AgentAction): string => {
  const why = typeof action.info?.error === 'string' ? ` (${action.info.error})` : '';
  return `Invalid action${why}. Reply with exactly one valid action.\n\n${observation}`;
};

const skillHashes = new WeakMap<Skill, { json: string; hash: string }>();

/**
 * `skillHash` (YAML frontmatter and SHA-256: tens of microseconds) once per skill object and content: a run
 * hands the same skill to thousands of episodes. The content is compared as JSON, so a skill edited in place
 * is hashed again.
 */
function cachedSkillHash(skill: Skill): string {
  const json = JSON.stringify(skill);
  const known = skillHashes.get(skill);
  if (known?.json === json) return known.hash;
  const hash = skillHash(skill);
  skillHashes.set(skill, { json, hash });
  return hash;
}

function errorOf(code: string, error: unknown): TrajectoryError {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { code, message: redactSecrets(message) };
}

function failedVerdict(error: TrajectoryError): Verdict {
  return { score: 0, passed: false, reason: `episode did not finish (${error.code}): ${error.message}` };
}

/**
 * Runs one episode: reset, then act/step until the environment is done or the step limit, then verify.
 * A failure of the model (past its retry budget), the environment or the verifier does not throw: it ends
 * the episode as a trajectory with `error` set and a zero verdict, so no rollout is silently lost. Only an
 * abort through `signal` throws (the caller asked to stop).
 *
 * `durationMs` is the sum of the steps' model latencies (replayed from the request cache on a rerun), so a
 * cached rerun reproduces the trajectory byte for byte.
 */
export function runEpisode(options: RunEpisodeOptions): Promise<Trajectory> {
  // One `skillrl.episode` span per episode (a no-op unless an OpenTelemetry SDK is registered).
  return traceEpisode(options, () => playEpisode(options));
}

/** `runEpisode` inside its span. */
async function playEpisode(options: RunEpisodeOptions): Promise<Trajectory> {
  const { agent, env, task, skill, verifier, signal } = options;
  const condition: Condition = options.condition ?? (skill ? 1 : 0);
  if (condition !== 0 && condition !== 1) {
    throw new InvalidArgumentError('condition', `expected 0 or 1, got ${String(condition)}`);
  }
  if (condition === 1 && !skill) {
    throw new InvalidArgumentError(
      'skill',
      'condition 1 injects a skill: pass the skill, or use condition 0',
    );
  }
  const maxSteps = Math.min(options.maxSteps ?? env.maxSteps, env.maxSteps);
  if (!(Number.isInteger(maxSteps) && maxSteps >= 1)) {
    throw new InvalidArgumentError('maxSteps', `expected an integer >= 1, got ${maxSteps}`);
  }
  const seed = options.seed ?? 0;
  const rng = createRng(seed);
  const id = options.id ?? `${task.id}:c${condition}:i${options.index ?? 0}`;
  const invalidObservation = options.invalidActionObservation ?? defaultInvalid;
  // With tools the runner executes, the last step is the answer's: no tool call there can be followed by one.
  const executesTools = options.tools?.some((t) => typeof t.execute === 'function') ?? false;
  const toolBudget = executesTools
    ? { maxCalls: maxSteps - 1, notice: toolBudgetNotice(maxSteps - 1) }
    : undefined;
  const steps: TrajectoryStep[] = [];
  let usage: Usage | undefined;
  let error: TrajectoryError | undefined;
  let answer: string | undefined;

  const checkAbort = () => {
    if (signal?.aborted) throw signal.reason;
  };

  let observation = '';
  try {
    checkAbort();
    try {
      observation = await env.reset();
    } catch (e) {
      checkAbort();
      throw Object.assign(new Error('reset'), { rollout: errorOf('environment', e) });
    }
    for (let index = 0; index < maxSteps; index++) {
      checkAbort();
      let admissible: string[] | undefined;
      try {
        admissible = env.admissibleActions?.();
      } catch (e) {
        throw Object.assign(new Error('admissible'), { rollout: errorOf('environment', e) });
      }
      let action: AgentAction;
      const started = performance.now();
      try {
        const context: ToolBudgetContext = {
          task,
          condition,
          observation,
          history: steps,
          stepIndex: index,
          seed: rng.seedFor(index),
          episodeId: id,
        };
        if (condition === 1 && skill) context.skill = skill;
        if (admissible) context.admissibleActions = admissible;
        if (options.tools) context.tools = options.tools;
        if (signal) context.signal = signal;
        if (toolBudget && index === maxSteps - 1) context.toolBudget = toolBudget;
        action = await agent.act(context);
      } catch (e) {
        checkAbort();
        throw Object.assign(new Error('act'), { rollout: errorOf('model', e) });
      }
      if (action.end) {
        // The agent ended the episode (a program that exited or submitted): no step, verified as it stands.
        usage = addUsage(usage, action.usage);
        break;
      }
      // GiGPO's anchor state: the environment's key for the state acted from, kept when it is not the text.
      let stateKey: string | undefined;
      try {
        stateKey = env.stateKey?.(observation);
      } catch (e) {
        throw Object.assign(new Error('stateKey'), { rollout: errorOf('environment', e) });
      }
      const { latencyMs: reported, ...info } = action.info ?? {};
      const latencyMs = typeof reported === 'number' ? reported : Math.round(performance.now() - started);
      const step: TrajectoryStep = {
        index,
        observation,
        action: action.action,
        reward: 0,
        done: false,
        latencyMs,
      };
      if (typeof stateKey === 'string' && stateKey !== observation) step.stateKey = stateKey;
      if (action.invalid) step.invalid = true;
      if (action.usage) step.usage = action.usage;
      if (action.tokenIds) step.tokenIds = action.tokenIds;
      if (action.logProbs) step.logProbs = action.logProbs;
      if (action.logProb !== undefined) step.logProb = action.logProb;
      if (action.raw !== undefined && action.raw !== action.action) info.raw = action.raw;
      if (Object.keys(info).length > 0) step.info = info;
      usage = addUsage(usage, action.usage);
      steps.push(step);

      if (action.invalid) {
        observation = invalidObservation(observation, action);
        continue;
      }
      const toolName = (info.toolCall as { name?: string } | undefined)?.name;
      const tool = options.tools?.find((t) => t.name === toolName && t.execute);
      if (tool && toolBudget && index === maxSteps - 1) {
        // An agent that ignored the spent budget: its call is not run, and it is not the answer.
        step.action = '';
        step.invalid = true;
        step.info = {
          ...info,
          toolBudgetSpent: true,
          error: `a tool call (${tool.name}) after the tool budget was spent (maxCalls ${toolBudget.maxCalls}): the episode ends without an answer`,
        };
        break;
      }
      // A tool the runner executes (a file read, a search) is a look-up, not an answer: the trajectory's
      // `answer` stays the last action the environment received.
      if (!tool) answer = action.action;
      try {
        if (tool?.execute) {
          const args = (info.toolArgs ?? {}) as Record<string, unknown>;
          const result = await executeTool(
            tool,
            args,
            { task, ...(signal ? { signal } : {}) },
            info.toolCall,
          );
          checkAbort();
          if (typeof result !== 'string') {
            throw new TypeError(`tool "${tool.name}" returned ${typeof result}, expected a string`);
          }
          observation = result;
          continue;
        }
        const result = await env.step(action.action);
        step.reward = result.reward;
        step.done = result.done;
        // `step.info` is this loop's own copy of the action's info: extended in place.
        if (result.info) {
          if (step.info) step.info.env = result.info;
          else step.info = { env: result.info };
        }
        observation = result.observation;
      } catch (e) {
        checkAbort();
        throw Object.assign(new Error('step'), { rollout: errorOf(tool ? 'tool' : 'environment', e) });
      }
      if (step.done) break;
    }
  } catch (e) {
    const rollout = (e as { rollout?: TrajectoryError }).rollout;
    if (!rollout) throw e;
    error = rollout;
  } finally {
    if (agent.endEpisode) {
      try {
        const last = steps.at(-1);
        await agent.endEpisode({
          episodeId: id,
          observation,
          done: last?.done === true,
          ...(error ? { error } : {}),
        });
      } catch {
        // The agent's own cleanup never changes the trajectory.
      }
    }
    try {
      await env.close?.();
    } catch {
      // A failing close must not turn a finished episode into a lost one.
    }
  }

  const trajectory: Trajectory = {
    id,
    taskId: task.id,
    family: task.family,
    condition,
    steps,
    reward: 0,
    verdict: { score: 0, passed: false },
    seed,
    durationMs: steps.reduce((sum, s) => sum + (s.latencyMs ?? 0), 0),
  };
  if (skill && condition === 1) trajectory.skill = { name: skill.name, hash: cachedSkillHash(skill) };
  if (options.groupId !== undefined) trajectory.groupId = options.groupId;
  if (options.index !== undefined) trajectory.index = options.index;
  if (options.candidate !== undefined) trajectory.candidate = options.candidate;
  if (options.generation !== undefined) trajectory.generation = options.generation;
  if (answer !== undefined) trajectory.answer = answer;
  if (usage) trajectory.usage = usage;

  if (error) {
    trajectory.error = error;
    trajectory.verdict = failedVerdict(error);
    return trajectory;
  }
  try {
    if (signal?.aborted) throw signal.reason;
    trajectory.verdict = await verifier.verify(task, trajectory);
    trajectory.reward = trajectory.verdict.score;
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    trajectory.error = errorOf('verifier', e);
    trajectory.verdict = failedVerdict(trajectory.error);
  }
  return trajectory;
}
