import { describe, expect, it } from 'vitest';
import { extractTokens } from './extract-tokens.js';

describe('extractTokens', () => {
  it('keeps log-probs, their sum, and token ids from token_ids or token_id:N tokens', () => {
    const content = [
      { token: 'a', logprob: -0.5 },
      { token: ' b', logprob: -0.25 },
    ];
    // Sum: -0.5 + -0.25 = -0.75.
    expect(extractTokens({ logprobs: { content }, token_ids: [3, 9] })).toEqual({
      logProbs: [-0.5, -0.25],
      logProb: -0.75,
      tokenIds: [3, 9],
    });
    const asIds = [
      { token: 'token_id:17', logprob: -1 },
      { token: 'token_id:4', logprob: -2 },
    ];
    expect(extractTokens({ logprobs: { content: asIds } }).tokenIds).toEqual([17, 4]);
    expect(extractTokens({ logprobs: null })).toEqual({});
    expect(extractTokens({ token_ids: ['x'] })).toEqual({});
  });
});
