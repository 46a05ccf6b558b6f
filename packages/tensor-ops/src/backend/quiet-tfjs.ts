/**
 * What tfjs prints on its own while a backend starts, and skillrl says better in `BackendInfo.tried`: the
 * "Hi, looks like you are running TensorFlow.js in Node.js … install our node backend" banner of the cpu
 * backend's first tensor, and "Platform node has already been set" when a second copy of tfjs-core loads.
 */
export const TFJS_NOISE: readonly RegExp[] = [
  /looks like you are running TensorFlow\.js in Node\.js/,
  /^=+\s*$/,
  /Platform \w+ has already been set/,
];

function isNoise(args: readonly unknown[]): boolean {
  const text = args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ');
  return TFJS_NOISE.some((pattern) => pattern.test(text.trim()));
}

/**
 * Runs `fn` with tfjs's start-up messages dropped from `console.warn` and `console.log`; everything else
 * goes through. Only for the duration of `fn` (the backend's load and its first tensor).
 */
export async function quietTfjs<T>(fn: () => Promise<T>): Promise<T> {
  const { warn, log } = console;
  console.warn = (...args: unknown[]) => {
    if (!isNoise(args)) warn.apply(console, args);
  };
  console.log = (...args: unknown[]) => {
    if (!isNoise(args)) log.apply(console, args);
  };
  try {
    return await fn();
  } finally {
    console.warn = warn;
    console.log = log;
  }
}
