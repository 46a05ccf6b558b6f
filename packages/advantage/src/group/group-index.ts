/**
 * Dense group numbering: every estimator turns its group keys into `0..groupCount-1` once, then works on
 * typed arrays. Integer keys (an `Int32Array`, or a `number[]` of integers) take a look-up-table path with no
 * hashing; anything else goes through one `Map` pass. Groups are numbered in order of first appearance, so
 * the numbering depends only on the keys, never on the scores.
 *
 * When every group is one contiguous run of samples (the usual layout: a prompt's responses side by side),
 * the index records only where each run starts, touching the table or Map once per group rather than once
 * per sample; the per-sample `groupOf` array is then built only if an estimator asks for it.
 */
export interface GroupIndex {
  /** Number of samples. */
  readonly size: number;
  /** Number of distinct groups. */
  readonly groupCount: number;
  /** Dense group of each sample, in `0..groupCount-1` (built on first access for contiguous groups). */
  readonly groupOf: Int32Array;
  /** Index of the first sample of each group (recovers the original key: `keys[firstSample[g]]`). */
  readonly firstSample: Int32Array;
  /**
   * Present when every group's samples are one contiguous run: group g is samples
   * `runStart[g] .. runStart[g + 1] − 1`. Loops then keep a group's sums in registers.
   */
  readonly runStart?: Int32Array;
}

// A look-up table wider than this many slots per sample costs more memory than a Map saves in time.
const TABLE_SLOTS_PER_SAMPLE = 4;
const TABLE_MIN_SLOTS = 1 << 16;

function isIntegerTypedArray(keys: unknown): keys is ArrayLike<number> {
  return (
    keys instanceof Int32Array ||
    keys instanceof Uint32Array ||
    keys instanceof Int16Array ||
    keys instanceof Uint16Array ||
    keys instanceof Int8Array ||
    keys instanceof Uint8Array
  );
}

/** The range of integer keys when it fits a look-up table; `undefined` sends the keys down the Map path. */
function integerRange(keys: ArrayLike<string | number>): { min: number; max: number } | undefined {
  const n = keys.length;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  if (isIntegerTypedArray(keys)) {
    // Every entry is an integer already: only the range is needed.
    for (let i = 0; i < n; i++) {
      const k = keys[i] as number;
      if (k < min) min = k;
      if (k > max) max = k;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      if (typeof k !== 'number' || !Number.isInteger(k)) return undefined;
      if (k < min) min = k;
      if (k > max) max = k;
    }
  }
  if (n === 0) return { min: 0, max: -1 };
  if (max - min + 1 > Math.max(TABLE_MIN_SLOTS, TABLE_SLOTS_PER_SAMPLE * n)) return undefined;
  return { min, max };
}

/** An index of contiguous runs; `groupOf` is filled in on first access. */
function runIndex(size: number, firstSample: Int32Array): GroupIndex {
  const groupCount = firstSample.length;
  const runStart = new Int32Array(groupCount + 1);
  runStart.set(firstSample);
  runStart[groupCount] = size;
  let groupOf: Int32Array | undefined;
  return {
    size,
    groupCount,
    firstSample,
    runStart,
    get groupOf(): Int32Array {
      if (!groupOf) {
        groupOf = new Int32Array(size);
        for (let g = 0; g < groupCount; g++) {
          const end = runStart[g + 1] as number;
          for (let i = runStart[g] as number; i < end; i++) groupOf[i] = g;
        }
      }
      return groupOf;
    },
  };
}

/**
 * Looks a key up once per change of key. Returns the run starts if no key comes back after another key
 * started, or `undefined` as soon as one does.
 */
function tryRuns(
  keys: ArrayLike<string | number>,
  lookUp: (key: string | number) => boolean,
): Int32Array | undefined {
  const n = keys.length;
  const starts: number[] = [];
  let previous: string | number | undefined;
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string | number;
    if (i > 0 && key === previous) continue;
    if (!lookUp(key)) return undefined;
    starts.push(i);
    previous = key;
  }
  return Int32Array.from(starts);
}

function indexByTable(keys: ArrayLike<number>, min: number, max: number): GroupIndex {
  const n = keys.length;
  const table = new Int32Array(max - min + 1).fill(-1);
  // First try contiguous runs: the table is touched once per change of key, nothing is written per sample.
  const starts = new Int32Array(Math.min(n, max - min + 1));
  let runs: Int32Array | undefined;
  let seen = 0;
  let previous = 0;
  let i = 0;
  for (; i < n; i++) {
    const key = keys[i] as number;
    if (i > 0 && key === previous) continue;
    const slot = key - min;
    if ((table[slot] as number) >= 0) break;
    table[slot] = seen;
    starts[seen++] = i;
    previous = key;
  }
  if (i === n) runs = starts.slice(0, seen);
  if (runs) return runIndex(n, runs);
  table.fill(-1);
  const groupOf = new Int32Array(n);
  const firstSample = new Int32Array(Math.min(n, max - min + 1));
  let count = 0;
  for (let i = 0; i < n; i++) {
    const slot = (keys[i] as number) - min;
    let g = table[slot] as number;
    if (g < 0) {
      g = count++;
      table[slot] = g;
      firstSample[g] = i;
    }
    groupOf[i] = g;
  }
  return { size: n, groupCount: count, groupOf, firstSample: firstSample.slice(0, count) };
}

function indexByMap(keys: ArrayLike<string | number>): GroupIndex {
  const n = keys.length;
  const seen = new Map<string | number, number>();
  const runs = tryRuns(keys, (key) => {
    if (seen.has(key)) return false;
    seen.set(key, seen.size);
    return true;
  });
  if (runs) return runIndex(n, runs);
  seen.clear();
  const groupOf = new Int32Array(n);
  const firstSample: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string | number;
    let g = seen.get(key);
    if (g === undefined) {
      g = firstSample.length;
      seen.set(key, g);
      firstSample.push(i);
    }
    groupOf[i] = g;
  }
  return { size: n, groupCount: firstSample.length, groupOf, firstSample: Int32Array.from(firstSample) };
}

/** Numbers the distinct keys densely. `1` and `'1'` are different keys. */
export function buildGroupIndex(keys: ArrayLike<string | number>): GroupIndex {
  const range = integerRange(keys);
  if (range) return indexByTable(keys as ArrayLike<number>, range.min, range.max);
  return indexByMap(keys);
}

/**
 * Groups of pairs (a, b) of two dense indices, e.g. (task, condition) or (instance, generation). Pairs are
 * numbered in order of first appearance, like `buildGroupIndex`.
 */
export function buildPairIndex(a: GroupIndex, b: GroupIndex): GroupIndex {
  const n = a.size;
  const width = b.groupCount;
  const slots = a.groupCount * width;
  const aOf = a.groupOf;
  const bOf = b.groupOf;
  if (slots <= Math.max(TABLE_MIN_SLOTS, TABLE_SLOTS_PER_SAMPLE * n)) {
    const combined = new Int32Array(n);
    for (let i = 0; i < n; i++) combined[i] = (aOf[i] as number) * width + (bOf[i] as number);
    return indexByTable(combined, 0, Math.max(slots - 1, 0));
  }
  const combined = new Float64Array(n);
  for (let i = 0; i < n; i++) combined[i] = (aOf[i] as number) * width + (bOf[i] as number);
  return indexByMap(combined);
}
