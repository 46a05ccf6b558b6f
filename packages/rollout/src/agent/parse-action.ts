import { InvalidArgumentError } from '@skillrl/core';

/** Where an action is read from in a text reply. */
export type ActionFormat = 'tag' | 'prefix' | 'last-line';

export interface ParsedAction {
  action: string;
  invalid: boolean;
  /** The format that matched. */
  format?: ActionFormat;
}

export type ActionParser = (text: string) => ParsedAction;

export interface ActionParserOptions {
  /** Tried in order; the first that finds a non-empty action wins. Default `['tag', 'prefix', 'last-line']`. */
  formats?: ActionFormat[];
  /** Tag name for `tag`. Default `action` (`<action>…</action>`). */
  tag?: string;
  /** Line prefix for `prefix`, matched case-insensitively. Default `Action:`. */
  prefix?: string;
}

const THINK = /<think>[\s\S]*?(<\/think>|$)/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function clean(action: string): string {
  return action
    .trim()
    .replace(/^(["'`])(.*)\1$/s, '$2')
    .trim();
}

/**
 * Builds the text-mode action parser. Reasoning blocks (`<think>…</think>`, as Qwen3 and DeepSeek-R1
 * emit) are removed first, and the last match of a format wins, because models restate the format in
 * their reasoning before they commit to an action.
 */
export function createActionParser(options: ActionParserOptions = {}): ActionParser {
  const formats = options.formats ?? ['tag', 'prefix', 'last-line'];
  if (formats.length === 0) {
    throw new InvalidArgumentError(
      'actionParser.formats',
      "expected at least one of 'tag', 'prefix', 'last-line'",
    );
  }
  const tag = new RegExp(
    `<${escapeRegExp(options.tag ?? 'action')}>([\\s\\S]*?)</${escapeRegExp(options.tag ?? 'action')}>`,
    'gi',
  );
  const prefix = new RegExp(
    `^\\s*(?:[*_]{0,2})${escapeRegExp(options.prefix ?? 'Action:')}(?:[*_]{0,2})\\s*(.*)$`,
    'i',
  );
  return (text) => {
    const visible = text.replace(THINK, '');
    for (const format of formats) {
      let found: string | undefined;
      if (format === 'tag') {
        for (const match of visible.matchAll(tag)) found = match[1];
      } else if (format === 'prefix') {
        for (const line of visible.split('\n')) {
          const match = prefix.exec(line);
          if (match) found = match[1];
        }
      } else if (format === 'last-line') {
        found = visible
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line.length > 0)
          .pop();
      } else {
        throw new InvalidArgumentError('actionParser.formats', `unknown format "${String(format)}"`);
      }
      const action = found === undefined ? '' : clean(found);
      if (action.length > 0) return { action, invalid: false, format };
    }
    return { action: '', invalid: true };
  };
}
