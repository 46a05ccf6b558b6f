import {
  booleanOption,
  codeOption,
  integerOption,
  nestedOptions,
  numberOption,
  type OptionCheck,
  type OptionRules,
  optionCheck,
  recordOption,
  seedOption,
  stringOption,
} from '@skillrl/core';
import type { AgentConfig } from '../model/agent-config.js';
import type { SkillReadingAgentOptions } from './create-skill-reading-agent.js';

const CONFIG: OptionRules<AgentConfig> = {
  dim: integerOption(1),
  observationWords: integerOption(1),
  goalWords: integerOption(1),
  historyActions: integerOption(1),
  memoryActions: integerOption(0),
  hidden: integerOption(1),
  priorScale: numberOption(),
  priorSharpness: numberOption(),
  priorDone: numberOption(),
  priorRank: numberOption(),
  repeatBias: numberOption(),
  earlierActionsFeature: booleanOption,
  synonyms: recordOption(stringOption(), 'a map of verb → verb'),
  inverses: recordOption(stringOption(), 'a map of verb → verb'),
};

const RULES: OptionRules<SkillReadingAgentOptions> = {
  // The orchestrator builds it from the adapter (`vocabularyFromAdapter`).
  vocabulary: codeOption('object', 'a vocabulary, e.g. vocabularyFromAdapter(adapter)'),
  seed: seedOption,
  config: nestedOptions(CONFIG, 'skill-reading network config'),
  parameters: codeOption('object', 'weights (AgentParameters)'),
  temperature: numberOption('a number > 0', (n) => n > 0),
  greedy: booleanOption,
  bindings: codeOption('function', 'a function of the task'),
  expandActions: codeOption('function', 'a function of the admissible actions'),
};

/** The skill-reading agent's options (`createSkillReadingAgent`; `agent: { name: skill-reading, options }`). */
export const SKILL_READING_AGENT_OPTIONS: readonly string[] = Object.keys(RULES);

/** The network's settings under `options.config` (`AgentConfig`). */
export const SKILL_READING_AGENT_CONFIG_OPTIONS: readonly string[] = Object.keys(CONFIG);

/**
 * Every problem with the skill-reading agent's options, by path: unknown names (with the one meant), here
 * and under `config`, and wrong types. Loads no tfjs.
 */
export const checkSkillReadingAgentOptions: OptionCheck = optionCheck(
  RULES,
  'skill-reading agent',
  '$.agent.options',
);
