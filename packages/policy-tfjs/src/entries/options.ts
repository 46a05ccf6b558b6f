/**
 * @skillrl/policy-tfjs/options — the option vocabularies and checks of the skill-reading agent and the tfjs
 * trainer, without tfjs: what `skillrl check` imports. The root entry (which loads tfjs) exports them too.
 */

export {
  checkSkillReadingAgentOptions,
  SKILL_READING_AGENT_CONFIG_OPTIONS,
  SKILL_READING_AGENT_OPTIONS,
} from '../agent/check-skill-reading-agent-options.js';
export { checkTfjsTrainerOptions, TFJS_TRAINER_OPTIONS } from '../train/check-tfjs-trainer-options.js';
