// The bench's paired statistics are core's (`pairedStats`): the same functions `skillrl skills test` measures a
// skill's utility with. Build first.
import { pairedStats } from '@skillrl/core';

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
  pairedBootstrap,
  pairByTask,
  hierarchicalBootstrap,
  binomialSe,
  fCdf,
  fQuantile,
  sdRatio,
} = pairedStats;
