// The few shapes the judge uses of an OpenAI-compatible client, declared here rather than imported from
// `openai`: that package is an optional peer, and a declaration file that imports it fails to compile
// (TS2307) for every user who installed @skillrl/verifiers without it. `openai`'s client satisfies them.

/** One message of the judge's request. */
export interface JudgeChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The chat-completions request the judge sends. */
export interface JudgeChatRequest {
  model: string;
  messages: JudgeChatMessage[];
  temperature?: number;
  max_tokens?: number;
}

/** What the judge reads of the reply: the first choice's text. */
export interface JudgeChatCompletion {
  choices?: { message?: { content?: string | null } }[];
}

/**
 * A client the judge can call: `new OpenAI({...})` from the `openai` package, or any object with the same
 * `chat.completions.create` (a proxy, a recording wrapper, a fake in tests).
 */
export interface JudgeChatClient {
  chat: {
    completions: {
      create(request: JudgeChatRequest): PromiseLike<JudgeChatCompletion>;
    };
  };
}
