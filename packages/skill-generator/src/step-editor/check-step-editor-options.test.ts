import { ValidationError } from '@skillrl/core';
import { AGGREGATION_MODES } from '@skillrl/tensor-ops';
import { describe, expect, it } from 'vitest';
import { checkStepEditorOptions, STEP_EDITOR_OPTIONS } from './check-step-editor-options.js';
import { createStepEditor } from './create-step-editor.js';
import { resolveStepEditorOptions } from './step-editor-options.js';

const vocabulary = { pick: ['take the object', 'put the object in the target receptacle'] };

describe('checkStepEditorOptions', () => {
  it('names an unknown option with the one meant', () => {
    expect(checkStepEditorOptions({ keepPrio: 1 })).toEqual([
      {
        path: '$.evolve.generator.options.keepPrio',
        message: 'unknown option of the step editor; did you mean keepPrior?',
      },
    ]);
  });

  it('reports wrong types, each by path', () => {
    expect(
      checkStepEditorOptions({
        hiddenSize: '16',
        allowRepeats: 'no',
        aggregation: 'sum',
        kl: { kind: 'k3', coef: -1 },
      }),
    ).toEqual([
      { path: '$.evolve.generator.options.hiddenSize', message: 'expected an integer >= 1, got "16"' },
      { path: '$.evolve.generator.options.allowRepeats', message: 'expected true or false, got "no"' },
      {
        path: '$.evolve.generator.options.aggregation',
        message: `expected one of ${AGGREGATION_MODES.map((m) => JSON.stringify(m)).join(', ')}, got "sum"`,
      },
      { path: '$.evolve.generator.options.kl.coef', message: 'expected a number >= 0, got -1' },
    ]);
  });

  it('passes a valid full set (every option at its default)', () => {
    const defaults = resolveStepEditorOptions({});
    expect(checkStepEditorOptions({ vocabulary, ...defaults })).toEqual([]);
    expect(checkStepEditorOptions({ keepPrior: 1, kl: false })).toEqual([]);
  });

  it("its vocabulary is the factory's options, its aggregations tensor-ops'", () => {
    expect([...STEP_EDITOR_OPTIONS].sort()).toEqual(
      ['vocabulary', ...Object.keys(resolveStepEditorOptions({}))].sort(),
    );
    expect(STEP_EDITOR_OPTIONS.length).toBe(new Set(STEP_EDITOR_OPTIONS).size);
    const issues = checkStepEditorOptions({ aggregation: 'x' });
    for (const mode of AGGREGATION_MODES) expect(issues[0]?.message).toContain(`"${mode}"`);
  });

  it('the factory refuses what the check refuses, every problem in one ValidationError', () => {
    try {
      createStepEditor({ vocabulary, keepPrio: 1, hiddenSize: 0 } as never);
      expect.unreachable();
    } catch (e) {
      expect(ValidationError.isInstance(e)).toBe(true);
      expect((e as ValidationError).issues.map((i) => i.path)).toEqual([
        'options.keepPrio',
        'options.hiddenSize',
      ]);
    }
  });
});
