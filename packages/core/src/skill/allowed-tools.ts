/**
 * `allowed-tools`: the spec's form is "a space-separated string of tools" (`Bash(git:*) Bash(jq:*) Read`).
 * Clients also write a YAML list of strings (skills-ref keeps whatever the YAML holds) and Claude Code's
 * comma-separated string (`Read, Grep, Glob`). Separators inside parentheses belong to the tool
 * (`Bash(git add:*)` is one tool), so a tool is split at top-level spaces (and commas) only.
 */

export interface SplitAllowedTools {
  tools: string[];
  /** A comma separated two tools outside parentheses (Claude Code's form, not the spec's). */
  commaSeparated: boolean;
}

/** Splits an `allowed-tools` string at whitespace and commas outside parentheses. */
export function splitAllowedTools(text: string): SplitAllowedTools {
  const tools: string[] = [];
  let commaSeparated = false;
  let depth = 0;
  let current = '';
  const flush = () => {
    if (current.length > 0) tools.push(current);
    current = '';
  };
  for (const c of text) {
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (c === ',') commaSeparated = true;
      flush();
      continue;
    }
    if (c === '(') depth += 1;
    else if (c === ')' && depth > 0) depth -= 1;
    current += c;
  }
  flush();
  return { tools, commaSeparated };
}

/**
 * Whether `tool` survives the round trip through a space-separated string as one tool: non-empty, balanced
 * parentheses, and no whitespace or comma outside them.
 */
export function isToolName(tool: unknown): tool is string {
  if (typeof tool !== 'string' || tool.length === 0) return false;
  let depth = 0;
  for (const c of tool) {
    if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth < 0) return false;
    } else if (depth === 0 && (c === ',' || /\s/.test(c))) return false;
  }
  return depth === 0;
}
