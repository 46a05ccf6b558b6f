/** An exact fraction with BigInt parts, denominator > 0, in lowest terms. */
export interface Rational {
  n: bigint;
  d: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(n: bigint, d = 1n): Rational {
  if (d === 0n) throw new RangeError('zero denominator');
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (sign * n) / g, d: (sign * d) / g };
}

export function add(a: Rational, b: Rational): Rational {
  return rational(a.n * b.d + b.n * a.d, a.d * b.d);
}

export function sub(a: Rational, b: Rational): Rational {
  return rational(a.n * b.d - b.n * a.d, a.d * b.d);
}

export function mul(a: Rational, b: Rational): Rational {
  return rational(a.n * b.n, a.d * b.d);
}

/** `undefined` on division by zero. */
export function div(a: Rational, b: Rational): Rational | undefined {
  return b.n === 0n ? undefined : rational(a.n * b.d, a.d * b.n);
}

export function formatRational(r: Rational): string {
  return r.d === 1n ? String(r.n) : `${r.n}/${r.d}`;
}
