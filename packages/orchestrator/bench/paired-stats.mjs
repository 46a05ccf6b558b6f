// The bench's paired statistics are the package's own (src/stats/paired-stats.ts, exported as `pairedStats`):
// the same functions `skillrl skills test` measures a skill's utility with. Build first.
import { pairedStats } from '../dist/index.js';

export const {
  mean,
  sd,
  se,
  finite,
  incompleteBeta,
  tCdf,
  tQuantile,
  tInterval,
  pairBySeed,
  verdict,
  pairedDifference,
  seededRandom,
  pairedBootstrap,
} = pairedStats;
