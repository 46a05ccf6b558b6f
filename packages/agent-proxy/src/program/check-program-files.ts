import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve as resolvePath } from 'node:path';
import type { ProgramOptionIssue } from './check-program-options.js';

/** A script argument (`agent.py`, `agent.mjs`): the common mistake is one missing next to the config. */
const SCRIPT = /\.(m?js|cjs|py|ts|rb|sh)$/;

/**
 * The files `agent.program` names, as the operating system will look for them: its `cwd` exists (read from
 * the config's folder, the default), its command's program is a file there (a path) or on PATH (a bare name),
 * and the scripts it names exist. `path` is where the options sit (`$.agent.program`).
 */
export function checkProgramAgentFiles(
  options: Readonly<Record<string, unknown>>,
  configPath: string,
  path = '$.agent.program',
  env: NodeJS.ProcessEnv = process.env,
): ProgramOptionIssue[] {
  const issues: ProgramOptionIssue[] = [];
  const field = path.replace(/^\$\./, '');
  const base = dirname(configPath);
  const cwd = typeof options.cwd === 'string' ? resolvePath(base, options.cwd) : base;
  if (!existsSync(cwd)) return [{ path: `${path}.cwd`, message: `${cwd} does not exist` }];
  const command = options.command;
  if (!Array.isArray(command) || typeof command[0] !== 'string' || command[0] === '') return issues;
  const program = command[0];
  if (program.includes('/')) {
    const file = resolvePath(cwd, program);
    if (!existsSync(file)) {
      issues.push({
        path: `${path}.command`,
        message: `${file} does not exist (paths are read from ${field}.cwd, default the config's folder)`,
      });
    }
  } else {
    const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
    if (!dirs.some((d) => existsSync(join(d, program)))) {
      issues.push({
        path: `${path}.command`,
        message: `"${program}" is not on PATH; give its path, or install it`,
      });
    }
  }
  for (const arg of command.slice(1)) {
    if (typeof arg === 'string' && SCRIPT.test(arg) && !arg.startsWith('-')) {
      const file = resolvePath(cwd, arg);
      if (!existsSync(file)) {
        issues.push({
          path: `${path}.command`,
          message: `${file} does not exist (read from ${field}.cwd, default the config's folder)`,
        });
      }
    }
  }
  return issues;
}
