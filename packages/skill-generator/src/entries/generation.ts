/**
 * @skillrl/skill-generator/generation — Skill-R1's generation step (history, candidate checks and fallback,
 * carry), as the orchestrator runs it. Loads no tfjs and no LLM client: the editor comes in as a port.
 */

export * from '../generation/index.js';
