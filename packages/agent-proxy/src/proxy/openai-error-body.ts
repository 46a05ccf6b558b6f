import { redactSecrets } from '@skillrl/core';

/** The error object OpenAI's API answers with, which every OpenAI client turns into a typed error. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: null; code: string | null };
}

/** An OpenAI-style error body; the message is always redacted. */
export function openAIErrorBody(message: string, type: string, code: string | null): OpenAIErrorBody {
  return { error: { message: redactSecrets(message), type, param: null, code } };
}
