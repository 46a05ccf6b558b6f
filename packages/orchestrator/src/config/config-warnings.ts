import { createRng } from '@skillrl/core';
import { resolveComponent } from '../components/resolve-component.js';
import { retirementWarnings } from './check-retirement.js';
import type { LoadedConfig } from './config-types.js';

/**
 * What a config can run but will not do as it says (a validation that can never retire a skill type):
 * `skillrl check` prints these as warnings after every component resolved; `run` says the same before it
 * starts. Never a reason to refuse the config.
 */
export async function configWarnings(loaded: LoadedConfig): Promise<string[]> {
  const { config, path } = loaded;
  if (config.adapter === undefined) return [];
  let adapter: Awaited<ReturnType<typeof resolveComponent>>['value'];
  try {
    adapter = (
      await resolveComponent('adapter', config.adapter, {
        seed: createRng(config.seed).seedFor('component:adapter'),
        configPath: path,
      })
    ).value;
  } catch {
    // An adapter that does not resolve is `check`'s error, reported there.
    return [];
  }
  return retirementWarnings(config, adapter as Parameters<typeof retirementWarnings>[1]);
}
