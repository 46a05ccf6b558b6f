import type { JsonObject } from './json.js';
import type { Task } from './task.js';

/** What a tool's `execute` gets besides its arguments. */
export interface ToolExecuteOptions {
  signal?: AbortSignal;
  /**
   * The task of the episode the call belongs to. A benchmark's tools are declared once on the adapter
   * (`TaskAdapter.tools`) but act per task: GAIA's `read_file` opens this task's attachment, WebWalkerQA's
   * `visit_page` resolves links against this task's root URL. The episode runner passes it.
   */
  task?: Task;
}

/** A function tool a task exposes to the agent (OpenAI function-calling shape). */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonObject;
  /**
   * Runs the tool; its text is what the model reads next (the `tool` message). When absent the tool call is
   * passed to the environment as an action. Expected failures (a missing file, a page not in the cache)
   * are best returned as text the model can act on; a throw ends the episode with a `tool` error.
   */
  execute?(args: Record<string, unknown>, options?: ToolExecuteOptions): Promise<string> | string;
}
