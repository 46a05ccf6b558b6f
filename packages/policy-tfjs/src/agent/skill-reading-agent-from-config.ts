import { MissingFieldError, type TaskAdapter } from '@skillrl/core';
import { vocabularyFromAdapter } from '../text/vocabulary-from-adapter.js';
import {
  createSkillReadingAgent,
  type SkillReadingAgent,
  type SkillReadingAgentOptions,
} from './create-skill-reading-agent.js';

/**
 * The skill-reading agent as a config names it (`agent: skill-reading`): its vocabulary is the adapter's own
 * words (`vocabularyFromAdapter`), and it is returned once its tfjs backend is chosen (`ready()`), before the
 * run's first tensor, which would otherwise start tfjs's slow cpu backend and print its banner.
 */
export async function createSkillReadingAgentFromConfig(
  options: Readonly<Record<string, unknown>>,
  { seed, adapter }: { seed: number; adapter?: TaskAdapter },
): Promise<SkillReadingAgent> {
  if (!adapter) throw new MissingFieldError('skill-reading agent', 'adapter');
  const vocabulary = await vocabularyFromAdapter(adapter);
  const agent = createSkillReadingAgent({ seed, ...options, vocabulary } as SkillReadingAgentOptions);
  await agent.ready();
  return agent;
}
