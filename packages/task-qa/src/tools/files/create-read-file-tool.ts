import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError, type Task, type ToolDefinition } from '@skillrl/core';
import { DEFAULT_TOOL_MAX_CHARS, offsetArgument, stringArgument, windowText } from '../tool-text.js';
import { readAttachment } from './read-attachment.js';

export interface ReadFileToolOptions {
  /** Characters shown per call (the rest is read with `offset`). Default 20,000. */
  maxChars?: number;
  /** Files larger than this are refused. Default 50 MB. */
  maxBytes?: number;
  /** The task's attachment. Default: `task.metadata.attachment` (GAIA's loader sets it). */
  attachmentOf?(task: Task): string | undefined;
  /** Default `read_file`. */
  name?: string;
}

function inside(folder: string, target: string): boolean {
  const rel = relative(folder, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

const defaultAttachment = (task: Task): string | undefined => {
  const value = task.metadata?.attachment;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * GAIA's file tool: `read_file({ path?, offset? })` reads the task's attachment as text (see
 * `readAttachment` for the formats). Paths are confined to the attachment's folder — relative ones resolve
 * there, `..` and symbolic links out of it are refused — and within it to this task's own attachment: GAIA
 * keeps every attachment beside `metadata.jsonl`, which holds the answers, so "any file in the folder" would
 * hand the model the answer key. Refusals and unreadable formats come back as text (the episode goes on).
 */
export function createReadFileTool(options: ReadFileToolOptions = {}): ToolDefinition {
  const maxChars = options.maxChars ?? DEFAULT_TOOL_MAX_CHARS;
  const maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
  if (!(Number.isInteger(maxChars) && maxChars > 0)) {
    throw new InvalidArgumentError('maxChars', `expected an integer > 0, got ${String(maxChars)}`);
  }
  const name = options.name ?? 'read_file';
  const attachmentOf = options.attachmentOf ?? defaultAttachment;
  return {
    name,
    description:
      "Read the file attached to the question (the path after 'Attached file:'; the bare file name also " +
      'works). Text, CSV, JSON, HTML, Excel .xlsx, PDF and Word .docx are returned as text; long files in ' +
      `parts of ${maxChars} characters (pass offset to read on). Images, audio and video cannot be read.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The attached file. Default: the attachment of this question.' },
        offset: { type: 'integer', minimum: 0, description: 'Character to start from. Default 0.' },
      },
      additionalProperties: false,
    },
    async execute(args, context) {
      const task = context?.task;
      if (!task) {
        throw new InvalidArgumentError(
          `${name} tool`,
          'it needs the episode task (options.task); run it through @skillrl/rollout runEpisode',
        );
      }
      const offset = offsetArgument(args.offset);
      if (typeof offset === 'string') return `Error: ${offset}.`;
      const attachment = attachmentOf(task);
      if (!attachment) return 'This question has no attached file: there is nothing to read.';
      const folder = dirname(resolve(attachment));
      const requested = stringArgument(args.path) ?? attachment;
      const target = isAbsolute(requested) ? resolve(requested) : resolve(folder, requested);
      const own = basename(attachment);
      if (!inside(folder, target)) {
        return `Error: ${JSON.stringify(requested)} is outside the folder of the attached file; the only file you can read is ${own}.`;
      }
      const [realFolder, realTarget, realAttachment] = await Promise.all([
        realOrUndefined(folder),
        realOrUndefined(target),
        realOrUndefined(attachment),
      ]);
      if (!realAttachment || !realFolder) {
        return `Error: the attached file ${own} is missing from the task's data folder, so it cannot be read.`;
      }
      if (!realTarget) return `Error: no file ${JSON.stringify(requested)}; the attached file is ${own}.`;
      if (!inside(realFolder, realTarget)) {
        return `Error: ${JSON.stringify(requested)} leads outside the folder of the attached file; the only file you can read is ${own}.`;
      }
      if (realTarget !== realAttachment) {
        return `Error: ${JSON.stringify(requested)} is not this question's attached file; the only file you can read is ${own}.`;
      }
      const info = await stat(realTarget);
      if (info.size > maxBytes) {
        return `Error: ${own} is ${info.size} bytes, over the ${maxBytes}-byte limit of ${name}.`;
      }
      const read = await readAttachment(realTarget);
      if (!read.readable) return `Cannot read ${own}: ${read.reason}.`;
      const shown = windowText(read.text, offset, maxChars, name);
      const header = `File: ${own} (${read.format.label}, ${read.summary}, ${read.text.length} characters)`;
      if (read.text.trim() === '') return `${header}\n\n[The file has no text.]`;
      return [header, '', shown.text, ...(shown.note ? ['', shown.note] : [])].join('\n');
    },
  };
}
