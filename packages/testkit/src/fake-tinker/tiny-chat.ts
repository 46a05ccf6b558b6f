import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeBaseModelSpec } from './lora-model.js';

/** The base model names the tiny-chat fixture defines. */
export const TINY_CHAT_MODEL = 'skillrl/tiny-chat';
export const TINY_EDITOR_MODEL = 'skillrl/tiny-editor';

let cached: string | undefined;

/**
 * The folder of the tiny-chat fixture shipped with the testkit: `tokenizer.json` and `tokenizer_config.json`
 * (a word-level Hugging Face tokenizer with a ChatML chat template, 157 tokens) and `base-models.json`
 * (what the fake Tinker server's base models are counted from). Nothing is downloaded: tests point a
 * tokenizer option at this folder.
 */
export function tinyChatDir(): string {
  if (cached) return cached;
  // From src/fake-tinker/ in the repository, or dist/ when installed.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'fixtures', 'tiny-chat');
    if (existsSync(join(candidate, 'tokenizer.json'))) {
      cached = candidate;
      return candidate;
    }
    dir = dirname(dir);
  }
  throw new Error('the tiny-chat fixture is missing from @skillrl/testkit (expected fixtures/tiny-chat/)');
}

/** The fixture's base models, as `startFakeTinker({ baseModels })` takes them. */
export function tinyChatBaseModels(): Record<string, FakeBaseModelSpec> {
  return JSON.parse(readFileSync(join(tinyChatDir(), 'base-models.json'), 'utf8')) as Record<
    string,
    FakeBaseModelSpec
  >;
}
