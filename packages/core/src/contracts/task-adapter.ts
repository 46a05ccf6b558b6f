import type { Environment } from './environment.js';
import type { Skill } from './skill.js';
import type { Task } from './task.js';
import type { ToolDefinition } from './tool.js';
import type { Verifier } from './verdict.js';

export interface LoadOptions {
  split: string;
  limit?: number;
  /** Generated benchmarks are a function of this seed; file-backed ones use it to sample `limit` tasks. */
  seed?: number;
}

/** What a benchmark package exports as its default export. */
export interface TaskAdapter {
  name: string;
  /** The skill types this benchmark's tasks belong to. */
  families: readonly string[];
  /** The splits `load` accepts. */
  splits?: readonly string[];
  load(options: LoadOptions): Task[] | Promise<Task[]>;
  createEnvironment(task: Task): Environment | Promise<Environment>;
  verifier(task: Task): Verifier;
  /** A starting skill inventory. */
  skills?(): Skill[] | Promise<Skill[]>;
  /** Short procedure phrases per family, used by the trainable step editor. */
  stepVocabulary?(): Record<string, string[]>;
  tools?: ToolDefinition[];
}
