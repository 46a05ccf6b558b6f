import {
  createRng,
  type GenerationRecord,
  type RejectedProposal,
  type Skill,
  type SkillGenerationContext,
  type Task,
  validateSkill,
} from '@skillrl/core';
import { createOpenAIChatModel } from '@skillrl/rollout';
import { type FakeChatRequest, type FakeOpenAIServer, fakeTokenize, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmSkillEditor, type RejectedReply, renderRejections } from './create-llm-skill-editor.js';

const servers: FakeOpenAIServer[] = [];
async function serve(options: Parameters<typeof startFakeOpenAI>[0]) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const task: Task = {
  id: 'kitchen-7',
  family: 'pick_heat_then_place_in_recep',
  split: 'train',
  prompt: 'Put a hot mug in the cabinet.',
};
const current: Skill = {
  name: 'heat-then-place',
  description: 'Heat an object, then place it. Use for heat tasks.',
  body: '1. Find the mug.\n2. Put it in the cabinet.\n',
  families: ['pick_heat_then_place_in_recep'],
};
const history: GenerationRecord[] = [
  {
    generation: 1,
    skill: current,
    reward: 0.25,
    failures: [
      {
        trajectoryId: 'r-3',
        reward: 0,
        passed: false,
        failingStep: 2,
        lastObservation: 'The mug is cold.',
        reason: 'object not heated',
      },
    ],
    successes: [{ trajectoryId: 'r-1', reward: 1, passed: true, lastObservation: 'You put the hot mug.' }],
  },
];
const context = (extra: Partial<SkillGenerationContext> = {}): SkillGenerationContext => ({
  task,
  generation: 2,
  currentSkill: current,
  history,
  seed: 42,
  ...extra,
});

const GOOD =
  '---\nname: heat-mug-first\ndescription: Heat the mug in the microwave before placing it.\n---\n1. Take the mug.\n2. Heat it with microwave 1.\n3. Put it in the cabinet.\n';
const FENCED = `Here is my revision. I added a heating check.\n\n\`\`\`markdown\n${GOOD.replace('heat-mug-first', 'check-heat')}\`\`\`\n\nLet me know!`;
const BAD_NAME = GOOD.replace('heat-mug-first', 'Heat_Mug First');
const GARBAGE = 'I am not sure what you want me to do here.';

const bodies = (server: FakeOpenAIServer) => server.requests.map((r) => r.body as FakeChatRequest);
/** One request at a time, so the fake server's script is served in choice order. */
const serial = (server: FakeOpenAIServer) =>
  createOpenAIChatModel({ model: 'editor', baseURL: server.baseURL, concurrency: 1 });

describe('createLlmSkillEditor', () => {
  it('prompts with the task, the current skill and the history, and returns a valid skill', async () => {
    const server = await serve({ script: [GOOD] });
    const editor = createLlmSkillEditor({ model: serial(server) });
    const [candidate, ...rest] = await editor.propose(context(), 1);
    expect(rest).toEqual([]);
    expect(candidate?.skill).toEqual({
      name: 'heat-mug-first',
      description: 'Heat the mug in the microwave before placing it.',
      body: '1. Take the mug.\n2. Heat it with microwave 1.\n3. Put it in the cabinet.\n',
      // Not in the reply: inherited from the skill it revises.
      families: ['pick_heat_then_place_in_recep'],
    });
    expect(candidate?.repaired).toBeUndefined();
    expect(candidate?.text).toBe(GOOD);
    expect(candidate?.info).toMatchObject({ raw: GOOD, extractedFrom: 'raw', repairs: [], round: 0 });
    expect(editor.name).toBe('llm-editor:editor');

    const [request] = bodies(server);
    const [system, user] = request?.messages ?? [];
    expect(system?.role).toBe('system');
    const prompt = String(user?.content);
    expect(prompt).toContain('Family: pick_heat_then_place_in_recep');
    expect(prompt).toContain('Task: Put a hot mug in the cabinet.');
    expect(prompt).toContain('```markdown\n---\nname: heat-then-place\n');
    expect(prompt).toContain('Reward of the carried skill: g1 0.25');
    expect(prompt).toContain(
      'first failing step 2; verifier: "object not heated"; last observation: "The mug is cold."',
    );
    expect(prompt).toContain('### Successful episodes (1 of 2)');
    expect(prompt).toContain('## Your revision (generation 2)');
    expect(candidate?.info?.prompt).toEqual(request?.messages);
    expect(request).toMatchObject({ temperature: 1, max_tokens: 2048, model: 'editor' });
  });

  it('extracts, repairs or rejects each of n replies, and says why', async () => {
    const server = await serve({ script: [GOOD, FENCED, BAD_NAME, GARBAGE] });
    const seen: RejectedReply[] = [];
    const editor = createLlmSkillEditor({
      model: serial(server),
      maxRepairs: 0,
      onReject: (r) => seen.push(r),
    });
    const candidates = await editor.propose(context(), 4);
    expect(candidates.map((c) => c.skill.name)).toEqual(['heat-mug-first', 'check-heat', 'heat-mug-first']);
    for (const c of candidates) expect(validateSkill(c.skill).ok).toBe(true);
    expect(candidates[1]?.info).toMatchObject({ extractedFrom: 'fence', repairs: [] });
    expect(candidates[1]?.text).toBe(FENCED);
    expect(candidates[2]?.repaired).toBe('name: "Heat_Mug First" → "heat-mug-first"');
    expect(seen).toEqual([
      {
        round: 0,
        reason: 'no SKILL.md in the reply (expected a ```markdown block or `---` frontmatter)',
        excerpt: GARBAGE,
      },
    ]);
    for (const c of candidates) expect(c.info?.rejected).toEqual(seen);
    // One call for n = 4: the fake server ignores n, so the chat model asked for the other three one by one.
    expect(bodies(server).map((b) => b.n)).toEqual([4, undefined, undefined, undefined]);
  });

  it('asks again for the missing candidates only, up to maxRepairs rounds', async () => {
    const server = await serve({ script: [GOOD, GARBAGE, GARBAGE, FENCED] });
    const editor = createLlmSkillEditor({ model: serial(server), maxRepairs: 2 });
    const candidates = await editor.propose(context(), 2);
    expect(candidates.map((c) => c.info?.round)).toEqual([0, 2]);
    expect(candidates.map((c) => c.skill.name)).toEqual(['heat-mug-first', 'check-heat']);
    // Round 0 asked for 2 (one request with n = 2, one fallback), rounds 1 and 2 for the one missing.
    expect(bodies(server).map((b) => b.n)).toEqual([2, undefined, undefined, undefined]);
    expect(((candidates[0]?.info?.rejected ?? []) as RejectedReply[]).map((r) => r.round)).toEqual([0, 1]);
  });

  it('returns fewer than n when every round fails, never an invalid skill', async () => {
    const server = await serve({ script: [GARBAGE, '---\nname: [broken\n---\nbody\n'] });
    const seen: RejectedReply[] = [];
    const editor = createLlmSkillEditor({
      model: serial(server),
      maxRepairs: 1,
      onReject: (r) => seen.push(r),
    });
    expect(await editor.propose(context(), 2)).toEqual([]);
    expect(seen.map((r) => r.round)).toEqual([0, 0, 1, 1]);
    expect(seen[1]?.reason).toMatch(/not valid YAML/);
    expect(server.stats().received).toBe(4);
  });

  it('keeps token ids and log-probs for training export', async () => {
    const server = await serve({ script: [FENCED] });
    const editor = createLlmSkillEditor({ model: serial(server), logprobs: true });
    const [candidate] = await editor.propose(context(), 1);
    // The fake server tokenises the whole reply, chatter included: the tokens cover `text`, not just the skill.
    const tokens = fakeTokenize(FENCED).length;
    expect(candidate?.tokenIds).toHaveLength(tokens);
    expect(candidate?.logProbs).toHaveLength(tokens);
    const sum = (candidate?.logProbs ?? []).reduce((a, b) => a + b, 0);
    expect(candidate?.logProb).toBeCloseTo(sum, 12);
    expect(bodies(server)[0]?.logprobs).toBe(true);
  });

  it('a rejected reply is reported with its sampled tokens and the prompt it answered (a trained editor credits it)', async () => {
    const server = await serve({ script: [GARBAGE, FENCED] });
    const reported: RejectedProposal[] = [];
    const editor = createLlmSkillEditor({ model: serial(server), logprobs: true, maxRepairs: 1 });
    const [candidate] = await editor.propose(context({ onReject: (r) => reported.push(r) }), 1);
    expect(candidate).toBeDefined();
    expect(reported).toHaveLength(1);
    const reply = reported[0]?.reply;
    expect(reply?.tokenIds).toHaveLength(fakeTokenize(GARBAGE).length);
    expect(reply?.logProbs).toHaveLength(reply?.tokenIds.length ?? -1);
    // The prompt of round 0, which the reply answered (round 1's prompt names the rejection).
    expect(String(reply?.prompt.at(-1)?.content)).not.toContain('could not be used');
    expect(reply?.prompt).toEqual(bodies(server)[0]?.messages);
    // Without log-probs the model returns no tokens, and the rejection carries none.
    const plain: RejectedProposal[] = [];
    const server2 = await serve({ script: [GARBAGE, FENCED] });
    await createLlmSkillEditor({ model: serial(server2), maxRepairs: 1 }).propose(
      context({ onReject: (r) => plain.push(r) }),
      1,
    );
    expect(plain[0]?.reply).toBeUndefined();
  });

  it('derives request seeds from the context seed and the generation', async () => {
    const server = await serve({ respond: (req) => GOOD.replace('heat-mug-first', `seed-${req.seed}`) });
    const editor = createLlmSkillEditor({ model: serial(server), sampling: 'separate', seed: 9 });
    const a = await editor.propose(context(), 2);
    const b = await editor.propose(context(), 2);
    const rng = createRng(42).fork('llm-editor/g2');
    const expected = [0, 1].map((i) => rng.seedFor(`round/0/sample/${i}`) % 2_147_483_648);
    expect(bodies(server).map((r) => r.seed)).toEqual([...expected, ...expected]);
    expect(new Set(expected).size).toBe(2);
    expect(b.map((c) => c.skill)).toEqual(a.map((c) => c.skill));
    expect(a.map((c) => c.info?.seed)).toEqual(expected);
    // Another generation, and a context without a seed (the editor's own seed), give other seeds.
    await editor.propose(context({ generation: 3 }), 1);
    await editor.propose(context({ seed: undefined }), 1);
    const later = bodies(server)
      .slice(4)
      .map((r) => r.seed);
    expect(later).toEqual([
      createRng(42).fork('llm-editor/g3').seedFor('round/0/sample/0') % 2_147_483_648,
      createRng(9).fork('llm-editor/g2').seedFor('round/0/sample/0') % 2_147_483_648,
    ]);
  });

  it('writes the first skill from an empty history, named after the task family', async () => {
    const server = await serve({ script: ['```markdown\n# Heat\n1. Heat the mug.\n```'] });
    const editor = createLlmSkillEditor({ model: serial(server) });
    const [candidate] = await editor.propose(
      context({ currentSkill: undefined, history: [], generation: 1 }),
      1,
    );
    expect(candidate?.skill).toEqual({
      name: 'pick-heat-then-place-in-recep',
      description: 'How to solve pick_heat_then_place_in_recep tasks.',
      families: ['pick_heat_then_place_in_recep'],
      body: '# Heat\n1. Heat the mug.\n',
    });
    expect(candidate?.repaired).toMatch(/^frontmatter: missing/);
    const prompt = String(bodies(server)[0]?.messages?.[1]?.content);
    expect(prompt).toContain('None yet: write the first skill for this task.');
    expect(prompt).toContain('No earlier generations');
  });

  it('takes OpenAI-compatible options, and survives a 429 and a 500 on the way', async () => {
    const plan = ['rate-limit', 'server-error'] as const;
    const server = await serve({
      script: [GOOD],
      faults: { plan: ({ index }) => plan[index], retryAfterMs: 50 },
    });
    const apiKey = 'sk-proj-editorsecret0123456789';
    const editor = createLlmSkillEditor({
      model: { model: 'editor', baseURL: server.baseURL, apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    });
    const [candidate] = await editor.propose(context(), 1);
    expect(candidate?.skill.name).toBe('heat-mug-first');
    expect(server.stats()).toMatchObject({ received: 3, faulted: { 'rate-limit': 1, 'server-error': 1 } });
    expect(JSON.stringify(candidate)).not.toContain(apiKey);
  });

  it('uses a custom template and rejects bad options at creation', async () => {
    const server = await serve({ script: [GOOD] });
    const editor = createLlmSkillEditor({
      model: serial(server),
      template: { system: '', user: 'Improve {{currentSkill}} for {{task.id}} (g{{generation}}).' },
    });
    await editor.propose(context(), 1);
    const messages = bodies(server)[0]?.messages ?? [];
    expect(messages).toHaveLength(1);
    expect(String(messages[0]?.content)).toMatch(
      /^Improve ```markdown\n---\nname: heat-then-place[\s\S]* for kitchen-7 \(g2\)\.$/,
    );

    expect(() => createLlmSkillEditor({ model: serial(server), template: { user: '{{skill}}' } })).toThrow(
      /options\.template\.user.*\{\{skill\}\}/,
    );
    expect(() => createLlmSkillEditor({} as never)).toThrow(/options\.model/);
    expect(() => createLlmSkillEditor({ model: serial(server), maxRepairs: -1 })).toThrow(
      /options\.maxRepairs/,
    );
    expect(() => createLlmSkillEditor({ model: serial(server), sampling: 'all' as 'n' })).toThrow(
      /options\.sampling/,
    );
    await expect(editor.propose(context(), 0)).rejects.toThrow(/expected an integer >= 1/);
  });

  it("says what was wrong: a retry carries the loop's rejections, a repair round this call's own", async () => {
    const server = await serve({ script: [GARBAGE, GOOD] });
    const reported: RejectedProposal[] = [];
    const editor = createLlmSkillEditor({ model: serial(server), maxRepairs: 1 });
    const earlier: RejectedProposal[] = [
      {
        kind: 'invalid',
        reason: '[name-charset] name: use lowercase letters',
        excerpt: 'Heat_Mug',
        attempt: 0,
      },
    ];
    const [candidate] = await editor.propose(
      context({ attempt: 1, rejections: earlier, onReject: (r) => reported.push(r) }),
      1,
    );
    expect(candidate?.skill.name).toBe('heat-mug-first');
    const [first, second] = bodies(server).map((b) => String(b.messages?.[1]?.content));
    // The retry's first request names the loop's rejection, right before the request for a revision.
    expect(first).toContain(
      '## What was wrong with your earlier replies\n\nAn earlier reply for this generation could not be used:\n- [name-charset] name: use lowercase letters (the reply began: "Heat_Mug")',
    );
    expect(first).toMatch(/frontmatter first\.\n\n## Your revision \(generation 2\)/);
    // The repair round adds the reply this call rejected; the loop heard of it through onReject.
    expect(second).toContain('2 earlier replies for this generation could not be used:');
    expect(second).toContain(
      `- no SKILL.md in the reply (expected a \`\`\`markdown block or \`---\` frontmatter) (the reply began: "${GARBAGE}")`,
    );
    expect(reported).toEqual([
      {
        kind: 'reply',
        reason: 'no SKILL.md in the reply (expected a ```markdown block or `---` frontmatter)',
        excerpt: GARBAGE,
      },
    ]);
  });

  it('a first prompt is unchanged by the feedback placeholder; a custom template gets the feedback appended', async () => {
    const server = await serve({ script: [GOOD] });
    const editor = createLlmSkillEditor({ model: serial(server) });
    await editor.propose(context(), 1);
    const prompt = String(bodies(server)[0]?.messages?.[1]?.content);
    expect(prompt).not.toContain('What was wrong');
    expect(prompt).not.toContain('{{');
    expect(prompt).toMatch(/\n## Your revision \(generation 2\)\n\nWrite the improved SKILL\.md\.$/);

    const custom = createLlmSkillEditor({
      model: serial(server),
      template: { system: '', user: 'Improve {{currentSkill}}.' },
      maxConcurrency: 3,
    });
    expect(custom.maxConcurrency).toBe(3);
    expect(editor.maxConcurrency).toBeUndefined();
    await custom.propose(
      context({ attempt: 1, rejections: [{ reason: 'the body was empty', kind: 'reply' }] }),
      1,
    );
    const user = String(bodies(server)[1]?.messages?.[0]?.content);
    expect(user).toMatch(/^Improve ```markdown[\s\S]*```\.\n\n## What was wrong with your earlier replies\n/);
    expect(user).toContain('- the body was empty\n');
    expect(() => createLlmSkillEditor({ model: serial(server), maxConcurrency: 0 })).toThrow(
      /options\.maxConcurrency/,
    );
  });

  it('lists at most the five newest rejections', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ reason: `problem ${i}` }));
    const text = renderRejections(many);
    expect(text).toContain('8 earlier replies');
    expect(text).not.toContain('problem 2');
    expect(text).toContain('- problem 3\n');
    expect(text).toContain('- (and 3 more)');
    expect(renderRejections([])).toBe('');
  });
});

describe('createLlmSkillEditor: a reply with no usable choice is an endpoint error', () => {
  const fast = { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 };
  it.each([
    ['no-choices', 'the endpoint answered 200 with choices: [] (no choice)'],
    ['missing-choices', 'the endpoint answered 200 with no choices field'],
  ] as const)('%s: the call throws, after the retry policy, saying what arrived', async (fault, says) => {
    const server = await serve({ faults: { plan: () => fault } });
    const rejected: RejectedReply[] = [];
    const editor = createLlmSkillEditor({
      model: { model: 'editor', baseURL: server.baseURL, retry: fast },
      onReject: (r) => rejected.push(r),
    });
    const error = (await editor.propose(context(), 3).catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('ModelCallError');
    expect(error.message).toBe(
      `chat completion for editor failed (gave up after 2 attempts): NoChoiceError: ${says}`,
    );
    // One request and its retry, not 3 rounds × 3 choices; nothing is read as a reply without a SKILL.md.
    expect(server.stats().received).toBe(2);
    expect(rejected).toEqual([]);
  });

  it('content null with only a tool call: the error names the tool', async () => {
    const server = await serve({ script: [{ toolCalls: [{ name: 'write_skill', arguments: '{}' }] }] });
    const editor = createLlmSkillEditor({
      model: { model: 'editor', baseURL: server.baseURL, retry: fast },
      sampling: 'separate',
    });
    await expect(editor.propose(context(), 2)).rejects.toThrow(
      'a choice whose content is null and which has only a tool call (name write_skill)',
    );
  });

  it('a ChatModel of its own that answers no choice: NoChoiceError, not a rejected reply', async () => {
    const rejected: RejectedReply[] = [];
    for (const choices of [[], [{ text: '', finishReason: 'no-choice' }]]) {
      const editor = createLlmSkillEditor({
        model: { model: 'mine', complete: async () => ({ choices }) },
        onReject: (r) => rejected.push(r),
      });
      const error = (await editor.propose(context(), 2).catch((e: unknown) => e)) as Error;
      expect(error.name).toBe('NoChoiceError');
      expect(error.message).toMatch(
        /^the chat model mine answered with (choices: \[\] \(no choice\)|1 choice without text)$/,
      );
    }
    expect(rejected).toEqual([]);
  });

  it('an empty reply is rejected as empty, not as one without a SKILL.md', async () => {
    const server = await serve({ script: ['', GOOD] });
    const rejected: RejectedReply[] = [];
    const editor = createLlmSkillEditor({ model: serial(server), onReject: (r) => rejected.push(r) });
    const out = await editor.propose(context(), 1);
    expect(out).toHaveLength(1);
    expect(rejected.map((r) => r.reason)).toEqual([
      'the reply is empty (no text, finish_reason stop; expected a SKILL.md in a ```markdown block)',
    ]);
  });

  it("the model's option names are checked, under options.model", () => {
    expect(() => createLlmSkillEditor({ model: { model: 'editor', temprature: 0.7 } as never })).toThrow(
      'Invalid options.model.temprature: unknown option of the OpenAI chat model; did you mean temperature?',
    );
  });
});
