import type { JsonObject } from './json.js';

/** A function tool a task exposes to the agent (OpenAI function-calling shape). */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonObject;
  /** Runs the tool; when absent the tool call is passed to the environment as an action. */
  execute?(args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<string> | string;
}
