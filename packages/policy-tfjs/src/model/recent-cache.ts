import { InvalidArgumentError } from '@skillrl/core';

/**
 * A map that keeps what was used recently, in two generations of at most `limit` entries each: new entries
 * go into the young generation; when it is full it becomes the old one and the previous old one is dropped;
 * a hit in the old generation moves the entry back into the young one. So an entry in use stays, one unused
 * for two generations goes, and the cache never holds more than 2 × `limit` entries.
 *
 * Why not a plain map cleared at a size limit: the encoder's caches are keyed by texts a long run keeps
 * seeing new ones of (observations, action texts, skill clauses under each task's bindings). Grown to a high
 * limit, they made a 400-step SKILLC run's live heap, and V8's heap limit (a multiple of it), grow with the
 * run's length; cleared whole, every hot entry would be recomputed at once.
 */
export class RecentCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new InvalidArgumentError('limit', `expected an integer >= 1, got ${limit}`);
    }
  }

  /** Entries held now (both generations). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.set(key, aged);
    }
    return aged;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.limit && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}
