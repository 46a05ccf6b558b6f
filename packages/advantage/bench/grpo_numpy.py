"""numpy's vectorised GRPO (verl convention: unbiased std, eps 1e-6) on N samples in groups of G.

Prints one JSON line: samples/s for the reshape form (contiguous equal-size groups, numpy's best case),
the same writing into a preallocated output (out=, as a training loop reusing its buffer would), and the
general form over arbitrary integer group ids (np.bincount), best of R runs each.
Usage: python3 grpo_numpy.py N G R SEED
"""

import json
import sys
import time

import numpy as np


def grpo_reshape(scores, group_size, eps):
    x = scores.reshape(-1, group_size)
    mean = x.mean(axis=1, keepdims=True)
    std = x.std(axis=1, ddof=1, keepdims=True)
    return ((x - mean) / (std + eps)).reshape(-1)


def grpo_reshape_out(scores, group_size, eps, out):
    x = scores.reshape(-1, group_size)
    o = out.reshape(-1, group_size)
    mean = x.mean(axis=1, keepdims=True)
    std = x.std(axis=1, ddof=1, keepdims=True)
    np.subtract(x, mean, out=o)
    np.divide(o, std + eps, out=o)
    return out


def grpo_bincount(scores, ids, eps):
    count = np.bincount(ids)
    mean = np.bincount(ids, weights=scores) / count
    dev = scores - mean[ids]
    std = np.sqrt(np.bincount(ids, weights=dev * dev) / (count - 1))
    return dev / (std[ids] + eps)


def best_rate(fn, n, runs):
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


def main():
    n, group_size, runs, seed = (int(a) for a in sys.argv[1:5])
    rng = np.random.default_rng(seed)
    scores = rng.random(n)
    ids = np.arange(n, dtype=np.int64) // group_size
    a = grpo_reshape(scores, group_size, 1e-6)
    b = grpo_bincount(scores, ids, 1e-6)
    out = np.empty(n)
    assert np.allclose(a, b)
    assert np.allclose(a, grpo_reshape_out(scores, group_size, 1e-6, out))
    print(
        json.dumps(
            {
                "numpy": np.__version__,
                "reshape": best_rate(lambda: grpo_reshape(scores, group_size, 1e-6), n, runs),
                "reshape_out": best_rate(lambda: grpo_reshape_out(scores, group_size, 1e-6, out), n, runs),
                "bincount": best_rate(lambda: grpo_bincount(scores, ids, 1e-6), n, runs),
            }
        )
    )


if __name__ == "__main__":
    main()
