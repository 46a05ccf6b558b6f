import { InvalidArgumentError } from '@skillrl/core';
import { type ConfigOverride, parseOverride } from '@skillrl/orchestrator';
import { CommanderError } from 'commander';

/** `--set path=value`, repeatable, checked as it is read (a malformed one is a usage error). */
export function collectOverride(value: string, previous: ConfigOverride[]): ConfigOverride[] {
  return collect(value, previous, {});
}

/** `run --set`: any path, since a new run computes what its config says; the result is checked. */
export function collectRunOverride(value: string, previous: ConfigOverride[]): ConfigOverride[] {
  return collect(value, previous, { anyPath: true });
}

function collect(
  value: string,
  previous: ConfigOverride[],
  options: { anyPath?: boolean },
): ConfigOverride[] {
  try {
    return [...previous, parseOverride(value, options)];
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) {
      throw new CommanderError(2, 'skillrl.set', error.message);
    }
    throw error;
  }
}
