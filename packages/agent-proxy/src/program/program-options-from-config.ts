import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { InvalidArgumentError, MissingFieldError, registerSecret } from '@skillrl/core';
import { secretFromEnv } from '@skillrl/rollout';
import { type ProgramOptionIssue, probeProgramAgent } from './check-program-options.js';
import {
  createProgramAgent,
  type ProgramAgent,
  type ProgramAgentOptions,
  type ProgramFunction,
} from './create-program-agent.js';

/** What the program agent needs to know about the config it is named in. */
export interface ProgramConfigContext {
  /** The config file: `cwd` is read from its folder, and so is the module form's `package`. */
  configPath: string;
  /**
   * Imports a module as the config's plugins are imported (resolved from the config's folder); the host
   * passes its own loader, so this package knows nothing of how. `what` names the field, for its errors.
   */
  importModule(specifier: string, what: string): Promise<Record<string, unknown>>;
  /** Where the options sit in the config, for messages. Default `agent.program`. */
  path?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `agent.program` as `createProgramAgent` takes it: `cwd` read from the config's folder, the module form
 * (`package`, `export`) imported like any plugin, the upstream's key checked and registered as a secret (the
 * proxy reads it from the variable; the program never sees it).
 */
export async function programAgentOptionsFromConfig(
  options: Readonly<Record<string, unknown>>,
  { configPath, importModule, path = 'agent.program' }: ProgramConfigContext,
): Promise<ProgramAgentOptions> {
  const { package: specifier, export: exportName, cwd, upstream, ...rest } = options;
  const out: Record<string, unknown> = { ...rest };
  const base = dirname(configPath);
  out.cwd = typeof cwd === 'string' ? (isAbsolute(cwd) ? cwd : resolvePath(base, cwd)) : base;
  if (!isObject(upstream)) throw new MissingFieldError(path, 'upstream');
  if (typeof upstream.model !== 'string') throw new MissingFieldError(`${path}.upstream`, 'model');
  if (typeof upstream.apiKeyEnv === 'string') {
    secretFromEnv(upstream.apiKeyEnv, `${path}.upstream.apiKeyEnv`);
  } else if (process.env.OPENAI_API_KEY) {
    registerSecret(process.env.OPENAI_API_KEY);
  }
  out.upstream = upstream;
  if (typeof specifier === 'string') {
    if (out.command !== undefined) {
      throw new InvalidArgumentError(
        path,
        'give command (an executable) or package (a module function), not both',
      );
    }
    const mod = await importModule(specifier, `${path}.package`);
    const name = typeof exportName === 'string' ? exportName : undefined;
    const fn = name ? mod[name] : (mod.run ?? mod.default);
    if (typeof fn !== 'function') {
      throw new InvalidArgumentError(
        name ? `${path}.export` : `${path}.package`,
        `${specifier} exports no function ${name ? `"${name}"` : '"run" or default'}: export run(task, ctx) => Promise<answer>`,
      );
    }
    out.run = fn as ProgramFunction;
  }
  return out as unknown as ProgramAgentOptions;
}

/** The program agent as a config names it (`agent: { program }`): `programAgentOptionsFromConfig`, then built. */
export async function createProgramAgentFromConfig(
  options: Readonly<Record<string, unknown>>,
  context: ProgramConfigContext,
): Promise<ProgramAgent> {
  return createProgramAgent(await programAgentOptionsFromConfig(options, context));
}

/** `probeProgramAgent` of the agent a config names: what `skillrl check` starts to see that it works. */
export async function probeProgramAgentFromConfig(
  options: Readonly<Record<string, unknown>>,
  context: ProgramConfigContext,
): Promise<ProgramOptionIssue[]> {
  return probeProgramAgent(await programAgentOptionsFromConfig(options, context));
}
