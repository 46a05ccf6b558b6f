import { importBuiltin, type ModuleNamespace } from '../components/import-package.js';

/**
 * @skillrl/queue, an optional peer: imported only when a config sets `workers` or `skillrl worker` runs.
 * Typed by the caller (`loadQueue<typeof import('@skillrl/queue')>(…)`): the queue's types are an optional
 * peer's, so this package's published declarations do not name them.
 */
export async function loadQueue<Queue = ModuleNamespace>(configPath: string): Promise<Queue> {
  return (await importBuiltin(
    '@skillrl/queue',
    'rollout workers (the config sets `workers`)',
    configPath,
  )) as unknown as Queue;
}
