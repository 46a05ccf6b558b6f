/**
 * @skillrl/mcp — a task's environment and tools served as an MCP server over streamable HTTP, one MCP
 * session per episode. The server owns no environment: each tool call (`observe`, `act`,
 * `admissible_actions`, the task's own tools, `submit`) is forwarded to the episode's handler, which the
 * caller implements over the episode runner.
 */

// The server: one HTTP endpoint per episode token, sessions, closing.
export {
  startTaskMcpServer,
  type TaskMcpServer,
  type TaskMcpServerOptions,
} from './task-mcp-server.js';
// What the caller implements per episode.
export type { ActResult, EpisodeHandler } from './episode-handler.js';
// The episode's MCP surface: built-in tool names, the admissible-actions resource, the result texts.
export { ADMISSIBLE_ACTIONS_URI, EPISODE_TOOL_NAMES } from './episode-tools.js';
export { EPISODE_INSTRUCTIONS } from './create-episode-server.js';
export { EPISODE_DONE_LINE, NO_ADMISSIBLE_ACTIONS, observationText } from './tool-result.js';
