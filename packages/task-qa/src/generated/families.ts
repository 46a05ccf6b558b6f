import { arithmeticFamily } from './arithmetic-family.js';
import { countdownFamily, game24Family } from './countdown-family.js';
import type { GeneratedFamily } from './generated-family.js';
import { knightsFamily } from './knights-family.js';

/** The offline families, by name. */
export const GENERATED_FAMILIES: Readonly<Record<string, GeneratedFamily>> = {
  arithmetic: arithmeticFamily,
  countdown: countdownFamily,
  game24: game24Family,
  knights: knightsFamily,
};
