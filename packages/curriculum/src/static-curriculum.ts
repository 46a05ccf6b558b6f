import type { CurriculumController, CurriculumState, JsonValue, ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { checkFamilies, checkNumber } from './check-options.js';

/** A curriculum that never changes: for plain GRPO with skills (ρ = 1), without (ρ = 0), or a fixed mix. */
export interface StaticCurriculumOptions {
  families: string[];
  /** Share of z = 1 rollouts for every family. Default 1 (always with the skill). */
  rho?: number;
  /** Attribution strength for every family. Default 0. */
  lambda?: number;
}

export interface StaticCurriculumJSON {
  kind: 'static';
  options: Required<StaticCurriculumOptions>;
  step: number;
}

export interface StaticCurriculum extends CurriculumController {
  readonly name: 'static';
  toJSON(): StaticCurriculumJSON & JsonValue;
}

function build(opts: Required<StaticCurriculumOptions>, step: number): StaticCurriculum {
  let currentStep = step;
  const snapshot = (): CurriculumState => ({
    step: currentStep,
    lambda: Object.fromEntries(opts.families.map((f) => [f, opts.lambda])),
    rho: Object.fromEntries(opts.families.map((f) => [f, opts.rho])),
    active: opts.rho > 0 ? [...opts.families] : [],
    retired: opts.rho > 0 ? [] : [...opts.families],
  });
  return {
    name: 'static',
    state: snapshot,
    observe(validation: ValidationResult) {
      if (!validation || typeof validation.step !== 'number') {
        throw new InvalidArgumentError('validation', 'expected { step, families }');
      }
      currentStep = validation.step;
      return snapshot();
    },
    toJSON: () =>
      ({
        kind: 'static',
        options: { ...opts, families: [...opts.families] },
        step: currentStep,
      }) as StaticCurriculumJSON & JsonValue,
  };
}

export function createStaticCurriculum(options: StaticCurriculumOptions): StaticCurriculum {
  return build(
    {
      families: checkFamilies(options.families),
      rho: checkNumber('rho', options.rho ?? 1, 0, 1),
      lambda: checkNumber('lambda', options.lambda ?? 0, 0, Number.MAX_VALUE),
    },
    0,
  );
}

export function restoreStaticCurriculum(json: StaticCurriculumJSON): StaticCurriculum {
  if (json?.kind !== 'static') {
    throw new InvalidArgumentError(
      'curriculum JSON',
      "expected the output of a static curriculum's toJSON()",
    );
  }
  // Re-validate the options through the factory, then continue from the saved step.
  const fresh = createStaticCurriculum(json.options).toJSON();
  return build({ ...fresh.options }, json.step);
}
