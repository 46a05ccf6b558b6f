import type { RunEvent } from '@skillrl/core';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Keeps an event only when the fields the report reads have the right types, so a record written by an
 * older or foreign loop is dropped (and counted) rather than drawn as NaN or crashing the page.
 */
export function checkEvent(value: unknown): RunEvent | undefined {
  if (!isObj(value) || !isStr(value.type)) return undefined;
  switch (value.type) {
    case 'run:start':
      return isStr(value.method) ? (value as unknown as RunEvent) : undefined;
    case 'rollout':
      return isStr(value.taskId) &&
        isStr(value.family) &&
        (value.condition === 0 || value.condition === 1) &&
        isNum(value.reward) &&
        typeof value.passed === 'boolean'
        ? (value as unknown as RunEvent)
        : undefined;
    case 'generation':
      return isStr(value.taskId) &&
        isNum(value.generation) &&
        isNum(value.meanReward) &&
        isNum(value.bestReward)
        ? (value as unknown as RunEvent)
        : undefined;
    case 'step':
      return isNum(value.step) && isObj(value.metrics) ? (value as unknown as RunEvent) : undefined;
    case 'validation':
      return isNum(value.step) && isObj(value.validation) && isObj(value.validation.families)
        ? (value as unknown as RunEvent)
        : undefined;
    case 'checkpoint':
      return isNum(value.step) ? (value as unknown as RunEvent) : undefined;
    case 'run:end':
      return isStr(value.status) ? (value as unknown as RunEvent) : undefined;
    default:
      return undefined;
  }
}

export { isNum, isObj, isStr };
