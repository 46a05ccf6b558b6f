import { describe, expect, it } from 'vitest';
import { PythonRandom, webshopGoalOrder } from './python-random.js';

// Golden values printed by CPython 3 on this machine:
//   random.seed(233); l = list(range(20)); random.shuffle(l); print(l)
//   random.seed(233); print(repr(random.random()), random.getrandbits(32))
//   random.seed(5); l = list(range(12087)); random.shuffle(l); print(l[:8], l[-3:])
//   random.seed(2**40 + 7); print(random.getrandbits(32))
describe('PythonRandom', () => {
  it("reproduces CPython's shuffle with WebShop's seed 233", () => {
    expect(webshopGoalOrder(20)).toEqual([
      17, 18, 9, 2, 8, 19, 11, 10, 12, 0, 3, 4, 14, 13, 1, 6, 15, 7, 16, 5,
    ]);
  });

  it("reproduces CPython's random() and getrandbits", () => {
    const rng = new PythonRandom(233);
    expect(rng.random()).toBe(0.6824769139473528);
    expect(rng.getrandbits(32)).toBe(2698614761);
    expect(new PythonRandom(2 ** 40 + 7).getrandbits(32)).toBe(2635837658);
  });

  it('shuffles a list the size of WebShop’s human goals as CPython does', () => {
    const order = new PythonRandom(5).shuffle(Array.from({ length: 12087 }, (_, i) => i));
    expect(order.slice(0, 8)).toEqual([7123, 7247, 6735, 10719, 4087, 11330, 6787, 10289]);
    expect(order.slice(-3)).toEqual([5874, 4185, 10205]);
  });
});
