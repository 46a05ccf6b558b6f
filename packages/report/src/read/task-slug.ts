/**
 * A task id as the orchestrator names its folder under `skills/<gen>/` (`household/train/1/0` →
 * `household-train-1-0`). Kept in step with the orchestrator's own rule, which this package cannot import.
 */
export function taskSlug(taskId: string): string {
  return taskId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'task';
}
