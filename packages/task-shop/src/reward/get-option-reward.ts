import { normalizeColor, type OptionValue } from './normalize-color.js';
import { tokenSetRatio } from './token-set-ratio.js';

/**
 * Port of `get_option_reward(purchased_options, goal_options)` → `[r_option | null, matches]`. Both sides
 * are colour-normalised, then each goal option counts once if some chosen option has token-set ratio > 85.
 * `r_option` is null when the goal has no options.
 */
export function getOptionReward(
  purchasedOptions: readonly string[],
  goalOptions: readonly OptionValue[],
): [number | null, number] {
  const purchased = purchasedOptions.map((option) => normalizeColor(option));
  const goals = goalOptions.map((option) => normalizeColor(option));
  let matches = 0;
  for (const goalOption of goals) {
    for (const chosen of purchased) {
      if (tokenSetRatio(chosen, goalOption) > 85) {
        matches += 1;
        break;
      }
    }
  }
  return [goals.length > 0 ? matches / goals.length : null, matches];
}
