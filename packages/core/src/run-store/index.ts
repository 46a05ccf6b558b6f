export { writeFileAtomic } from './atomic-write.js';
// Damaged records: found before a resume starts (`checkRunStreams`), moved to damaged/ on request.
export { checkRunStreams, type DamagedRecord, formatDamagedRecord } from './check-run-streams.js';
export {
  DAMAGED_DIR,
  type DamagedEntry,
  type DroppedRecords,
  dropDamagedRecords,
} from './drop-damaged-records.js';
export {
  bufferLines,
  gzipFileLines,
  type JsonlLine,
  type JsonlTail,
  plainFileLines,
} from './jsonl-lines.js';
// The run directory's identity (run.json) and how its last run ended (events).
export { lastRunEnd } from './last-run-end.js';
// The one reader of "the latest record per rollout id" (a re-run rollout replaces its errored record).
export { LatestRecords, readLatestRecords, recordIdOf } from './latest-records.js';
export {
  CHECKPOINT_DIR,
  openRunStore,
  type RecoveryReport,
  type RunStore,
  type RunStoreOptions,
  type Snapshot,
} from './open-run-store.js';
// Read-only, bounded-memory reads of a run directory's streams, whichever layout wrote them.
export {
  type ReadRunStreamOptions,
  type RunStreamLine,
  readRunStream,
  readRunStreamEntries,
  readRunStreamLines,
  type StreamReadNote,
} from './read-run-stream.js';
export type { RunManifest } from './run-manifest.js';
export { SEGMENT_DIR, type StreamFile, streamFiles } from './stream-segments.js';
export { taskSlug } from './task-slug.js';
