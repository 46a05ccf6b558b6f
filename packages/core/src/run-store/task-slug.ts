/**
 * A task id as one folder name in a run directory (`household/train/1/0` → `household-train-1-0`): no
 * separators and no leading or trailing dots, so `..` can never climb out of the skills folder. The orchestrator
 * writes `skills/<gen>/<slug>/…` with it and the report reads them back, so both use this one rule.
 */
export function taskSlug(taskId: string): string {
  return taskId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'task';
}
