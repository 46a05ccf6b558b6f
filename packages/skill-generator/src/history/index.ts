export { type RenderHistoryOptions, renderHistory } from './render-history.js';
export {
  type EpisodeNote,
  type FailureSummary,
  type HistorySummary,
  type SkillNote,
  type SummarizeHistoryOptions,
  summarizeHistory,
} from './summarize-history.js';
