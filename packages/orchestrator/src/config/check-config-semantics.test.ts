import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunConfig, TaskAdapter } from '@skillrl/core';
import household from '@skillrl/task-household';
import { createJsonlAdapter, createQaAdapter } from '@skillrl/task-qa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support.js';
import { checkConfigAgainstAdapter, checkConfigSemantics } from './check-config-semantics.js';

const internalize = (over: Partial<RunConfig> = {}): RunConfig => ({
  method: 'internalize',
  seed: 1,
  adapter: 'household',
  tasks: { split: 'train', limit: 4 },
  agent: 'skill-reading',
  internalize: { trainer: 'tfjs' },
  ...over,
});
const evolve = (section: RunConfig['evolve'] = {}, over: Partial<RunConfig> = {}): RunConfig => ({
  method: 'evolve',
  seed: 1,
  adapter: 'household',
  tasks: { split: 'train', limit: 4 },
  agent: 'skill-reading',
  evolve: { generator: 'step-editor', ...section },
  ...over,
});
const paths = (issues: { path: string }[]) => issues.map((i) => i.path);

/** GAIA-like questions in a JSONL file: free-text answers, no skills, no step vocabulary. */
function questions(): TaskAdapter {
  const file = join(tempDir('qa-jsonl'), 'q.jsonl');
  writeFileSync(
    file,
    `${Array.from({ length: 6 }, (_, i) => JSON.stringify({ question: `What is ${i} + 1?`, answer: String(i + 1) })).join('\n')}\n`,
  );
  return createJsonlAdapter({ path: file, split: 'test' }) as TaskAdapter;
}

describe('checkConfigSemantics: combinations known from the config alone', () => {
  it('a tfjs trainer needs the skill-reading agent', () => {
    const [issue, ...rest] = checkConfigSemantics(
      internalize({ agent: { name: 'openai', options: { model: 'gpt-4o-mini' } } }),
    );
    expect(rest).toEqual([]);
    expect(issue?.path).toBe('$.internalize.trainer');
    expect(issue?.message).toContain(
      '"tfjs" trains the in-process skill-reading policy, but agent is "openai"',
    );
    expect(issue?.message).toContain('set agent: skill-reading, or use trainer: external');
    expect(checkConfigSemantics(internalize())).toEqual([]);
    // A package agent may be a tfjs policy of the user's: not knowable here.
    expect(checkConfigSemantics(internalize({ agent: { package: './my-policy.mjs' } }))).toEqual([]);
    expect(
      checkConfigSemantics(internalize({ agent: 'openai', internalize: { trainer: 'external' } })),
    ).toEqual([]);
  });

  it('mode grpo needs an editor with update(): the LLM editor has none', () => {
    const issues = checkConfigSemantics(
      evolve({ mode: 'grpo', generator: { name: 'llm-editor', options: {} } }),
    );
    expect(paths(issues)).toEqual(['$.evolve.mode']);
    expect(issues[0]?.message).toContain('"llm-editor" has no update()');
    expect(issues[0]?.message).toContain('use mode: inference');
    expect(checkConfigSemantics(evolve({ mode: 'inference', generator: 'llm-editor' }))).toEqual([]);
    expect(checkConfigSemantics(evolve({ mode: 'grpo', generator: 'step-editor' }))).toEqual([]);
  });

  it("tinker: the trainer needs the tinker agent (the options are the package's to check)", () => {
    const agent = {
      name: 'tinker',
      options: { baseModel: 'Qwen/Qwen3-4B-Instruct-2507', tokenizer: './tokenizer' },
    };
    expect(checkConfigSemantics(internalize({ agent, internalize: { trainer: 'tinker' } }))).toEqual([]);
    expect(
      checkConfigSemantics(
        internalize({
          agent,
          internalize: { trainer: { name: 'tinker', options: { loss: 'ppo', learningRate: 1e-5 } } },
        }),
      ),
    ).toEqual([]);
    // A frozen Tinker agent with an external trainer is fine too.
    expect(checkConfigSemantics(internalize({ agent, internalize: { trainer: 'external' } }))).toEqual([]);

    // Its options are the package's to check (checkTinkerAgentOptions): not read from the config alone.
    expect(
      checkConfigSemantics(internalize({ agent: 'tinker', internalize: { trainer: 'tinker' } })),
    ).toEqual([]);

    const wrongAgent = checkConfigSemantics(
      internalize({ agent: 'skill-reading', internalize: { trainer: 'tinker' } }),
    );
    expect(paths(wrongAgent)).toEqual(['$.internalize.trainer']);
    expect(wrongAgent[0]?.message).toContain('set agent: tinker');
  });

  it('tinker: the LLM editor with trainer: tinker trains under mode grpo, needs its options, no model', () => {
    const trainer = {
      name: 'tinker',
      options: {
        baseModel: 'Qwen/Qwen3-4B-Instruct-2507',
        tokenizer: './tok',
        loraRank: 16,
        loss: 'importance_sampling',
      },
    };
    const agent = { name: 'openai', options: { model: 'gpt-4o-mini' } };
    expect(
      checkConfigSemantics(
        evolve({ mode: 'grpo', generator: { name: 'llm-editor', options: { trainer } } }, { agent }),
      ),
    ).toEqual([]);
    const inference = checkConfigSemantics(
      evolve({ mode: 'inference', generator: { name: 'llm-editor', options: { trainer } } }, { agent }),
    );
    expect(paths(inference)).toEqual(['$.evolve.generator.options.trainer']);
    expect(inference[0]?.message).toContain('set evolve.mode: grpo');
    const both = checkConfigSemantics(
      evolve(
        { mode: 'grpo', generator: { name: 'llm-editor', options: { trainer, model: { model: 'x' } } } },
        { agent },
      ),
    );
    expect(paths(both)).toEqual(['$.evolve.generator.options.model']);
    const unknown = checkConfigSemantics(
      evolve({ mode: 'grpo', generator: { name: 'llm-editor', options: { trainer: 'trl' } } }, { agent }),
    );
    expect(paths(unknown)).toEqual(['$.evolve.generator.options.trainer']);
    const bare = checkConfigSemantics(
      evolve({ mode: 'grpo', generator: { name: 'llm-editor', options: { trainer: 'tinker' } } }, { agent }),
    );
    // Its missing baseModel and tokenizer are the package's to say (checkTinkerEditorOptions).
    expect(paths(bare)).toEqual([]);
    // Without a trainer, grpo still needs an update(), and the message says how to get one.
    const frozen = checkConfigSemantics(evolve({ mode: 'grpo', generator: 'llm-editor' }, { agent }));
    expect(frozen[0]?.message).toContain('give it trainer: tinker');
  });

  it('held-out tasks drawn from the training split with the same seed overlap', () => {
    const same = checkConfigSemantics(evolve({ heldOut: { split: 'train', limit: 2, seed: 1 } }));
    expect(paths(same)).toEqual(['$.evolve.heldOut']);
    expect(same[0]?.message).toContain(
      'draws from the training split "train" with the same seed (1) as tasks',
    );
    expect(same[0]?.message).toContain('use another split (e.g. valid_unseen)');
    // The default held-out seed is seed + 3: the same seed only when a selection says so.
    const named = checkConfigSemantics(
      evolve({ heldOut: { split: 'train', limit: 2 } }, { tasks: { split: 'train', limit: 4, seed: 4 } }),
    );
    expect(paths(named)).toEqual(['$.evolve.heldOut']);
    expect(checkConfigSemantics(evolve({ heldOut: { split: 'train', limit: 2 } }))).toEqual([]);
    expect(checkConfigSemantics(evolve({ heldOut: { split: 'valid_unseen', seed: 1 } }))).toEqual([]);
  });
});

describe('checkConfigAgainstAdapter: combinations that need the adapter to know', () => {
  it('the step editor needs an adapter with stepVocabulary()', async () => {
    const qa = questions();
    const issues = await checkConfigAgainstAdapter(
      evolve(
        {},
        {
          adapter: { name: 'qa-jsonl', options: { path: 'q.jsonl' } },
          agent: 'openai',
          tasks: { split: 'test' },
        },
      ),
      qa,
    );
    expect(paths(issues)).toEqual(['$.evolve.generator']);
    expect(issues[0]?.message).toContain(
      'adapter "qa-jsonl" (jsonl) has no stepVocabulary(); use generator: llm-editor',
    );
    expect(await checkConfigAgainstAdapter(evolve({}, { agent: 'openai' }), household)).toEqual([]);
    // No editor in the no-skill baseline: nothing to check.
    expect(
      await checkConfigAgainstAdapter(
        evolve({ variant: 'no-skill', generator: undefined }, { agent: 'openai', tasks: { split: 'test' } }),
        qa,
      ),
    ).toEqual([]);
  });

  it('the skill-reading agent needs environments with admissibleActions()', async () => {
    const qa = createQaAdapter() as TaskAdapter;
    const config = evolve(
      { generator: 'llm-editor' },
      { adapter: 'qa', tasks: { split: 'train', limit: 2 } },
    );
    const issues = await checkConfigAgainstAdapter(config, qa);
    expect(paths(issues)).toEqual(['$.agent']);
    expect(issues[0]?.message).toContain(
      '"skill-reading" chooses among admissible actions, but the environments of adapter "qa"',
    );
    expect(issues[0]?.message).toContain('use agent: openai');
    expect(await checkConfigAgainstAdapter(evolve({ generator: 'llm-editor' }), household)).toEqual([]);
  });

  it('internalize needs a skill for at least one family (except the skill-free grpo baseline)', async () => {
    const qa = questions();
    const config = internalize({
      adapter: { name: 'qa-jsonl', options: { path: 'q.jsonl' } },
      agent: 'openai',
      tasks: { split: 'test' },
      internalize: { trainer: 'external' },
    });
    const issues = await checkConfigAgainstAdapter(config, qa);
    expect(paths(issues)).toEqual(['$.adapter']);
    expect(issues[0]?.message).toContain(
      'internalize variant "skillc" pairs rollouts with and without each family',
    );
    expect(issues[0]?.message).toContain('has no skill for any of its families');
    expect(issues[0]?.message).toContain('or use internalize.variant: grpo');
    expect(
      await checkConfigAgainstAdapter(
        { ...config, internalize: { trainer: 'external', variant: 'grpo' } },
        qa,
      ),
    ).toEqual([]);
    expect(await checkConfigAgainstAdapter(internalize(), household)).toEqual([]);
  });

  it('held-out tasks that are training tasks, found by loading both selections', async () => {
    // Other seeds, but 4 + 4 of the file's 6 questions: the two samples meet.
    const config = evolve(
      { generator: 'llm-editor', heldOut: { split: 'test', limit: 4 } },
      { adapter: 'qa-jsonl', tasks: { split: 'test', limit: 4 }, agent: 'openai' },
    );
    expect(checkConfigSemantics(config)).toEqual([]);
    const issues = await checkConfigAgainstAdapter(config, questions());
    expect(paths(issues)).toEqual(['$.evolve.heldOut']);
    expect(issues[0]?.message).toMatch(
      /^\d held-out tasks? (is|are) also training tasks? \(.+\); use another split/,
    );
    // Household ids carry their seed: another seed is other tasks.
    expect(
      await checkConfigAgainstAdapter(
        evolve({ heldOut: { split: 'train', limit: 3 } }, { tasks: { split: 'train', limit: 40 } }),
        household,
      ),
    ).toEqual([]);
  });
});
