import type { EstimatorFactory } from '@skillrl/core';
import { createD2SkillMixed, type D2SkillMixedOptions } from '../estimators/d2skill-mixed.js';
import { createDrGrpo, type DrGrpoOptions } from '../estimators/dr-grpo.js';
import { createGigpo, type GigpoOptions } from '../estimators/gigpo.js';
import { createGpg, type GpgOptions } from '../estimators/gpg.js';
import { createGrpo, type GrpoOptions } from '../estimators/grpo.js';
import { createGrpoPassk, type GrpoPasskOptions } from '../estimators/grpo-passk.js';
import { createOpo, type OpoOptions } from '../estimators/opo.js';
import { createReinforcePp, type ReinforcePpOptions } from '../estimators/reinforce-pp.js';
import {
  createReinforcePpBaseline,
  type ReinforcePpBaselineOptions,
} from '../estimators/reinforce-pp-baseline.js';
import { createRemax } from '../estimators/remax.js';
import { createRloo, type RlooOptions } from '../estimators/rloo.js';
import { createSkillR1, type SkillR1Options } from '../estimators/skill-r1.js';
import { createSkillc, type SkillcOptions } from '../estimators/skillc.js';

/** The options each built-in name takes (verl's spellings are aliases of the same estimators). */
export interface BuiltinEstimatorOptions {
  grpo: GrpoOptions;
  'dr-grpo': DrGrpoOptions;
  rloo: RlooOptions;
  'grpo-passk': GrpoPasskOptions;
  grpo_passk: GrpoPasskOptions;
  'reinforce-pp-baseline': ReinforcePpBaselineOptions;
  reinforce_plus_plus_baseline: ReinforcePpBaselineOptions;
  'reinforce-pp': ReinforcePpOptions;
  reinforce_plus_plus: ReinforcePpOptions;
  opo: OpoOptions;
  remax: Record<string, never>;
  gpg: GpgOptions;
  'skill-r1': SkillR1Options;
  skillc: SkillcOptions;
  'd2skill-mixed': D2SkillMixedOptions;
  gigpo: GigpoOptions;
}

type AnyFactory = EstimatorFactory<never>;

/**
 * The estimators every registry starts with. verl's snake_case names (`grpo_passk`, `reinforce_plus_plus`,
 * `reinforce_plus_plus_baseline`) map to the same factories, so a verl config's vocabulary carries over.
 */
export const BUILTIN_ESTIMATORS: ReadonlyArray<readonly [keyof BuiltinEstimatorOptions, AnyFactory]> = [
  ['grpo', createGrpo],
  ['dr-grpo', createDrGrpo],
  ['rloo', createRloo],
  ['grpo-passk', createGrpoPassk],
  ['grpo_passk', createGrpoPassk],
  ['reinforce-pp-baseline', createReinforcePpBaseline],
  ['reinforce_plus_plus_baseline', createReinforcePpBaseline],
  ['reinforce-pp', createReinforcePp],
  ['reinforce_plus_plus', createReinforcePp],
  ['opo', createOpo],
  ['remax', createRemax],
  ['gpg', createGpg],
  ['skill-r1', createSkillR1],
  ['skillc', createSkillc],
  ['d2skill-mixed', createD2SkillMixed],
  ['gigpo', createGigpo],
];
