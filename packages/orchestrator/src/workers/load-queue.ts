import type * as Queue from '@skillrl/queue';
import { importBuiltin } from '../components/import-package.js';

/** @skillrl/queue, an optional peer: imported only when a config sets `workers` or `skillrl worker` runs. */
export async function loadQueue(configPath: string): Promise<typeof Queue> {
  return (await importBuiltin(
    '@skillrl/queue',
    'rollout workers (the config sets `workers`)',
    configPath,
  )) as unknown as typeof Queue;
}
