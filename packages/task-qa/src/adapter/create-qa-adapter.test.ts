import { parseSkill, type Task } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import qaAdapter from '../index.js';
import { createQaAdapter, qaSkillFiles } from './create-qa-adapter.js';

async function answer(task: Task, action: string) {
  const env = await qaAdapter.createEnvironment(task);
  expect(await env.reset()).toBe(task.prompt);
  return env.step(action);
}

describe('the default qa adapter', () => {
  it('declares its families and splits', () => {
    expect(qaAdapter.name).toBe('qa');
    expect(qaAdapter.families).toEqual(['arithmetic', 'countdown', 'game24', 'knights']);
    expect(qaAdapter.splits).toEqual(['train', 'valid_seen', 'valid_unseen']);
  });

  it('is a pure function of split, limit and seed; a smaller limit is a prefix', async () => {
    const a = await qaAdapter.load({ split: 'train', limit: 12, seed: 7 });
    const b = await qaAdapter.load({ split: 'train', limit: 12, seed: 7 });
    const c = await qaAdapter.load({ split: 'train', limit: 5, seed: 7 });
    const d = await qaAdapter.load({ split: 'train', limit: 12, seed: 8 });
    expect(b).toEqual(a);
    expect(c).toEqual(a.slice(0, 5));
    expect(d.map((t) => t.prompt)).not.toEqual(a.map((t) => t.prompt));
    expect(a.map((t) => t.family).slice(0, 4)).toEqual(['arithmetic', 'countdown', 'game24', 'knights']);
    expect(new Set(a.map((t) => t.id)).size).toBe(12);
  });

  it('keeps train and valid_seen disjoint, and valid_unseen in its own ranges', async () => {
    const train = await qaAdapter.load({ split: 'train', limit: 400 });
    const seen = await qaAdapter.load({ split: 'valid_seen', limit: 100 });
    const unseen = await qaAdapter.load({ split: 'valid_unseen', limit: 40 });
    const trainKeys = new Set(train.map((t) => `${t.family}|${t.metadata?.key}`));
    for (const t of seen) expect(trainKeys.has(`${t.family}|${t.metadata?.key}`)).toBe(false);
    for (const t of [...train, ...seen]) expect(t.metadata?.profile).toBe('seen');
    for (const t of unseen) {
      expect(t.metadata?.profile).toBe('unseen');
      const numbers = (t.metadata?.numbers ?? []) as number[];
      if (t.family === 'countdown') expect(numbers.length).toBe(5);
      if (t.family === 'game24') expect(numbers.some((n) => n >= 10)).toBe(true);
    }
  });

  it('rewards the stored answer with 1 on every family and split, and a wrong one with 0', async () => {
    for (const split of ['train', 'valid_seen', 'valid_unseen']) {
      for (const task of await qaAdapter.load({ split, limit: 40, seed: 3 })) {
        const right = await answer(task, `FINAL ANSWER: ${String(task.answer)}`);
        expect(right.reward, `${task.id}: ${String(task.answer)}`).toBe(1);
        expect(right.done).toBe(true);
        const wrong = await answer(task, 'FINAL ANSWER: 1 + 1');
        expect(wrong.reward).toBe(0);
        const verdict = (wrong.info?.verdict ?? {}) as { reason?: string };
        expect(verdict.reason).toBeTruthy();
      }
    }
  });

  it('is one step: a second step earns nothing until reset', async () => {
    const [task] = await qaAdapter.load({ split: 'train', limit: 1 });
    const env = await qaAdapter.createEnvironment(task as Task);
    expect(env.maxSteps).toBe(1);
    await env.reset();
    expect((await env.step(`FINAL ANSWER: ${String(task?.answer)}`)).reward).toBe(1);
    expect(await env.step(`FINAL ANSWER: ${String(task?.answer)}`)).toMatchObject({ reward: 0, done: true });
    await env.reset();
    expect((await env.step(`FINAL ANSWER: ${String(task?.answer)}`)).reward).toBe(1);
  });

  it('has a valid starting SKILL.md and step phrases per family', async () => {
    const files = qaSkillFiles();
    const skills = await qaAdapter.skills?.();
    expect(skills?.map((s) => s.families)).toEqual([['arithmetic'], ['countdown'], ['game24'], ['knights']]);
    for (const skill of skills ?? []) expect(parseSkill(files[skill.name] as string)).toEqual(skill);
    const vocabulary = qaAdapter.stepVocabulary?.() ?? {};
    expect(Object.keys(vocabulary)).toEqual([...qaAdapter.families]);
    for (const steps of Object.values(vocabulary)) expect(steps.length).toBeGreaterThanOrEqual(5);
  });

  it('rejects unknown splits, bad limits and unknown families, naming the option', () => {
    expect(() => qaAdapter.load({ split: 'test' })).toThrow(
      /options\.split.*train, valid_seen, valid_unseen/,
    );
    expect(() => qaAdapter.load({ split: 'train', limit: -1 })).toThrow(/options\.limit/);
    expect(() => createQaAdapter({ families: ['chess'] })).toThrow(/options\.families.*"chess"/);
    expect(createQaAdapter({ families: ['knights'] }).families).toEqual(['knights']);
  });
});
