import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors/validation-error.js';
import { checkExternalTrainerOptions } from './check-external-trainer-options.js';
import {
  checkOptions,
  nestedOptions,
  optionCheck,
  suggestOption,
  throwOnOptionIssues,
} from './check-options.js';
import {
  booleanOption,
  codeOption,
  eitherOption,
  integerOption,
  numberOption,
  optionRule,
  stringOption,
} from './option-rule.js';

const rules = {
  maxSteps: integerOption(1),
  temperature: numberOption('a number > 0', (n) => n > 0),
  greedy: booleanOption,
  mode: stringOption(['text', 'tools']),
  extract: codeOption('function', 'a function of the trajectory'),
  kl: eitherOption(
    'false or { kind, coef }',
    optionRule((v) => v === false, 'false'),
    nestedOptions({ kind: stringOption(), coef: numberOption() }, 'KL penalty'),
  ),
};

describe('checkOptions', () => {
  it('names an unknown option with the one meant, by path', () => {
    expect(checkOptions({ maxStpes: 3 }, rules, '$.adapter.options', 'household adapter')).toEqual([
      {
        path: '$.adapter.options.maxStpes',
        message: 'unknown option of the household adapter; did you mean maxSteps?',
      },
    ]);
  });

  it('lists the options when none is close', () => {
    const [issue] = checkOptions({ hiddenSizeTypo: 8 }, rules, 'options', 'agent');
    expect(issue?.message).toBe(
      'unknown option of the agent; expected one of maxSteps, temperature, greedy, mode, extract, kl',
    );
  });

  it('reports every wrong type at once, nested ones by their own path', () => {
    const found = checkOptions(
      {
        maxSteps: 2.5,
        temperature: '0.7',
        greedy: 1,
        mode: 'chat',
        extract: 'last',
        kl: { kind: 'k3', coef: 'x' },
      },
      rules,
      'options',
      'agent',
    );
    expect(found).toEqual([
      { path: 'options.maxSteps', message: 'expected an integer >= 1, got 2.5' },
      { path: 'options.temperature', message: 'expected a number > 0, got "0.7"' },
      { path: 'options.greedy', message: 'expected true or false, got 1' },
      { path: 'options.mode', message: 'expected one of "text", "tools", got "chat"' },
      {
        path: 'options.extract',
        message:
          'expected a function of the trajectory (given in code; a config file cannot hold one), got "last"',
      },
      { path: 'options.kl.coef', message: 'expected a finite number, got "x"' },
    ]);
    expect(checkOptions({ kl: true }, rules, 'options', 'agent')).toEqual([
      { path: 'options.kl', message: 'expected false or { kind, coef }, got true' },
    ]);
  });

  it('passes a valid full set, and no options at all', () => {
    const full = { maxSteps: 3, temperature: 0.5, greedy: true, mode: 'tools', extract: () => '', kl: false };
    expect(checkOptions(full, rules, 'options', 'agent')).toEqual([]);
    expect(checkOptions({ ...full, kl: { kind: 'k3', coef: 0.1 } }, rules, 'options', 'agent')).toEqual([]);
    expect(checkOptions(undefined, rules, 'options', 'agent')).toEqual([]);
    expect(checkOptions([], rules, 'options', 'agent')).toEqual([
      { path: 'options', message: "expected an object of the agent's options" },
    ]);
  });

  it("optionCheck: the same check, at a default path or the caller's, with required options", () => {
    const check = optionCheck(rules, 'agent', '$.agent.options', { mode: 'text or tools' });
    expect(check({ mode: 'text', maxStpes: 1 })).toEqual([
      { path: '$.agent.options.maxStpes', message: 'unknown option of the agent; did you mean maxSteps?' },
    ]);
    expect(check(undefined, 'options')).toEqual([
      { path: 'options.mode', message: 'is required: text or tools' },
    ]);
  });

  it('suggests across case, _ and -, and not for far or short names', () => {
    expect(suggestOption('max_steps', ['maxSteps'])).toBe('maxSteps');
    expect(suggestOption('LR', ['lr'])).toBe('lr');
    expect(suggestOption('xy', ['lr'])).toBeUndefined();
    expect(suggestOption('learningRateTypo', ['lr', 'epochs'])).toBeUndefined();
  });

  it('throwOnOptionIssues throws a ValidationError listing each problem', () => {
    expect(() => throwOnOptionIssues([], 'agent')).not.toThrow();
    try {
      throwOnOptionIssues(checkOptions({ maxStpes: 3, greedy: 0 }, rules, 'options', 'agent'), 'agent');
      expect.unreachable();
    } catch (e) {
      expect(ValidationError.isInstance(e)).toBe(true);
      expect((e as ValidationError).issues.map((i) => i.path)).toEqual([
        'options.maxStpes',
        'options.greedy',
      ]);
      expect((e as Error).message).toContain('Invalid agent options (2 problems)');
    }
  });
});

describe('checkExternalTrainerOptions', () => {
  it('refuses any option: the external trainer takes none', () => {
    expect(checkExternalTrainerOptions({})).toEqual([]);
    expect(checkExternalTrainerOptions({ lr: 0.1 })).toEqual([
      {
        path: '$.internalize.trainer.options.lr',
        message:
          'unknown option of the external trainer; it takes no options (it updates no policy: train elsewhere from `skillrl export`)',
      },
    ]);
  });
});
