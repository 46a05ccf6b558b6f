export interface TokenData {
  tokenIds?: number[];
  logProbs?: number[];
  logProb?: number;
}

interface ChoiceLike {
  logprobs?: { content?: { token: string; logprob: number }[] | null } | null;
  /** vLLM's `return_token_ids` field (and the fake server's). */
  token_ids?: unknown;
}

const TOKEN_ID = /^token_id:(\d+)$/;

/**
 * Token ids and per-token log-probs from a completion choice, when the server sent them. Ids come from
 * `choice.token_ids` (vLLM `return_token_ids`), or from tokens spelled `token_id:N` (vLLM
 * `return_tokens_as_token_ids`). `logProb` is the sum over the reply's tokens.
 */
export function extractTokens(choice: ChoiceLike): TokenData {
  const out: TokenData = {};
  const content = choice.logprobs?.content;
  if (Array.isArray(content) && content.length > 0) {
    out.logProbs = content.map((t) => t.logprob);
    out.logProb = out.logProbs.reduce((a, b) => a + b, 0);
    const ids = content.map((t) => TOKEN_ID.exec(t.token)?.[1]);
    if (ids.every((id) => id !== undefined)) out.tokenIds = ids.map(Number);
  }
  const ids = choice.token_ids;
  if (Array.isArray(ids) && ids.every((id) => Number.isInteger(id))) out.tokenIds = ids as number[];
  return out;
}
