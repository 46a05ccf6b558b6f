/**
 * The run directory's `run.json`: what the orchestrator writes when a run starts, and what readers of a run
 * directory (resume, `skillrl eval <run-dir>`, the export to other trainers) need to know which method
 * wrote the streams, which config file it came from, and which components it resolved.
 */
export interface RunManifest {
  runId: string;
  method: 'evolve' | 'internalize';
  /** The config file the run started from: packages resolve from its directory. */
  configPath: string;
  /** Each component as resolved (`registry:household`, `package:my-adapter#createAdapter`). */
  components: Record<string, string>;
}
