import household from '@skillrl/task-household';
import { createSkillReadingAgent, type SkillReadingAgent } from '../agent/create-skill-reading-agent.js';
import type { AgentConfig } from '../model/agent-config.js';
import type { Vocabulary } from '../text/vocabulary.js';
import { vocabularyFromAdapter } from '../text/vocabulary-from-adapter.js';

let vocabulary: Promise<Vocabulary> | undefined;

/** The household vocabulary, built once per test file (seeded random walks over 60 train tasks). */
export function householdVocabulary(): Promise<Vocabulary> {
  vocabulary ??= vocabularyFromAdapter(household, { seed: 'policy-tfjs-tests' });
  return vocabulary;
}

export async function householdAgent(seed = 1, config?: Partial<AgentConfig>): Promise<SkillReadingAgent> {
  return createSkillReadingAgent({
    vocabulary: await householdVocabulary(),
    seed,
    ...(config && { config }),
  });
}

export { household };
