import { checkTokenizer } from '../tokenizer/check-tokenizer.js';
import type { ChatTokenizer } from '../tokenizer/load-chat-tokenizer.js';
import type { TinkerModelsResource } from './resources/models.js';

/**
 * Asks the service which tokenizer a training run's model uses (`get_info`'s `model_data.tokenizer_id`) and
 * checks the loaded tokenizer against it (see `checkTokenizer`): a folder for the wrong model is refused
 * with a `TinkerTokenizerMismatchError` before anything is sampled or trained.
 */
export async function verifyModelTokenizer(
  client: Pick<TinkerModelsResource, 'getInfo'>,
  modelId: string,
  tokenizer: Pick<ChatTokenizer, 'source'> & { names?: readonly string[] },
  options: { acceptMismatch?: boolean; signal?: AbortSignal } = {},
): Promise<{ tokenizerId: string | null; result: 'match' | 'unverified' | 'accepted' }> {
  const info = await client.getInfo(modelId, options.signal);
  const tokenizerId = info.model_data?.tokenizer_id ?? null;
  return {
    tokenizerId,
    result: checkTokenizer(tokenizer, tokenizerId, options.acceptMismatch ? { acceptMismatch: true } : {}),
  };
}
