/** Token accounting for one model call, one trajectory, or a whole run. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Model calls that made up this usage. */
  requests?: number;
  /** Cost in the currency of the user's price table, when one was given. */
  cost?: number;
}
