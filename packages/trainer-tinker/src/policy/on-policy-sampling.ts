import { InvalidArgumentError } from '@skillrl/core';

/** The sampling settings that decide whose distribution a sample comes from. */
export interface SamplingSettings {
  temperature?: number | undefined;
  topP?: number | undefined;
  topK?: number | undefined;
}

/** Why a trained policy must sample from its own distribution (said once, in every refusal). */
export const ON_POLICY_REASON =
  "the importance ratio of Tinker's losses (learner / sampler log-prob of each sampled token) assumes the tokens were sampled from the policy's own distribution; a temperature other than 1, top-p or top-k sample from another one, and the sampler's log-probs no longer describe how the tokens were drawn";

/**
 * The settings that sample from another distribution than the policy's own, each with its path and what to do:
 * `temperature` other than 1, `topP` other than 1, `topK` other than -1 (Tinker's "off"). Empty when on-policy.
 */
export function offPolicySettings(
  settings: SamplingSettings,
  path = 'options',
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const say = (key: string, value: unknown, fix: string) =>
    issues.push({
      path: `${path}.${key}`,
      message: `is ${JSON.stringify(value)} while the policy is trained, but ${ON_POLICY_REASON}; ${fix}, or sample without training (evaluation)`,
    });
  if (settings.temperature !== undefined && settings.temperature !== 1)
    say('temperature', settings.temperature, 'set temperature: 1');
  if (settings.topP !== undefined && settings.topP !== 1) say('topP', settings.topP, 'drop topP');
  if (settings.topK !== undefined && settings.topK !== -1) say('topK', settings.topK, 'drop topK');
  return issues;
}

/** Throws on the first off-policy setting (`offPolicySettings`), naming it and why. */
export function assertOnPolicySampling(settings: SamplingSettings, path = 'options'): void {
  const [first] = offPolicySettings(settings, path);
  if (first) throw new InvalidArgumentError(first.path, first.message);
}
