export { writeFileAtomic } from './atomic-write.js';
export {
  CHECKPOINT_DIR,
  openRunStore,
  type RecoveryReport,
  type RunStore,
  type RunStoreOptions,
  type Snapshot,
} from './open-run-store.js';
export { taskSlug } from './task-slug.js';
