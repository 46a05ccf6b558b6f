import { ScaffoldError } from './scaffold-error.js';

/**
 * The names @skillrl/advantage registers its built-in estimators under (verl's snake_case spellings
 * included). A package cannot register its estimator under one of them (`skillrl run` refuses to replace a
 * built-in), so an estimator scaffold named like one would write next steps that fail at `run`. Listed here
 * because this package depends on nothing of skillrl's; @skillrl/cli's tests compare the list with the
 * registry, so a new built-in that is missing here fails there.
 */
export const BUILTIN_ESTIMATOR_NAMES: readonly string[] = [
  'grpo',
  'dr-grpo',
  'rloo',
  'grpo-passk',
  'grpo_passk',
  'reinforce-pp-baseline',
  'reinforce_plus_plus_baseline',
  'reinforce-pp',
  'reinforce_plus_plus',
  'opo',
  'remax',
  'gpg',
  'skill-r1',
  'skillc',
  'd2skill-mixed',
  'gigpo',
];

/**
 * Refuses an estimator package whose estimator name (the package name after its scope) is a built-in's:
 * the error names the argument the name came from and a free name to pass instead (`my-grpo`).
 */
export function refuseBuiltinEstimatorName(packageName: string, argument: '<dir>' | '--name'): void {
  const id = packageName.split('/').pop() as string;
  if (!BUILTIN_ESTIMATOR_NAMES.includes(id)) return;
  const free = packageName.replace(/[^/]+$/, `my-${id}`);
  throw new ScaffoldError(
    argument,
    `"${id}" is the name of a built-in estimator (@skillrl/advantage), and the package registers its estimator under its own name, which skillrl run refuses for a built-in's`,
    argument === '--name' ? `pass --name ${free}` : `choose another folder name, or pass --name ${free}`,
  );
}
