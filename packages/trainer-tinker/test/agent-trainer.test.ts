import { chatTurnsOf, type Trajectory } from '@skillrl/core';
import { collectRollouts } from '@skillrl/rollout';
import { colorTasksAdapter, TINY_CHAT_MODEL, tinyChatDir } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  createTinkerAgent,
  createTinkerTrainer,
  loadChatTokenizer,
  type TinkerAgent,
  trajectoryTurns,
  turnDatum,
} from '../src/index.js';
import { closeAfter, setupAgent } from './support.js';

const adapter = colorTasksAdapter;

async function rollouts(agent: TinkerAgent, step: number, withSkill: boolean) {
  const tasks = await adapter.load({ split: 'train', limit: 6 });
  const skills = adapter.skills?.() as NonNullable<ReturnType<NonNullable<typeof adapter.skills>>>;
  const run = collectRollouts({
    tasks,
    adapter,
    agent,
    groupSize: 8,
    concurrency: 16,
    seed: step,
    ...(withSkill
      ? {
          skills: (task) =>
            (skills as { families?: string[] }[]).find((s) => s.families?.includes(task.family)) as never,
        }
      : {}),
  });
  return run.collect();
}

function groupAdvantages(runs: Trajectory[]): number[] {
  const byTask = new Map<string, number[]>();
  for (const r of runs) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r.reward]);
  return runs.map((r) => {
    const rewards = byTask.get(r.taskId) as number[];
    return r.reward - rewards.reduce((a, b) => a + b, 0) / rewards.length;
  });
}

const success = (runs: Trajectory[]) => runs.filter((r) => r.verdict.passed).length / runs.length;

describe('the tiny-chat tokenizer through @huggingface/tokenizers and @huggingface/jinja', () => {
  it('renders the chat template and tokenizes it as the model reads it', () => {
    const tokenizer = loadChatTokenizer(tinyChatDir());
    const text = tokenizer.render([
      { role: 'system', content: 'answer with one word .' },
      { role: 'user', content: 'What color is the sky?' },
    ]);
    expect(text).toBe(
      '<|im_start|>system\nanswer with one word .<|im_end|>\n<|im_start|>user\nWhat color is the sky?<|im_end|>\n<|im_start|>assistant\n',
    );
    const ids = tokenizer.encode(text);
    expect(ids.at(-1)).toBe(tokenizer.encode('assistant')[0]);
    expect(tokenizer.stopTokenIds).toEqual(tokenizer.encode('<|im_end|>'));
    expect(tokenizer.decode(tokenizer.encode('blue<|im_end|>'))).toBe('blue');
    expect(() => loadChatTokenizer('/nonexistent')).toThrow(/tokenizer\.json does not exist/);
  });
});

describe('the Tinker agent and trainer', () => {
  it('records each turn: prompt tokens (chat template), completion tokens and log-probs, the sampler', async () => {
    const { server, agent } = await setupAgent();
    createTinkerTrainer(agent, {});
    const [t] = await rollouts(agent, 0, true);
    const trajectory = t as Trajectory;
    const step = trajectory.steps[0]!;
    expect(step.tokenIds?.length).toBeGreaterThan(0);
    expect(step.logProbs).toHaveLength(step.tokenIds!.length);
    const turn = chatTurnsOf(trajectory.steps)[0]!;
    const tokenizer = loadChatTokenizer(tinyChatDir());
    expect(turn.promptTokenIds).toEqual(tokenizer.promptTokens(turn.messages as never));
    expect(turn.messages[0]?.content).toContain('When asked about the');
    expect(step.info?.tinker).toMatchObject({
      sampler: expect.stringMatching(/^tinker:\/\/.+\/sampler_weights\/skillrl-000000$/),
    });
    const [sampled] = trajectoryTurns(trajectory);
    const datum = turnDatum(sampled!, 0.5);
    const n = sampled!.promptTokens.length + sampled!.completionTokens.length - 1;
    expect(datum.model_input.chunks[0]?.tokens).toHaveLength(n);
    expect(datum.loss_fn_inputs.target_tokens?.data.slice(-sampled!.completionTokens.length)).toEqual(
      sampled!.completionTokens,
    );
    expect(datum.loss_fn_inputs.advantages?.data.filter((a) => a !== 0)).toHaveLength(
      sampled!.completionTokens.length,
    );
    expect(server.trainingRuns()).toHaveLength(1);
  });

  it('learns on-policy: success without the skill rises with one update per step', async () => {
    const { server, agent } = await setupAgent();
    const trainer = createTinkerTrainer(agent, { learningRate: 0.3, loss: 'importance_sampling' });
    const before = success(await rollouts(agent, 100, false));
    const samplers: string[] = [];
    for (let step = 1; step <= 6; step++) {
      const runs = await rollouts(agent, step, false);
      samplers.push(
        String(
          runs[0]?.steps[0]?.info?.tinker && (runs[0].steps[0].info.tinker as { sampler: string }).sampler,
        ),
      );
      const metrics = await trainer.update({ trajectories: runs, advantages: groupAdvantages(runs) });
      expect(metrics.update).toBe(step);
      // Strictly on-policy: the learner's log-probs are the sampler's.
      expect(Math.abs(metrics.sampler_kl ?? 1)).toBeLessThan(1e-6);
    }
    const after = success(await rollouts(agent, 100, false));
    expect(before).toBeLessThan(0.3);
    expect(after).toBeGreaterThan(before + 0.4);
    // Each step sampled from the weights of the update before it.
    expect(samplers.map((s) => s.split('/').at(-1))).toEqual(
      [0, 1, 2, 3, 4, 5].map((u) => `skillrl-${String(u).padStart(6, '0')}`),
    );
    expect(server.trainingRuns()[0]?.updates).toHaveLength(6);
  });

  it('resumes from its state in a new training run, and the next update is the one an uninterrupted run takes', async () => {
    const { server, agent } = await setupAgent();
    const trainer = createTinkerTrainer(agent, { learningRate: 0.05 });
    const steps = [await rollouts(agent, 1, true)];
    await trainer.update({ trajectories: steps[0]!, advantages: groupAdvantages(steps[0]!) });
    const saved = JSON.parse(JSON.stringify(agent.toJSON()));
    expect(saved).toMatchObject({
      format: 'skillrl.tinker-policy',
      updates: 1,
      statePath: expect.stringContaining('/weights/skillrl-000001'),
    });
    const second = await rollouts(agent, 2, true);
    await trainer.update({ trajectories: second, advantages: groupAdvantages(second) });
    const uninterrupted = server.trainingRuns()[0]!.lineage;

    // A process that restarts from the first checkpoint (against the same service, which holds the first
    // process's checkpoints): the same rollouts, the same second update.
    const reattached = createTinkerAgent({
      baseURL: server.url,
      baseModel: TINY_CHAT_MODEL,
      tokenizer: tinyChatDir(),
      loraRank: 8,
      seed: 5,
      maxTokens: 6,
      futures: { pollIntervalMs: 1 },
    });
    closeAfter(reattached);
    reattached.restore(saved);
    const resumedTrainer = createTinkerTrainer(reattached, { learningRate: 0.05 });
    resumedTrainer.restore({ format: 'skillrl.tinker-trainer', updates: 1 });
    const again = await rollouts(reattached, 2, true);
    expect(again.map((r) => r.steps[0]?.tokenIds)).toEqual(second.map((r) => r.steps[0]?.tokenIds));
    await resumedTrainer.update({ trajectories: again, advantages: groupAdvantages(again) });
    const runs = server.trainingRuns();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.loads[0]).toEqual({ path: saved.statePath, optimizer: true });
    expect(runs[1]!.lineage).toEqual(uninterrupted);
    expect(reattached.toJSON().trainingRuns).toEqual([runs[0]!.id, runs[1]!.id]);
    expect(() => resumedTrainer.restore({ format: 'skillrl.tinker-trainer', updates: 7 })).toThrow(
      /update 7/,
    );
  });

  it('refuses what it cannot train', async () => {
    const { agent } = await setupAgent();
    expect(() => createTinkerTrainer({ act: async () => ({ action: 'x' }) })).toThrow(/agent: tinker/);
    const trainer = createTinkerTrainer(agent);
    const foreign = {
      id: 't',
      taskId: 'x',
      family: 'sky',
      condition: 0,
      steps: [
        {
          index: 0,
          observation: 'o',
          action: 'blue',
          reward: 1,
          done: true,
          info: { chat: { keep: 0, append: [], reply: { role: 'assistant', content: 'blue' } } },
        },
      ],
      reward: 1,
      verdict: { score: 1, passed: true },
    } as unknown as Trajectory;
    await expect(trainer.update({ trajectories: [foreign], advantages: [1] })).rejects.toThrow(
      /trajectories\["t"\]\.steps\[0\]/,
    );
    expect(() => createTinkerTrainer(agent, { loss: 'cross_entropy' as never })).toThrow(/options\.loss/);
    expect(() => createTinkerTrainer(agent, { learningRate: -1 })).toThrow(/learningRate/);
    expect(() =>
      agent.restore({ format: 'skillrl.tinker-policy', version: 1, baseModel: 'other', loraRank: 8 }),
    ).toThrow(/other/);
  });
});
