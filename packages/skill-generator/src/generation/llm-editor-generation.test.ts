import { createRng, type Skill, type SkillCandidate, type Task, type Trajectory } from '@skillrl/core';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmSkillEditor } from '../llm-editor/create-llm-skill-editor.js';
import type { SkillR1ProposalAttempt } from './propose-candidates.js';
import { createSkillR1State, runSkillR1Generation, type SkillR1Ports } from './skill-r1-generation.js';

// The generation step with the real LLM editor, against a real local HTTP server speaking the OpenAI API.

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const tasks: Task[] = Array.from({ length: 6 }, (_, i) => ({
  id: `q${i}`,
  family: 'qa',
  split: 'train',
  prompt: `Question number ${i}?`,
}));
const taskOf = (request: FakeChatRequest) => {
  const text = (request.messages ?? []).map((m) => String(m.content ?? '')).join('\n');
  return tasks.find((t) => text.includes(t.prompt)) as Task;
};
const skillReply = (name: string) =>
  `\`\`\`markdown\n---\nname: ${name}\ndescription: Answer the question. Use for every question.\n---\n\n1. Answer.\n\`\`\`\n`;

/** Episodes scored by the skill's name: `good-*` passes. */
async function runEpisodes(request: Parameters<SkillR1Ports['runEpisodes']>[0]): Promise<Trajectory[]> {
  return request.tasks.flatMap((t) => {
    const found = request.skills(t);
    const list: (Skill | undefined)[] =
      found === undefined ? [undefined] : Array.isArray(found) ? found : [found];
    return list.flatMap((s, k) =>
      Array.from({ length: request.groupSize }, (_, i) => {
        const reward = s?.name.startsWith('good') ? 1 : 0;
        return {
          id: `${t.id}:k${k}:i${i}`,
          taskId: t.id,
          family: t.family,
          condition: s ? (1 as const) : (0 as const),
          ...(Array.isArray(found) ? { candidate: k } : {}),
          generation: request.generation,
          steps: [],
          reward,
          verdict: { score: reward, passed: reward === 1 },
        };
      }),
    );
  });
}

const estimate: SkillR1Ports['estimate'] = (batch) => ({
  advantages: Float64Array.from(batch.scores, () => 0),
  metrics: {},
});

describe('runSkillR1Generation with the LLM editor over HTTP', () => {
  it('an editor that ignores the format is told why and retried; past the retries the task runs skill-free', async () => {
    const server = await startFakeOpenAI({
      latencyMs: 5,
      respond: (request) => {
        const task = taskOf(request);
        const prompt = String(request.messages?.[1]?.content ?? '');
        // q0 never writes a SKILL.md; the others do once they are told what was wrong.
        if (task.id === 'q0' || !prompt.includes('What was wrong'))
          return 'Sure! Be careful and answer well.';
        return skillReply(`good-${task.id}`);
      },
    });
    servers.push(server);
    const editor = createLlmSkillEditor({
      model: { model: 'editor', baseURL: server.baseURL },
      maxRepairs: 0,
    });
    const stored = new Map<string, SkillCandidate[]>();
    const failed: [string, SkillR1ProposalAttempt][] = [];
    const r = await runSkillR1Generation(
      {
        generation: 1,
        tasks,
        state: createSkillR1State(tasks),
        candidates: 1,
        episodes: 1,
        lambda: 1,
        interGeneration: true,
        carry: 'best',
        train: false,
        rng: createRng(3),
        unit: 'g1',
        proposalRetries: 1,
      },
      {
        propose: (context, n) => editor.propose(context, n),
        runEpisodes,
        estimate,
        onAttempt: (taskId, attempt) => {
          failed.push([taskId, attempt]);
        },
        onCandidates: (taskId, candidates) => {
          stored.set(taskId, candidates);
        },
      },
    );
    expect(r.tasks.map((t) => t.skill?.name ?? t.fallback)).toEqual([
      'no-skill',
      'good-q1',
      'good-q2',
      'good-q3',
      'good-q4',
      'good-q5',
    ]);
    expect(r.proposals).toEqual({
      tasks: 6,
      editorCalls: 12,
      failedCalls: 0,
      rejectedProposals: 7,
      fallbacks: 1,
      reusedTasks: 0,
      reusedCalls: 0,
    });
    // Every first call failed and was stored with its reason before the retry.
    expect(failed.map(([t, a]) => [t, a.attempt])).toEqual(
      expect.arrayContaining(tasks.map((t) => [t.id, 0])),
    );
    expect(failed.find(([t, a]) => t === 'q0' && a.attempt === 1)?.[1].rejections[0]).toMatchObject({
      kind: 'reply',
      reason: expect.stringContaining('no SKILL.md in the reply'),
      excerpt: 'Sure! Be careful and answer well.',
    });
    expect(stored.get('q0')).toEqual([]);
    expect(server.stats().received).toBe(12);
  });

  it('proposes for all tasks concurrently: six 200 ms calls take about one round, not six', async () => {
    const server = await startFakeOpenAI({
      latencyMs: 200,
      respond: (request) => skillReply(`good-${taskOf(request).id}`),
    });
    servers.push(server);
    const editor = createLlmSkillEditor({ model: { model: 'editor', baseURL: server.baseURL } });
    const input = {
      generation: 1,
      tasks,
      state: createSkillR1State(tasks),
      candidates: 1,
      episodes: 1,
      lambda: 1,
      interGeneration: true,
      carry: 'best' as const,
      train: false,
      rng: createRng(3),
      unit: 'g1',
    };
    const ports = { propose: editor.propose.bind(editor), runEpisodes, estimate };
    const t0 = performance.now();
    const parallel = await runSkillR1Generation({ ...input, proposalConcurrency: 6 }, ports);
    const parallelMs = performance.now() - t0;
    const t1 = performance.now();
    const serial = await runSkillR1Generation({ ...input, proposalConcurrency: 1 }, ports);
    const serialMs = performance.now() - t1;
    // Six 200 ms calls one after another cannot take less than 1.2 s; all at once they take about one round.
    // Compared with each other, not with a wall-clock bound: a loaded machine slows both alike.
    expect(serialMs).toBeGreaterThan(6 * 200);
    expect(parallelMs * 2).toBeLessThan(serialMs);
    // The same candidates either way, in task order.
    expect(parallel.tasks.map((t) => t.skill?.name)).toEqual(serial.tasks.map((t) => t.skill?.name));
    const seeds = server.requests.map((q) => (q.body as FakeChatRequest).seed);
    expect(new Set(seeds.slice(0, 6))).toEqual(new Set(seeds.slice(6)));
  });
});
