import { HttpError } from './http-error.js';
import { type BasePrior, buildBasePrior, type FakeBaseModelSpec } from './lora-model.js';

/** The base models a fake serves, each built once on first use. */
export interface BaseModels {
  /** Names served, in the order given. */
  names(): string[];
  /** The base model's prior; a name not served is refused with a 400 that lists those served. */
  prior(name: string): BasePrior;
}

export function createBaseModels(specs: Record<string, FakeBaseModelSpec>): BaseModels {
  const priors = new Map<string, BasePrior>();
  return {
    names: () => Object.keys(specs),
    prior(name) {
      const spec = specs[name];
      if (!spec)
        throw new HttpError(
          400,
          `base_model "${name}" is not served here; served: ${Object.keys(specs).join(', ')}`,
        );
      let p = priors.get(name);
      if (!p) {
        p = buildBasePrior(spec);
        priors.set(name, p);
      }
      return p;
    },
  };
}
