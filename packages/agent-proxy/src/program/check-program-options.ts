import { checkProgramAgentFiles } from './check-program-files.js';
import { createProgramAgent, type ProgramAgentOptions } from './create-program-agent.js';

/** The program agent's options (`agent.program`), as a config gives them. */
export const PROGRAM_AGENT_OPTIONS = [
  'command',
  'package',
  'export',
  'cwd',
  'env',
  'timeoutMs',
  'concurrency',
  'reuse',
  'graceMs',
  'upstream',
  'injectSkill',
  'name',
] as const;

/** The upstream's options (`agent.program.upstream`): the openai agent's endpoint knobs. */
export const PROGRAM_UPSTREAM_OPTIONS = [
  'model',
  'baseURL',
  'baseURLs',
  'apiKeyEnv',
  'timeoutMs',
  'retry',
  'concurrency',
  'requestsPerMinute',
  'tokensPerMinute',
  'extraBody',
] as const;

export interface ProgramOptionIssue {
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const positive = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** Whether the upstream is asked for what training needs: the reply's token ids and their log-probs. */
export function upstreamGivesTokens(upstream: unknown): boolean {
  const extra = isObject(upstream) && isObject(upstream.extraBody) ? upstream.extraBody : {};
  return extra.return_token_ids === true && extra.logprobs === true;
}

/**
 * Every problem with `agent.program`'s options that the config alone shows, by path (`path` is where the
 * options sit, e.g. `$.agent.program`). Under internalize (`use.method`, or `use.trained`) the run trains the
 * task model from its recorded turns, which needs each reply's token ids and log-probs from the upstream.
 * With `configPath` (the config file), the files the options name are checked first (`checkProgramAgentFiles`).
 */
export function checkProgramAgentOptions(
  options: unknown,
  path = '$.agent.program',
  use: { trained?: boolean; method?: string } = {},
  configPath?: string,
): ProgramOptionIssue[] {
  if (!isObject(options)) {
    return [
      { path, message: 'expected { command: [...] | package, upstream: { model, baseURL, apiKeyEnv } }' },
    ];
  }
  const issues = configPath !== undefined ? checkProgramAgentFiles(options, configPath, path) : [];
  const known = new Set<string>(PROGRAM_AGENT_OPTIONS);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      issues.push({
        path: `${path}.${key}`,
        message: `unknown option; expected one of ${PROGRAM_AGENT_OPTIONS.join(', ')}`,
      });
    }
  }
  const { command, package: pkg } = options;
  if (command === undefined && pkg === undefined) {
    issues.push({
      path: `${path}.command`,
      message:
        'is required: the program and its arguments, e.g. ["python3", "agent.py"] (or package: a module exporting run(task, ctx))',
    });
  } else if (command !== undefined && pkg !== undefined) {
    issues.push({ path, message: 'give command (an executable) or package (a module function), not both' });
  }
  if (
    command !== undefined &&
    (!Array.isArray(command) ||
      command.length === 0 ||
      command.some((c) => typeof c !== 'string' || c === ''))
  ) {
    issues.push({
      path: `${path}.command`,
      message: 'expected a non-empty list of non-empty strings (argv, no shell), e.g. ["node", "agent.mjs"]',
    });
  }
  if (pkg !== undefined && (typeof pkg !== 'string' || pkg === '')) {
    issues.push({ path: `${path}.package`, message: 'expected an npm name or a module path' });
  }
  for (const key of ['timeoutMs', 'graceMs'] as const) {
    if (options[key] !== undefined && !positive(options[key])) {
      issues.push({ path: `${path}.${key}`, message: 'expected a positive number of milliseconds' });
    }
  }
  if (
    options.concurrency !== undefined &&
    !(Number.isInteger(options.concurrency) && (options.concurrency as number) >= 1)
  ) {
    issues.push({ path: `${path}.concurrency`, message: 'expected an integer >= 1' });
  }
  if (
    options.env !== undefined &&
    (!isObject(options.env) || Object.values(options.env).some((v) => typeof v !== 'string'))
  ) {
    issues.push({ path: `${path}.env`, message: 'expected an object of string values' });
  }
  if (
    options.injectSkill !== undefined &&
    options.injectSkill !== 'system' &&
    options.injectSkill !== 'none'
  ) {
    issues.push({
      path: `${path}.injectSkill`,
      message: 'expected "system" (the proxy adds the skill when z = 1) or "none"',
    });
  }
  const upstream = options.upstream;
  if (!isObject(upstream)) {
    issues.push({
      path: `${path}.upstream`,
      message: 'is required: the real model behind the proxy, { model, baseURL, apiKeyEnv }',
    });
    return issues;
  }
  const knownUp = new Set<string>(PROGRAM_UPSTREAM_OPTIONS);
  for (const key of Object.keys(upstream)) {
    if (!knownUp.has(key)) {
      issues.push({
        path: `${path}.upstream.${key}`,
        message: `unknown option; expected one of ${PROGRAM_UPSTREAM_OPTIONS.join(', ')}`,
      });
    }
  }
  if (typeof upstream.model !== 'string' || upstream.model === '') {
    issues.push({
      path: `${path}.upstream.model`,
      message: 'is required: the model the proxy sends every call with',
    });
  }
  for (const url of [upstream.baseURL, ...(Array.isArray(upstream.baseURLs) ? upstream.baseURLs : [])]) {
    if (url === undefined) continue;
    let ok = false;
    try {
      ok = typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
    } catch {}
    if (!ok) {
      issues.push({
        path: `${path}.upstream.baseURL`,
        message: `expected an http(s) URL such as http://127.0.0.1:8000/v1, got ${JSON.stringify(url)}`,
      });
    }
  }
  if ((use.trained || use.method === 'internalize') && !upstreamGivesTokens(upstream)) {
    issues.push({
      path: `${path}.upstream`,
      message:
        "internalize trains the task model from each recorded reply's token ids and log-probs, and this upstream is not asked for them: set upstream.extraBody: { return_token_ids: true, logprobs: true } for a vLLM server (an endpoint that cannot return token ids cannot be trained: use evolve, which keeps the model frozen)",
    });
  }
  return issues;
}

/**
 * What `skillrl check` asks of a program agent beyond its options: the proxy and the MCP server start on
 * this machine, and the upstream answers `GET /models` with the key (unreachable and refused keys are named;
 * any other answer counts as reachable). `options` as `createProgramAgent` takes them.
 */
export async function probeProgramAgent(
  options: ProgramAgentOptions,
  { timeoutMs = 5000 }: { timeoutMs?: number } = {},
): Promise<ProgramOptionIssue[]> {
  const issues: ProgramOptionIssue[] = [];
  const agent = createProgramAgent(options);
  try {
    await agent.ready();
  } catch (e) {
    issues.push({
      path: '$.agent.program',
      message: `the proxy or the MCP server could not start: ${(e as Error).message}`,
    });
  } finally {
    await agent.close();
  }
  const env = options.processEnv ?? process.env;
  const key = env[options.upstream.apiKeyEnv ?? 'OPENAI_API_KEY'] || 'EMPTY';
  const bases = options.upstream.baseURLs ?? [options.upstream.baseURL ?? 'https://api.openai.com/v1'];
  for (const base of bases) {
    try {
      const res = await fetch(`${base.replace(/\/+$/, '')}/models`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      if (res.status === 401 || res.status === 403) {
        issues.push({
          path: '$.agent.program.upstream.apiKeyEnv',
          message: `${base} refused the key (${res.status}); set ${options.upstream.apiKeyEnv ?? 'OPENAI_API_KEY'} to a key it accepts`,
        });
      }
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
      issues.push({
        path: '$.agent.program.upstream.baseURL',
        message: `${base} cannot be reached (${cause}); start the server, or fix the URL`,
      });
    }
  }
  return issues;
}
