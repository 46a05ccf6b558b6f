import { InvalidArgumentError } from '@skillrl/core';

const N = 624;
const M = 397;

/**
 * CPython's `random.Random` for the calls WebShop's goal order depends on: MT19937 seeded from an integer as
 * `random.seed(n)` does (`init_by_array` over the 32-bit words of |n|), `random()`, `getrandbits`, and
 * `shuffle` (Fisher–Yates from the end with `_randbelow`). WebShop shuffles its goal list with
 * `random.seed(233)`; reproducing that gives the same goal at the same index, hence the same test split.
 */
export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) {
      throw new InvalidArgumentError('seed', `expected a safe integer, got ${seed}`);
    }
    let rest = Math.abs(seed);
    const key: number[] = [];
    do {
      key.push(rest % 0x100000000);
      rest = Math.floor(rest / 0x100000000);
    } while (rest > 0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ?? 0;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ?? 0;
      mt[i] = ((mt[i] ?? 0) ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + (key[j] ?? 0) + j;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] ?? 0;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ?? 0;
      mt[i] = ((mt[i] ?? 0) ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] ?? 0;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private twist(): void {
    const mt = this.mt;
    for (let kk = 0; kk < N; kk++) {
      const y = ((mt[kk] ?? 0) & 0x80000000) | ((mt[(kk + 1) % N] ?? 0) & 0x7fffffff);
      mt[kk] = (mt[(kk + M) % N] ?? 0) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }

  /** `genrand_uint32`. */
  uint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++] ?? 0;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: 53 random bits. */
  random(): number {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `random.getrandbits(k)` for 0 ≤ k ≤ 32. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 32) {
      throw new InvalidArgumentError('k', `expected an integer in [0, 32], got ${k}`);
    }
    return k === 0 ? 0 : this.uint32() >>> (32 - k);
  }

  /** `_randbelow_with_getrandbits(n)`: rejection sampling on `n.bit_length()` bits. */
  randbelow(n: number): number {
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random.shuffle(x)`, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }
}

/** WebShop's goal order: `random.seed(233); random.shuffle(goals)` in `SimServer.__init__`. */
export function webshopGoalOrder(goalCount: number): number[] {
  return new PythonRandom(233).shuffle(Array.from({ length: goalCount }, (_, i) => i));
}
