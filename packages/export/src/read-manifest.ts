import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, type RunManifest } from '@skillrl/core';

/** The run directory's run.json (which method wrote the streams), or an error saying it is not one. */
export function readManifest(dir: string): RunManifest {
  const path = join(dir, 'run.json');
  if (!existsSync(path)) {
    throw new InvalidArgumentError('run directory', `${dir} has no run.json; is it a skillrl run directory?`);
  }
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunManifest;
  } catch (cause) {
    throw new InvalidArgumentError(
      'run directory',
      `${path} could not be read as JSON (${(cause as Error).message}); restore it from a copy of the run directory`,
      { cause },
    );
  }
}
