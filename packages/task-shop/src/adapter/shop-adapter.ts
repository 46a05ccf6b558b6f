import type { JsonObject, LoadOptions, Task, TaskAdapter } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError, throwOnOptionIssues } from '@skillrl/core';
import { generateCatalogue } from '../catalogue/generate-catalogue.js';
import type { ShopCatalogue } from '../catalogue/shop-catalogue.js';
import type { ObservationMode } from '../env/page-segments.js';
import { ShopEnvironment } from '../env/shop-environment.js';
import type { ShopGoal } from '../product/shop-product.js';
import { checkShopAdapterOptions } from './check-shop-adapter-options.js';
import { SHOP_SPLITS, splitGoalIndices } from './goal-splits.js';
import { SHOP_FAMILY, shopSkill, shopStepVocabulary } from './shop-skill.js';
import { createShopVerifier } from './shop-verifier.js';

export interface ShopAdapterOptions {
  /** A fixed catalogue, e.g. `await loadWebShop(files)`. Default: a generated one per `load` seed. */
  catalogue?: ShopCatalogue;
  /**
   * Split a fixed catalogue's goals in their own order (default, true to WebShop for `loadWebShop` catalogues,
   * whose goals are in WebShop's session order), or shuffle them by the load seed first.
   */
  shuffleFixedGoals?: boolean;
  /** Size of generated catalogues. Default 1000 products. */
  products?: number;
  /** Default 15. */
  maxSteps?: number;
  observationMode?: ObservationMode;
  showAttrs?: boolean;
}

const CACHE_LIMIT = 4;

/**
 * The WebShop adapter. Tasks are goals of a catalogue (generated from the load seed unless one is given),
 * split as WebShop's baselines split them (`test`, `eval`, `train`); the environment is a `ShopEnvironment`
 * on the task's goal; the verifier scores the purchase with WebShop's reward.
 */
export function createShopAdapter(options: ShopAdapterOptions = {}): TaskAdapter {
  throwOnOptionIssues(checkShopAdapterOptions(options, 'options'), 'shop adapter');
  const size = options.products ?? 1000;
  const cache = new Map<string, ShopCatalogue>();

  function generated(seed: number): ShopCatalogue {
    const key = `${seed}:${size}`;
    let catalogue = cache.get(key);
    if (!catalogue) {
      catalogue = generateCatalogue({ seed, products: size });
      if (cache.size >= CACHE_LIMIT) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(key, catalogue);
    }
    return catalogue;
  }

  function catalogueOf(task: Task): ShopCatalogue {
    if (options.catalogue) return options.catalogue;
    const seed = task.metadata?.catalogueSeed;
    if (typeof seed !== 'number') {
      throw new MissingFieldError(
        'shop adapter',
        'task.metadata.catalogueSeed',
        'load tasks through this adapter',
      );
    }
    return generated(seed);
  }

  function goalOf(task: Task): ShopGoal {
    const goal = task.metadata?.goal;
    if (typeof goal !== 'object' || goal === null) {
      throw new MissingFieldError('shop adapter', 'task.metadata.goal', 'load tasks through this adapter');
    }
    return goal as unknown as ShopGoal;
  }

  return {
    name: 'shop',
    families: [SHOP_FAMILY],
    splits: SHOP_SPLITS,
    load({ split, limit, seed = 0 }: LoadOptions): Task[] {
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        throw new InvalidArgumentError('limit', `expected an integer >= 0, got ${limit}`);
      }
      const catalogue = options.catalogue ?? generated(seed);
      const fixedOrder = options.catalogue !== undefined && !options.shuffleFixedGoals;
      const indices = splitGoalIndices(catalogue.goals.length, split, fixedOrder ? null : seed);
      const chosen = limit === undefined ? indices : indices.slice(0, limit);
      return chosen.map((goalIndex) => {
        const goal = catalogue.goals[goalIndex] as ShopGoal;
        const metadata: JsonObject = {
          goalIndex,
          catalogueSeed: options.catalogue ? null : seed,
          goal: goal as unknown as JsonObject,
        };
        return {
          id: `shop-${options.catalogue ? 'fixed' : seed}-${goalIndex}`,
          family: SHOP_FAMILY,
          split,
          prompt: goal.instruction_text,
          answer: { asin: goal.asin, options: goal.goal_options },
          metadata,
        };
      });
    },
    createEnvironment(task: Task): ShopEnvironment {
      return new ShopEnvironment({
        catalogue: catalogueOf(task),
        goal: goalOf(task),
        maxSteps: options.maxSteps,
        observationMode: options.observationMode,
        showAttrs: options.showAttrs,
      });
    },
    verifier(_task: Task) {
      return createShopVerifier(goalOf, catalogueOf);
    },
    skills: () => [shopSkill()],
    stepVocabulary: shopStepVocabulary,
  };
}
