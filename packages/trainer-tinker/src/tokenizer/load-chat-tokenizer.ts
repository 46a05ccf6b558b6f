import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import { InvalidArgumentError } from '@skillrl/core';

/** One message as a chat template reads it. */
export interface TemplateMessage {
  role: string;
  content: string;
}

/**
 * A model's own tokenizer and chat template, from its local `tokenizer.json` and `tokenizer_config.json`
 * (the files of a Hugging Face model folder): the prompt of every turn is rendered the way the model was
 * trained to read it, and tokenized as the model does. Nothing is downloaded.
 */
export interface ChatTokenizer {
  /** Where it was loaded from. */
  readonly source: string;
  readonly vocabSize: number;
  /** Tokens that end a reply: the config's `eos_token` (and `stopTokens` when given). */
  readonly stopTokenIds: number[];
  /** The chat template applied to `messages`, with the generation prompt. */
  render(messages: readonly TemplateMessage[], options?: { addGenerationPrompt?: boolean }): string;
  /** Token ids of a text, with no special tokens added around it (the template writes its own). */
  encode(text: string): number[];
  /** Text of token ids, special tokens dropped. */
  decode(ids: readonly number[]): string;
  /** `render` then `encode`. */
  promptTokens(messages: readonly TemplateMessage[]): number[];
}

export interface ChatTokenizerOptions {
  /** More tokens that end a reply (by their text, e.g. `<|endoftext|>`). */
  stopTokens?: string[];
  /** A chat template to use instead of the config's `chat_template`. */
  chatTemplate?: string;
}

function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return undefined;
}

function readJson(path: string, what: string): Record<string, unknown> {
  if (!existsSync(path)) throw new InvalidArgumentError(what, `${path} does not exist`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidArgumentError(what, `${path} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Loads a chat tokenizer from a folder holding `tokenizer.json` and `tokenizer_config.json` (what
 * `huggingface-cli download <model> tokenizer.json tokenizer_config.json` fetches), with
 * `@huggingface/tokenizers` for the tokenizer and `@huggingface/jinja` for the chat template.
 */
export function loadChatTokenizer(dir: string, options: ChatTokenizerOptions = {}): ChatTokenizer {
  const tokenizerJson = readJson(join(dir, 'tokenizer.json'), 'tokenizer');
  const config = readJson(join(dir, 'tokenizer_config.json'), 'tokenizer');
  return chatTokenizerFrom(tokenizerJson, config, { ...options, source: dir });
}

/** The same from the two files' parsed contents. */
export function chatTokenizerFrom(
  tokenizerJson: Record<string, unknown>,
  config: Record<string, unknown>,
  options: ChatTokenizerOptions & { source?: string } = {},
): ChatTokenizer {
  const source = options.source ?? '(in memory)';
  const templateText = options.chatTemplate ?? config.chat_template;
  let chatTemplate: string | undefined;
  if (typeof templateText === 'string') chatTemplate = templateText;
  else if (Array.isArray(templateText)) {
    // Some configs carry several named templates; "default" is the chat one.
    const named = templateText as { name?: string; template?: string }[];
    chatTemplate = (named.find((t) => t.name === 'default') ?? named[0])?.template;
  }
  if (!chatTemplate) {
    throw new InvalidArgumentError(
      'tokenizer',
      `${source}: tokenizer_config.json has no chat_template; give one as the chatTemplate option`,
    );
  }
  const tokenizer = new Tokenizer(tokenizerJson, config);
  const template = new Template(chatTemplate);
  const special: Record<string, string> = {};
  for (const key of ['bos_token', 'eos_token', 'pad_token', 'unk_token']) {
    const text = tokenText(config[key]);
    if (text !== undefined) special[key] = text;
  }
  const stopTexts = [special.eos_token, ...(options.stopTokens ?? [])].filter(
    (t): t is string => typeof t === 'string',
  );
  const stopTokenIds = [
    ...new Set(stopTexts.map((t) => tokenizer.token_to_id(t)).filter((id): id is number => id !== undefined)),
  ];
  if (stopTokenIds.length === 0) {
    throw new InvalidArgumentError(
      'tokenizer',
      `${source}: no stop token (tokenizer_config.json's eos_token is ${JSON.stringify(special.eos_token ?? null)}); give stopTokens`,
    );
  }
  const vocabSize = tokenizer.get_vocab(true).size;
  const render = (
    messages: readonly TemplateMessage[],
    renderOptions: { addGenerationPrompt?: boolean } = {},
  ) =>
    template.render({
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      add_generation_prompt: renderOptions.addGenerationPrompt ?? true,
      ...special,
    });
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;
  return {
    source,
    vocabSize,
    stopTokenIds,
    render,
    encode,
    decode: (ids) => (ids.length === 0 ? '' : tokenizer.decode([...ids], { skip_special_tokens: true })),
    promptTokens: (messages) => encode(render(messages)),
  };
}
