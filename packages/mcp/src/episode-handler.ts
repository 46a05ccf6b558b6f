import type { ToolDefinition } from '@skillrl/core';

/** What the environment (or a task tool) answered to one call. */
export interface ActResult {
  observation: string;
  done: boolean;
  /** Set when the episode is over for another reason (step limit, error): the text says so. */
  ended?: string;
}

/**
 * What one episode serves over MCP; implemented by the caller. The server owns no environment: the episode
 * runner does (the program agent bridges this handler to `runEpisode`), so every MCP tool call is forwarded
 * here and the runner keeps the trajectory, the step limit and the verdict.
 */
export interface EpisodeHandler {
  readonly episodeId: string;
  /**
   * The task's own tools (QA: `read_file`, `web_search`, `fetch_page`, `visit_page`…), served under their own
   * names with their `parameters` as the MCP input schema. `execute` is not called by the server: a call goes
   * to `callTool`.
   */
  readonly tools: readonly ToolDefinition[];
  /** The episode's first observation (the task as the environment states it). */
  initialObservation(): string | Promise<string>;
  /** One environment step: the action text. Resolves with what the environment answered. */
  act(action: string): Promise<ActResult>;
  /** A task tool call (a name from `tools`), arguments as the program sent them. */
  callTool(name: string, args: Record<string, unknown>): Promise<ActResult>;
  /** The program's final answer: ends the episode. */
  submit(answer: string): Promise<ActResult>;
  /** The currently admissible actions, when the environment lists them. */
  admissibleActions(): string[] | undefined | Promise<string[] | undefined>;
}
