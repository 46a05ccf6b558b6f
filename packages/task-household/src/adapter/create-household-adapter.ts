import {
  InvalidArgumentError,
  type JsonObject,
  type LoadOptions,
  type Skill,
  type Task,
  type TaskAdapter,
  throwOnOptionIssues,
} from '@skillrl/core';
import type { HouseholdGame } from '../engine/game.js';
import { HouseholdEnvironment, type HouseholdEnvironmentOptions } from '../engine/household-environment.js';
import { FAMILY_LABELS, HOUSEHOLD_FAMILIES, type HouseholdFamily, isHouseholdFamily } from '../families.js';
import {
  generateGame,
  HOUSEHOLD_SPLITS,
  type HouseholdSplit,
  isHouseholdSplit,
} from '../generator/generate-game.js';
import { type AlfworldGameFile, loadAlfworldGame } from '../loader/load-alfworld-game.js';
import { checkHouseholdAdapterOptions } from './check-household-adapter-options.js';
import { householdSkills } from './household-skills.js';
import { householdVerifier } from './household-verifier.js';
import { stepVocabulary } from './step-vocabulary.js';

/** ALFWorld's split sizes, used when `load` gets no `limit`. */
export const ALFWORLD_SPLIT_SIZES: Readonly<Record<HouseholdSplit, number>> = {
  train: 3553,
  valid_seen: 140,
  valid_unseen: 134,
};

export interface HouseholdAdapterOptions extends HouseholdEnvironmentOptions {
  /** Seed used when `load` gets none (default 0). */
  defaultSeed?: number;
}

/** The household adapter: a `TaskAdapter` plus the step vocabulary the trainable skill editor reads. */
export interface HouseholdAdapter extends TaskAdapter {
  families: readonly HouseholdFamily[];
  splits: readonly HouseholdSplit[];
  stepVocabulary(): Record<HouseholdFamily, string[]>;
  skills(): Skill[];
  createEnvironment(task: Task): HouseholdEnvironment;
  /** The game behind a task (generated again from its seed, or loaded from the stored game file). */
  gameFor(task: Task): HouseholdGame;
}

function taskOf(game: HouseholdGame, id: string, split: string, metadata: JsonObject): Task {
  const goal = game.goal;
  return {
    id,
    family: goal.family,
    split,
    prompt: `Your task is to: ${game.taskText}`,
    metadata: {
      ...metadata,
      label: FAMILY_LABELS[goal.family],
      objectKind: goal.objectKind,
      ...(goal.receptacleKind ? { receptacleKind: goal.receptacleKind } : {}),
      ...(goal.lampKind ? { lampKind: goal.lampKind } : {}),
    },
  };
}

/**
 * A task from a real ALFWorld `game.tw-pddl`: the file travels in `metadata.game`, so the adapter's
 * `createEnvironment` can run it anywhere the task goes.
 */
export function taskFromAlfworldGame(
  json: string | AlfworldGameFile,
  options: { id: string; split?: string },
): Task {
  const file = (typeof json === 'string' ? JSON.parse(json) : json) as AlfworldGameFile;
  const game = loadAlfworldGame(file);
  return taskOf(game, options.id, options.split ?? 'valid_seen', {
    source: 'alfworld',
    game: file as JsonObject,
  });
}

/** Creates the household adapter. The package's default export is `createHouseholdAdapter()`. */
export function createHouseholdAdapter(options: HouseholdAdapterOptions = {}): HouseholdAdapter {
  throwOnOptionIssues(checkHouseholdAdapterOptions(options, 'options'), 'household adapter');
  const { defaultSeed = 0, ...envOptions } = options;

  const gameFor = (task: Task): HouseholdGame => {
    const meta = task.metadata ?? {};
    if (meta.source === 'alfworld') {
      if (typeof meta.game !== 'object' || meta.game === null) {
        throw new InvalidArgumentError(
          'task.metadata.game',
          'expected the JSON object of a game.tw-pddl file',
        );
      }
      return loadAlfworldGame(meta.game as unknown as AlfworldGameFile);
    }
    const { seed, index } = meta;
    if (meta.source !== 'generated' || typeof seed !== 'number' || typeof index !== 'number') {
      throw new InvalidArgumentError(
        'task.metadata',
        `task "${task.id}" was not made by this adapter: expected source "generated" with numeric seed and index, or source "alfworld" with a game`,
      );
    }
    if (!isHouseholdSplit(task.split)) {
      throw new InvalidArgumentError(
        'task.split',
        `"${task.split}"; expected one of ${HOUSEHOLD_SPLITS.join(', ')}`,
      );
    }
    if (!isHouseholdFamily(task.family)) {
      throw new InvalidArgumentError(
        'task.family',
        `"${task.family}"; expected one of ${HOUSEHOLD_FAMILIES.join(', ')}`,
      );
    }
    return generateGame({ split: task.split, seed, index, family: task.family }).game;
  };

  return {
    name: 'household',
    families: HOUSEHOLD_FAMILIES,
    splits: HOUSEHOLD_SPLITS,
    load(load: LoadOptions): Task[] {
      const { split } = load;
      if (!isHouseholdSplit(split)) {
        throw new InvalidArgumentError('split', `"${split}"; expected one of ${HOUSEHOLD_SPLITS.join(', ')}`);
      }
      const seed = load.seed ?? defaultSeed;
      const limit = load.limit ?? ALFWORLD_SPLIT_SIZES[split];
      if (!Number.isInteger(limit) || limit < 0) {
        throw new InvalidArgumentError('limit', `expected an integer >= 0, got ${limit}`);
      }
      const tasks: Task[] = [];
      for (let index = 0; index < limit; index++) {
        const { game, room } = generateGame({ split, seed, index });
        tasks.push(
          taskOf(game, `household/${split}/${seed}/${index}`, split, {
            source: 'generated',
            seed,
            index,
            room,
          }),
        );
      }
      return tasks;
    },
    createEnvironment(task: Task): HouseholdEnvironment {
      return new HouseholdEnvironment(gameFor(task), envOptions);
    },
    verifier: () => householdVerifier(),
    skills: householdSkills,
    stepVocabulary,
    gameFor,
  };
}
