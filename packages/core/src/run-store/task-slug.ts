/**
 * A task id as a folder name in a run directory (`household/train/1/0` → `household-train-1-0`): the
 * orchestrator writes `skills/<gen>/<slug>/…` with it and the report reads them back, so both use this one rule.
 */
export function taskSlug(taskId: string): string {
  return taskId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'task';
}
