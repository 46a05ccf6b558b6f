/** Size of the fake vocabulary that token ids are drawn from. */
export const FAKE_VOCAB_SIZE = 100_000;

/**
 * Splits text into fake tokens: each run of non-space characters with the whitespace before it. Joining the
 * tokens gives back the text exactly, which is what a client reassembling a stream relies on.
 */
export function fakeTokenize(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A stable id for a fake token: the same token string always maps to the same id. */
export function fakeTokenId(token: string): number {
  return fnv1a(token) % FAKE_VOCAB_SIZE;
}

/** A log-prob in (-2.5, 0], a pure function of the seed, the token and its position. */
export function fakeLogProb(seed: number, position: number, token: string): number {
  return -(fnv1a(`${seed}:${position}:${token}`) / 4294967296) * 2.5;
}

export interface FakeTokenLogProb {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

function bytesOf(token: string): number[] {
  return Array.from(Buffer.from(token, 'utf8'));
}

/**
 * OpenAI's `choices[i].logprobs.content` entries for `tokens`. The chosen token is always the most likely of
 * its `top` alternatives, and the alternatives are strictly less likely, as a greedy decoder would report.
 */
export function fakeLogProbs(seed: number, tokens: string[], top: number, offset = 0): FakeTokenLogProb[] {
  return tokens.map((token, i) => {
    const logprob = fakeLogProb(seed, offset + i, token);
    const alternatives: FakeTokenLogProb['top_logprobs'] = [];
    for (let k = 0; k < top; k++) {
      const alt = k === 0 ? token : `${token}~${k}`;
      const lp = k === 0 ? logprob : logprob - k * 0.75;
      alternatives.push({ token: alt, logprob: lp, bytes: bytesOf(alt) });
    }
    return { token, logprob, bytes: bytesOf(token), top_logprobs: alternatives };
  });
}
