/** `jsonl`: the flat rows of earlier versions; `trl`: TRL conversational rows; `verl`: verl agent-loop rows. */
export type ExportFormat = 'jsonl' | 'trl' | 'verl';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'trl', 'verl'];

/** Where `exportRun` writes each layout inside the run directory when no `out` is given. */
export const DEFAULT_EXPORT_FILES: Readonly<Record<ExportFormat, string>> = {
  jsonl: 'export.jsonl',
  trl: 'export-trl.jsonl',
  verl: 'export-verl.jsonl',
};
