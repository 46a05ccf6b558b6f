/** An OTLP int64 as a test reads it most easily: a number when exact, else the bigint. */
export function plainInt(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}
