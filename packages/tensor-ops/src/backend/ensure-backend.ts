import * as tf from '@tensorflow/tfjs';
import {
  type BackendInfo,
  type InitBackendOptions,
  initBackend,
  latestBackendChoice,
} from './init-backend.js';

/**
 * The backend `initBackend` chose, while it is still the active one; otherwise `initBackend(options)`.
 * What a component that computes with tfjs but asks for no backend of its own calls before its first
 * tensor (the step editor, the skill-reading agent, the tfjs trainer without `backend`): the first of them
 * in a process chooses (tfjs-node-gpu, tfjs-node, wasm, cpu), the others share that choice and its promise,
 * and a choice the program made first (`initBackend({ prefer: 'cpu' })`, `SKILLRL_TF_BACKEND`) stands.
 * Without it, tfjs starts its pure-JS cpu backend at the first tensor, and prints its banner.
 */
export async function ensureBackend(options: InitBackendOptions = {}): Promise<BackendInfo> {
  const chosen = latestBackendChoice();
  if (chosen !== undefined) {
    try {
      const info = await chosen;
      if (tf.getBackend() === info.tfBackend) return info;
    } catch {
      // That choice failed (and is no longer cached): choose again below.
    }
  }
  return initBackend(options);
}
