/**
 * Dense group numbering: every estimator turns its group keys into `0..groupCount-1` once, then works on
 * typed arrays. Integer keys (an `Int32Array`, or a `number[]` of integers) take a look-up-table path with no
 * hashing; anything else goes through one `Map` pass. Groups are numbered in order of first appearance, so
 * the numbering depends only on the keys, never on the scores.
 */
export interface GroupIndex {
  /** Number of samples. */
  readonly size: number;
  /** Number of distinct groups. */
  readonly groupCount: number;
  /** Dense group of each sample, in `0..groupCount-1`. */
  readonly groupOf: Int32Array;
  /** Index of the first sample of each group (recovers the original key: `keys[firstSample[g]]`). */
  readonly firstSample: Int32Array;
}

// A look-up table wider than this many slots per sample costs more memory than a Map saves in time.
const TABLE_SLOTS_PER_SAMPLE = 4;
const TABLE_MIN_SLOTS = 1 << 16;

function finish(size: number, groupOf: Int32Array, firstSample: number[] | Int32Array, groupCount: number) {
  const first =
    firstSample instanceof Int32Array ? firstSample.slice(0, groupCount) : Int32Array.from(firstSample);
  return { size, groupCount, groupOf, firstSample: first };
}

/** The range of integer keys when it fits a look-up table; `undefined` sends the keys down the Map path. */
function integerRange(keys: ArrayLike<string | number>): { min: number; max: number } | undefined {
  const n = keys.length;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (typeof k !== 'number' || !Number.isInteger(k)) return undefined;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  if (n === 0) return { min: 0, max: -1 };
  if (max - min + 1 > Math.max(TABLE_MIN_SLOTS, TABLE_SLOTS_PER_SAMPLE * n)) return undefined;
  return { min, max };
}

function indexByTable(keys: ArrayLike<number>, min: number, max: number): GroupIndex {
  const n = keys.length;
  const table = new Int32Array(max - min + 1).fill(-1);
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
  return finish(n, groupOf, firstSample, count);
}

function indexByMap(keys: ArrayLike<string | number>): GroupIndex {
  const n = keys.length;
  const seen = new Map<string | number, number>();
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
  return finish(n, groupOf, firstSample, firstSample.length);
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
