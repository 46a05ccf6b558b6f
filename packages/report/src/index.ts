/**
 * @skillrl/report — a self-contained HTML report of a skillrl run directory: Skill-R1 reward per generation
 * and the best skill's diffs, SKILLC success with and without skills, the gap, λ/ρ and retirements.
 */

// Build the page (and its summary) from a run directory, or write it as <run-dir>/report.html.
export { buildReport } from './build-report.js';
export { type WrittenReport, writeReport } from './write-report.js';
// Options and the summary the caller gets back (the CLI prints it).
export type {
  BuildReportOptions,
  FamilySummary,
  ReportResult,
  ReportSummary,
  RunMethod,
  RunStatus,
  SuccessCount,
} from './report-types.js';
// The line diff shown between generations of a skill, for callers that print it elsewhere.
export { type DiffLine, diffSkills, type SkillDiff } from './diff/skill-diff.js';
// A chart as plain data, and the palette every chart shares: `skillrl serve` draws its charts from the same shape.
export {
  type ChartMarker,
  type ChartSeries,
  type ChartSpec,
  colorAt,
} from './view/chart-spec.js';
