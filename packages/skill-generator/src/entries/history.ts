/** @skillrl/skill-generator/history — history summaries editors condition on (no tfjs, no LLM client). */

export * from '../history/index.js';
