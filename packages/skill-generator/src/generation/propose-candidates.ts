import type {
  GenerationRecord,
  RejectedProposal,
  RejectedReplyTokens,
  Rng,
  Skill,
  SkillCandidate,
  SkillGenerationContext,
  Task,
} from '@skillrl/core';
import { formatSkill, validateSkill } from '@skillrl/core';
import { mapConcurrent } from './map-concurrent.js';

/** One editor call for one task: what it asked for, what came back, and what was rejected and why. */
export interface SkillR1ProposalAttempt {
  /** 0 for the first call, then one per retry. */
  attempt: number;
  /** The context's seed: `rng.fork(unit).seedFor(task)` first, `rng.fork(unit).fork(task).seedFor('retry/<a>')` after. */
  seed: number;
  /** Candidates asked for (K). */
  requested: number;
  /** Valid candidates it gave. */
  accepted: number;
  /** The call threw (after the editor's own retries): its message. A failed editor call. */
  error?: string;
  /** Every proposal of the call that was not used, with why (`kind` and `attempt` always set). */
  rejections: RejectedProposal[];
}

/**
 * What a task ran with when its editor gave no valid candidate in any attempt: the skill it carried
 * (`current-skill`), or — with none yet, as under `initialSkill: none` — no skill at all (`no-skill`: its
 * episodes run without one this generation).
 */
export type SkillR1Fallback = 'current-skill' | 'no-skill';

/** What proposing took for one task in one generation. Plain JSON: it is stored with the candidates. */
export interface SkillR1Proposal {
  /** The candidates the generation evaluates; `[]` for the `no-skill` fallback. */
  candidates: SkillCandidate[];
  /** Every editor call, in order (empty when candidates were re-read from an older run directory). */
  attempts: SkillR1ProposalAttempt[];
  fallback?: SkillR1Fallback;
}

/**
 * A task's rejected replies that carry their sampled tokens, in attempt order: what a trained editor credits
 * in the generation's update (`SkillUpdateContext.rejected`).
 */
export function rejectedReplies(proposal: Pick<SkillR1Proposal, 'attempts'>): RejectedProposal[] {
  return proposal.attempts.flatMap((a) => a.rejections.filter((r) => r.reply !== undefined));
}

/** Counts over a generation's proposals: what a run's error budget reads. */
export interface SkillR1ProposalStats {
  /** Tasks proposed for (stored ones included). */
  tasks: number;
  /** Editor calls (`propose`), stored ones included. */
  editorCalls: number;
  /** Calls that threw. */
  failedCalls: number;
  /** Proposals rejected: replies without a SKILL.md, skills failing `validateSkill`, calls returning nothing. */
  rejectedProposals: number;
  /** Tasks that fell back (current skill or no skill). */
  fallbacks: number;
  /** Tasks whose candidates were re-read from the store rather than proposed now (a resumed generation). */
  reusedTasks: number;
  /** Editor calls re-read from the store (stored candidates' and failed attempts'): not sent again. */
  reusedCalls: number;
}

/** The parts of the generation's input and ports proposing needs. */
export interface ProposeInput {
  generation: number;
  tasks: readonly Task[];
  candidates: number;
  rng: Rng;
  unit: string;
  retries: number;
  concurrency: number;
  editorName: string;
  signal?: AbortSignal;
  state: (taskId: string) => { history: GenerationRecord[]; current?: Skill };
}

export interface ProposePorts {
  propose(context: SkillGenerationContext, n: number): Promise<SkillCandidate[]>;
  storedProposal?(taskId: string): SkillR1Proposal | undefined;
  storedCandidates?(taskId: string): SkillCandidate[] | undefined;
  storedAttempts?(taskId: string): readonly SkillR1ProposalAttempt[] | undefined;
  onAttempt?(taskId: string, attempt: SkillR1ProposalAttempt): void | Promise<void>;
  onCandidates?(
    taskId: string,
    candidates: SkillCandidate[],
    proposal: SkillR1Proposal,
  ): void | Promise<void>;
  onProposed?(progress: { taskId: string; done: number; total: number; stats: SkillR1ProposalStats }): void;
}

export interface ProposedTask {
  proposal: SkillR1Proposal;
  /** Re-read from the store, not proposed now. */
  reused: boolean;
  /** Calls of it re-read from the store. */
  reusedCalls: number;
}

const EXCERPT = 300;
const cut = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A candidate the loop can run: its skill passes `validateSkill`. Otherwise why not. */
function rejectionOf(candidate: SkillCandidate | undefined, attempt: number): RejectedProposal | undefined {
  if (
    !candidate ||
    typeof candidate !== 'object' ||
    !candidate.skill ||
    typeof candidate.skill !== 'object'
  ) {
    return { kind: 'invalid', reason: 'the candidate has no skill', attempt };
  }
  const check = validateSkill(candidate.skill);
  if (check.ok) return undefined;
  const prompt = (candidate.info as { prompt?: unknown } | undefined)?.prompt;
  const reply = replyTokens({ tokenIds: candidate.tokenIds, logProbs: candidate.logProbs, prompt });
  return {
    kind: 'invalid',
    reason: check.problems.map((p) => `[${p.rule}] ${p.field}: ${p.message}`).join('; '),
    excerpt: cut(
      typeof candidate.text === 'string' && candidate.text ? candidate.text : String(candidate.skill.name),
    ),
    attempt,
    ...(reply ? { reply } : {}),
  };
}

/** A rejected reply's sampled tokens when they are whole (ids and log-probs of one length, and a prompt). */
function replyTokens(value: unknown): RejectedReplyTokens | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { tokenIds, logProbs, prompt } = value as Record<string, unknown>;
  if (!Array.isArray(tokenIds) || !Array.isArray(logProbs) || !Array.isArray(prompt)) return undefined;
  if (tokenIds.length === 0 || tokenIds.length !== logProbs.length) return undefined;
  return {
    tokenIds: tokenIds.map(Number),
    logProbs: logProbs.map(Number),
    prompt: prompt as RejectedReplyTokens['prompt'],
  };
}

/** A stored proposal as the step uses it; records of older run directories hold the candidates alone. */
function fromStore(ports: ProposePorts, taskId: string): SkillR1Proposal | undefined {
  const stored = ports.storedProposal?.(taskId);
  if (stored) return stored;
  const candidates = ports.storedCandidates?.(taskId);
  if (!candidates) return undefined;
  const fallback =
    candidates.length === 0 ? 'no-skill' : candidates[0]?.info?.fallback ? 'current-skill' : undefined;
  return { candidates, attempts: [], ...(fallback ? { fallback } : {}) };
}

/** The stored failed attempts 0, 1, … (a gap ends them: later ones are asked for again). */
function storedFailures(ports: ProposePorts, taskId: string): SkillR1ProposalAttempt[] {
  const stored = [...(ports.storedAttempts?.(taskId) ?? [])].sort((a, b) => a.attempt - b.attempt);
  const out: SkillR1ProposalAttempt[] = [];
  for (const a of stored) {
    if (a.attempt !== out.length || a.accepted > 0) break;
    out.push(a);
  }
  return out;
}

/**
 * One task's candidates: up to `1 + retries` editor calls, each retry told what was wrong with the earlier
 * proposals (`context.rejections`), stopping at the first call that gives a valid candidate; past them the
 * task falls back. Failed attempts go to `onAttempt` as they finish, so a resumed run continues after them.
 */
async function proposeTask(
  input: ProposeInput,
  task: Task,
  ports: ProposePorts,
): Promise<{ proposal: SkillR1Proposal; reusedCalls: number }> {
  const ts = input.state(task.id);
  const attempts = storedFailures(ports, task.id);
  const reusedCalls = attempts.length;
  while (attempts.length <= input.retries) {
    const attempt = attempts.length;
    const earlier = attempts.flatMap((a) => a.rejections);
    const seed =
      attempt === 0
        ? input.rng.fork(input.unit).seedFor(task.id)
        : input.rng.fork(input.unit).fork(task.id).seedFor(`retry/${attempt}`);
    const rejections: RejectedProposal[] = [];
    let returned: SkillCandidate[] = [];
    let error: string | undefined;
    try {
      const out = await ports.propose(
        {
          task,
          generation: input.generation,
          history: ts.history,
          seed,
          ...(ts.current ? { currentSkill: ts.current } : {}),
          ...(input.signal ? { signal: input.signal } : {}),
          ...(attempt > 0 ? { attempt, rejections: earlier } : {}),
          onReject: (r) => {
            const reply = replyTokens(r.reply);
            rejections.push({
              kind: r.kind ?? 'reply',
              reason: String(r.reason),
              ...(r.excerpt !== undefined ? { excerpt: cut(String(r.excerpt)) } : {}),
              attempt,
              ...(reply ? { reply } : {}),
            });
          },
        },
        input.candidates,
      );
      returned = Array.isArray(out) ? out : [];
    } catch (e) {
      // A cancelled run stops; anything else is a failed call, counted and retried like a bad reply.
      if (input.signal?.aborted) throw e;
      error = messageOf(e);
    }
    const valid: SkillCandidate[] = [];
    for (const candidate of returned) {
      const rejected = rejectionOf(candidate, attempt);
      if (rejected) rejections.push(rejected);
      else valid.push(candidate);
    }
    if (error === undefined && valid.length === 0 && rejections.length === 0) {
      rejections.push({ kind: 'empty', reason: `${input.editorName} returned no candidate`, attempt });
    }
    const record: SkillR1ProposalAttempt = {
      attempt,
      seed,
      requested: input.candidates,
      accepted: valid.length,
      ...(error !== undefined ? { error } : {}),
      rejections,
    };
    attempts.push(record);
    if (valid.length > 0) return { proposal: { candidates: valid, attempts }, reusedCalls };
    await ports.onAttempt?.(task.id, record);
  }
  const reason = `no valid candidate in ${attempts.length} editor call${attempts.length === 1 ? '' : 's'}`;
  if (ts.current) {
    const candidate: SkillCandidate = {
      skill: ts.current,
      text: formatSkill(ts.current),
      info: { fallback: 'current-skill', reason },
    };
    return { proposal: { candidates: [candidate], attempts, fallback: 'current-skill' }, reusedCalls };
  }
  return { proposal: { candidates: [], attempts, fallback: 'no-skill' }, reusedCalls };
}

function emptyStats(): SkillR1ProposalStats {
  return {
    tasks: 0,
    editorCalls: 0,
    failedCalls: 0,
    rejectedProposals: 0,
    fallbacks: 0,
    reusedTasks: 0,
    reusedCalls: 0,
  };
}

/** Adds one task's proposal to the counts. */
export function countProposal(stats: SkillR1ProposalStats, task: ProposedTask): void {
  const { proposal } = task;
  stats.tasks++;
  stats.editorCalls += proposal.attempts.length;
  stats.failedCalls += proposal.attempts.filter((a) => a.error !== undefined).length;
  stats.rejectedProposals += proposal.attempts.reduce((n, a) => n + a.rejections.length, 0);
  if (proposal.fallback) stats.fallbacks++;
  if (task.reused) stats.reusedTasks++;
  stats.reusedCalls += task.reusedCalls;
}

/**
 * The candidates of every task of a generation: stored ones re-read, the others proposed concurrently
 * (`concurrency` calls in flight, started in task order), each handed to `onCandidates` as soon as it is
 * complete. Results are in task order and each task's seeds are its own, so the order calls finish in
 * changes nothing.
 */
export async function proposeCandidates(
  input: ProposeInput,
  ports: ProposePorts,
): Promise<{ byTask: Map<string, ProposedTask>; stats: SkillR1ProposalStats }> {
  const byTask = new Map<string, ProposedTask>();
  const stats = emptyStats();
  const total = input.tasks.length;
  const progress = (taskId: string, done: ProposedTask) => {
    byTask.set(taskId, done);
    countProposal(stats, done);
    ports.onProposed?.({ taskId, done: byTask.size, total, stats: { ...stats } });
  };
  const fresh: Task[] = [];
  for (const task of input.tasks) {
    const stored = fromStore(ports, task.id);
    if (stored) progress(task.id, { proposal: stored, reused: true, reusedCalls: stored.attempts.length });
    else fresh.push(task);
  }
  await mapConcurrent(fresh, input.concurrency, async (task) => {
    input.signal?.throwIfAborted();
    const { proposal, reusedCalls } = await proposeTask(input, task, ports);
    // Handed over before any rollout: a resumed generation evaluates the very same candidates.
    await ports.onCandidates?.(task.id, proposal.candidates, proposal);
    progress(task.id, { proposal, reused: false, reusedCalls });
  });
  // Map insertion follows completion; callers read by task id, in task order.
  return { byTask, stats };
}
