import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InvalidArgumentError, SkillrlError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { quietTfjs } from './quiet-tfjs.js';
import { registerWasmKernels } from './register-wasm-kernels.js';

/** The backends tensor-ops can run on, fastest first. */
export type BackendChoice = 'tfjs-node-gpu' | 'tfjs-node' | 'wasm' | 'cpu';

export const BACKEND_ORDER: readonly BackendChoice[] = ['tfjs-node-gpu', 'tfjs-node', 'wasm', 'cpu'];

/** The environment variable that puts one backend first, whatever the code asked for. */
export const BACKEND_ENV_VAR = 'SKILLRL_TF_BACKEND';

export interface BackendAttempt {
  name: BackendChoice;
  ok: boolean;
  /** Why it was skipped (the loader's first error line), or what it initialised as. */
  reason: string;
}

export interface BackendInfo {
  /** The backend that is now active. */
  backend: BackendChoice;
  /** tfjs's own name for it (`tensorflow` for both native packages). */
  tfBackend: string;
  /** Every candidate tried, in order, up to and including the chosen one. */
  tried: BackendAttempt[];
  /** What decided the order: the environment variable, `options.prefer`, or the default. */
  source: 'env' | 'prefer' | 'default';
}

export interface InitBackendOptions {
  /** Candidates to try first, in this order; the rest of the default order follows unless `fallback` is false. */
  prefer?: BackendChoice | readonly BackendChoice[];
  /** Try the remaining default candidates after the preferred ones (default true). */
  fallback?: boolean;
  /** Where to read `SKILLRL_TF_BACKEND` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

interface Candidate {
  tfName: string;
  load(): Promise<void>;
}

// The native packages are CJS addons that may be absent or half-installed (their install script downloads
// libtensorflow); `require` throws a catchable Error in both cases, which an `import` statement would not let
// us catch. createRequire keeps that working from the ESM build (tsup shims import.meta.url for CJS).
const requireFromHere = createRequire(import.meta.url);

class SkippedBackend extends Error {}

/**
 * Loads a native tfjs package. Before `require`, checks that its compiled addon exists: the package
 * registers every kernel for the `tensorflow` backend *before* loading the addon, so a failed require of
 * tfjs-node-gpu followed by one of tfjs-node would print hundreds of "already registered" warnings.
 */
function loadNative(pkg: string): void {
  let root: string;
  try {
    root = dirname(requireFromHere.resolve(`${pkg}/package.json`));
  } catch {
    throw new SkippedBackend('package not installed');
  }
  const lib = join(root, 'lib');
  const addons = existsSync(lib)
    ? readdirSync(lib).filter((d) => existsSync(join(lib, d, 'tfjs_binding.node')))
    : [];
  if (addons.length === 0) {
    throw new SkippedBackend(
      'installed without its native addon (lib/napi-v*/tfjs_binding.node): its install script, which ' +
        'downloads libtensorflow, did not run or failed',
    );
  }
  requireFromHere(pkg);
}

const CANDIDATES: Record<BackendChoice, Candidate> = {
  'tfjs-node-gpu': {
    tfName: 'tensorflow',
    load: async () => loadNative('@tensorflow/tfjs-node-gpu'),
  },
  'tfjs-node': {
    tfName: 'tensorflow',
    load: async () => loadNative('@tensorflow/tfjs-node'),
  },
  wasm: {
    tfName: 'wasm',
    load: async () => {
      await import('@tensorflow/tfjs-backend-wasm');
      registerWasmKernels();
    },
  },
  cpu: {
    tfName: 'cpu',
    load: async () => {},
  },
};

function isBackendChoice(value: string): value is BackendChoice {
  return (BACKEND_ORDER as readonly string[]).includes(value);
}

function firstLine(error: unknown): string {
  if (error instanceof SkippedBackend) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'MODULE_NOT_FOUND' && /Cannot find module '@tensorflow\//.test(error.message)) {
      return 'package not installed';
    }
    const line = error.message.split('\n')[0]?.trim() ?? '';
    return line.length > 240 ? `${line.slice(0, 237)}...` : line;
  }
  return String(error);
}

function resolveOrder(options: InitBackendOptions): {
  order: BackendChoice[];
  source: BackendInfo['source'];
} {
  const env = options.env ?? process.env;
  const forced = env[BACKEND_ENV_VAR]?.trim();
  if (forced) {
    if (!isBackendChoice(forced)) {
      throw new InvalidArgumentError(
        BACKEND_ENV_VAR,
        `expected one of ${BACKEND_ORDER.join(', ')}, got "${forced}"; unset it to choose automatically`,
      );
    }
    return { order: [forced, ...BACKEND_ORDER.filter((b) => b !== forced)], source: 'env' };
  }
  if (options.prefer === undefined) return { order: [...BACKEND_ORDER], source: 'default' };
  const preferred = typeof options.prefer === 'string' ? [options.prefer] : [...options.prefer];
  for (const name of preferred) {
    if (!isBackendChoice(name)) {
      throw new InvalidArgumentError(
        'options.prefer',
        `expected backends from ${BACKEND_ORDER.join(', ')}, got "${String(name)}"`,
      );
    }
  }
  const rest = options.fallback === false ? [] : BACKEND_ORDER.filter((b) => !preferred.includes(b));
  return { order: [...new Set([...preferred, ...rest])], source: 'prefer' };
}

let last: { key: string; result: Promise<BackendInfo> } | undefined;

function choose(order: BackendChoice[], source: BackendInfo['source']): Promise<BackendInfo> {
  // tfjs's own start-up banners say less than `tried` does; they are dropped while a backend starts.
  return quietTfjs(() => chooseLoudly(order, source));
}

async function chooseLoudly(order: BackendChoice[], source: BackendInfo['source']): Promise<BackendInfo> {
  const tried: BackendAttempt[] = [];
  for (const name of order) {
    const candidate = CANDIDATES[name];
    try {
      await candidate.load();
      // setBackend resolves false (it does not throw) when the backend's own initialisation fails.
      const ok = await tf.setBackend(candidate.tfName);
      if (!ok) {
        tried.push({
          name,
          ok: false,
          reason: `tfjs could not initialise the "${candidate.tfName}" backend`,
        });
        continue;
      }
      await tf.ready();
      // The cpu backend prints its banner on its first tensor: make that tensor here, inside the quiet part.
      tf.tidy(() => tf.zeros([1]).dataSync());
      tried.push({ name, ok: true, reason: `initialised as tfjs backend "${candidate.tfName}"` });
      return { backend: name, tfBackend: candidate.tfName, tried, source };
    } catch (error) {
      tried.push({ name, ok: false, reason: firstLine(error) });
    }
  }
  const reasons = tried.map((t) => `${t.name}: ${t.reason}`).join('; ');
  throw new SkillrlError('SKILLRL_NO_BACKEND', `No tfjs backend could be initialised (${reasons}).`);
}

/**
 * Chooses the fastest tfjs backend that initialises, like tfjs's own registry: tfjs-node-gpu, then tfjs-node,
 * then wasm, then the pure-JS cpu backend. `SKILLRL_TF_BACKEND` puts one first. A missing native package is
 * a reason in `tried`, never a crash. Calling it again with the same choice returns the same answer without
 * re-initialising; a different choice switches the active backend.
 */
export async function initBackend(options: InitBackendOptions = {}): Promise<BackendInfo> {
  const { order, source } = resolveOrder(options);
  const key = `${source}:${order.join(',')}`;
  if (last !== undefined && last.key === key) {
    const info = await last.result;
    // Someone (another call, or the user) may have switched backends since: then choose again.
    if (tf.getBackend() === info.tfBackend) return info;
  }
  return rerun();

  function rerun(): Promise<BackendInfo> {
    const result = choose(order, source);
    last = { key, result };
    // A failed attempt must not be cached: the next call should try again.
    result.catch(() => {
      if (last?.result === result) last = undefined;
    });
    return result;
  }
}

/** The answer of the latest `initBackend` call (pending, or settled), if any: for `ensureBackend`. */
export function latestBackendChoice(): Promise<BackendInfo> | undefined {
  return last?.result;
}
