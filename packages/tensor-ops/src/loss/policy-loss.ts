import { InvalidArgumentError, RegistryError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { cispoLoss } from './cispo-loss.js';
import { gpgLoss } from './gpg-loss.js';
import { gspoLoss } from './gspo-loss.js';
import type {
  PolicyLossFn,
  PolicyLossInput,
  PolicyLossOutput,
  ResolvedPolicyLossInput,
} from './policy-loss-types.js';
import { sapoLoss } from './sapo-loss.js';
import { vanillaLoss } from './vanilla-loss.js';

// verl's names, so a verl config's `loss_mode` vocabulary carries over.
const registry = new Map<string, PolicyLossFn>([
  ['vanilla', vanillaLoss],
  ['gspo', gspoLoss],
  ['cispo', cispoLoss],
  ['gpg', gpgLoss],
  ['sapo', sapoLoss],
]);

/**
 * Registers a policy loss under a name. Registering the same function twice is a no-op; a different
 * function under a taken name throws, so two plugins cannot silently shadow each other.
 */
export function registerPolicyLoss(name: string, fn: PolicyLossFn): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidArgumentError('name', 'expected a non-empty string');
  }
  const existing = registry.get(name);
  if (existing !== undefined && existing !== fn) throw new RegistryError('policy loss', name, 'duplicate');
  registry.set(name, fn);
}

export function getPolicyLoss(name: string): PolicyLossFn {
  const fn = registry.get(name);
  if (fn === undefined) throw new RegistryError('policy loss', name, 'unknown', listPolicyLosses());
  return fn;
}

export function listPolicyLosses(): string[] {
  return [...registry.keys()];
}

function checkNumber(name: string, value: number, ok: (v: number) => boolean, expected: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || !ok(value)) {
    throw new InvalidArgumentError(name, `expected ${expected}, got ${String(value)}`);
  }
  return value;
}

function check2d(name: string, t: tf.Tensor, shape: readonly number[] | undefined): void {
  if (t.rank !== 2) throw new InvalidArgumentError(name, `expected a [B, T] tensor, got shape [${t.shape}]`);
  if (shape !== undefined && (t.shape[0] !== shape[0] || t.shape[1] !== shape[1])) {
    throw new InvalidArgumentError(name, `expected shape [${shape}] like logProbs, got [${t.shape}]`);
  }
}

/** Fills defaults, checks shapes and ranges, and broadcasts `[B]` advantages to `[B, T]`. */
export function resolvePolicyLossInput(input: PolicyLossInput): ResolvedPolicyLossInput {
  const { logProbs, oldLogProbs, advantages, mask } = input;
  check2d('logProbs', logProbs, undefined);
  check2d('oldLogProbs', oldLogProbs, logProbs.shape);
  check2d('mask', mask, logProbs.shape);
  const shape = logProbs.shape as [number, number];
  if (advantages.rank === 1 ? advantages.shape[0] !== shape[0] : advantages.rank !== 2) {
    throw new InvalidArgumentError(
      'advantages',
      `expected shape [${shape[0]}] or [${shape}], got [${advantages.shape}]`,
    );
  }
  if (advantages.rank === 2) check2d('advantages', advantages, shape);
  const clipLow = checkNumber('clipLow', input.clipLow ?? 0.2, (v) => v >= 0 && v < 1, 'a number in [0, 1)');
  const clipHigh = checkNumber('clipHigh', input.clipHigh ?? clipLow, (v) => v >= 0, 'a number >= 0');
  const dualClip =
    input.dualClip === false
      ? false
      : checkNumber('dualClip', input.dualClip ?? 3, (v) => v > 1, 'a number > 1 (or false to disable)');
  const logRatioClamp = checkNumber('logRatioClamp', input.logRatioClamp ?? 20, (v) => v > 0, 'a number > 0');
  const tauPos = checkNumber('tauPos', input.tauPos ?? 1, (v) => v > 0, 'a number > 0');
  const tauNeg = checkNumber('tauNeg', input.tauNeg ?? 1.05, (v) => v > 0, 'a number > 0');
  const adv2d =
    advantages.rank === 2
      ? (advantages as tf.Tensor2D)
      : tf.tidy(() => tf.broadcastTo(tf.reshape(advantages, [shape[0], 1]), shape) as tf.Tensor2D);
  return {
    logProbs: logProbs as tf.Tensor2D,
    oldLogProbs: oldLogProbs as tf.Tensor2D,
    advantages: adv2d,
    mask: mask as tf.Tensor2D,
    clipLow,
    clipHigh,
    dualClip,
    logRatioClamp,
    tauPos,
    tauNeg,
  };
}

/**
 * The per-token policy loss of `kind` (`vanilla`, `gspo`, `cispo`, `gpg`, `sapo`, or a registered name)
 * and its diagnostics. Aggregate the `[B, T]` loss with `aggregateLoss`; dispose the outputs when done
 * (or call inside `tf.tidy`).
 */
export function policyLoss(kind: string, input: PolicyLossInput): PolicyLossOutput {
  const fn = getPolicyLoss(kind);
  const resolved = resolvePolicyLossInput(input);
  try {
    return fn(resolved);
  } finally {
    if (resolved.advantages !== input.advantages) resolved.advantages.dispose();
  }
}
