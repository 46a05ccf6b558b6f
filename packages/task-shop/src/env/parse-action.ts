/**
 * WebShop's `parse_action`: `name[arg]` by the pattern `(.+)\[(.+)\]` matched at the start (greedy, so
 * `search[a [b]]` has the argument `a [b]`); anything else is a name without an argument.
 */
export function parseAction(action: string): { name: string; arg: string | null } {
  const match = /^(.+)\[(.+)\]/.exec(action);
  if (!match) return { name: action, arg: null };
  return { name: match[1] ?? '', arg: match[2] ?? null };
}
