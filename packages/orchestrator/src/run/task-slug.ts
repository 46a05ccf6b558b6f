/**
 * A task id made safe as one folder name (`household/train/1/0` → `household-train-1-0`): no separators, and
 * no leading or trailing dots, so `..` can never climb out of the skills folder.
 */
export function taskSlug(taskId: string): string {
  return taskId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'task';
}
