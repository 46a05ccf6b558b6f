import { type Agent, MissingFieldError } from '@skillrl/core';
import type { SkillReadingAgent } from '../agent/create-skill-reading-agent.js';
import { createTfjsTrainer, type TfjsTrainer, type TfjsTrainerOptions } from './create-tfjs-trainer.js';

/** The tfjs trainer as a config names it (`internalize.trainer: tfjs`): it trains the run's skill-reading agent. */
export function createTfjsTrainerFromConfig(
  options: Readonly<Record<string, unknown>>,
  { agent }: { agent?: Agent },
): TfjsTrainer {
  if (!agent) throw new MissingFieldError('tfjs trainer', 'agent');
  return createTfjsTrainer(agent as SkillReadingAgent, options as TfjsTrainerOptions);
}
