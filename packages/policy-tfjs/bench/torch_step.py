"""The policy-tfjs network and its training step in PyTorch, for the bench's CPU comparison.

Reads a batch written by bench.ts (manifest JSON + float32/int32 arrays) and the starting weights, and
times the same computation the tfjs trainer runs: the bag-of-words embedding, the bilinear scorer, the
skill-reading attention over clause pairs, log-softmax over candidates, PPO's clipped loss with a k3 KL
term (token-mean), backward and one Adam step. Prints one JSON line: {"median_ms": ..., "min_ms": ...}.
Usage: /usr/bin/python3 torch_step.py <dir> [reps]
"""
import json
import sys
import time

import numpy as np
import torch

torch.set_num_threads(1)


def load(directory):
    with open(f"{directory}/manifest.json") as f:
        manifest = json.load(f)
    raw = open(f"{directory}/arrays.bin", "rb").read()
    arrays = {}
    for name, spec in manifest["arrays"].items():
        dtype = np.int32 if spec["dtype"] == "int32" else np.float32
        a = np.frombuffer(raw, dtype=dtype, count=spec["length"], offset=spec["offset"]).reshape(spec["shape"])
        arrays[name] = torch.from_numpy(a.astype(np.int64 if dtype == np.int32 else np.float32))
    return manifest, arrays


def main():
    directory = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    m, a = load(directory)
    d, R, C, S, P = m["dim"], m["R"], m["C"], m["S"], m["P"]
    params = {k: a[k].clone().requires_grad_(True) for k in ["embedding", "query", "actionBias", "featureWeights", "prior"]}
    ref = {k: a[k].clone() for k in params}
    opt = torch.optim.Adam(params.values(), lr=0.01)

    def log_probs(w):
        vecs = a["bags"] @ w["embedding"]
        cand = vecs[a["candIdx"]].reshape(R, C, d)
        ctx = torch.cat([vecs[a["goalIdx"]], vecs[a["obsIdx"]], vecs[a["histIdx"]]], 1)
        q = ctx @ w["query"] + w["actionBias"]
        score = (cand * q[:, None, :]).sum(-1)
        score = score + (a["feats"].reshape(R * C, -1) @ w["featureWeights"]).reshape(R, C)
        if S > 0 and P > 0:
            beta, tau, kappa, mu = w["prior"][0], w["prior"][1], w["prior"][2], w["prior"][3]
            dec = a["pairDecision"]
            base = -(kappa * a["done"][dec] + mu * a["rank"][dec]) + (a["clauseMask"][dec] - 1) * 1e9
            att = tau * a["sims"] + base
            alpha = torch.softmax(torch.cat([att, torch.zeros(P, 1)], 1), -1)[:, :S]
            read = (alpha * a["sims"] * a["sign"][dec]).sum(-1) * beta
            full = torch.cat([torch.zeros(1), read])[a["pairIdx"]]
            score = score + full.reshape(R, C)
        logits = score * a["invTemp"][:, None] + (a["candMask"] - 1) * 1e9
        lp = torch.log_softmax(logits, -1)
        return (lp * a["chosen"]).sum(-1).reshape(m["B"], m["T"])

    mask, adv, old = a["mask"], a["advantages"], a["old"]
    with torch.no_grad():
        ref_lp = log_probs(ref)
    times = []
    for _ in range(reps + 1):
        start = time.perf_counter()
        lp = log_probs(params)
        ratio = torch.exp(torch.clamp(lp - old, -20, 20))
        pg = torch.maximum(-adv * ratio, -adv * torch.clamp(ratio, 0.8, 1.2))
        dneg = torch.clamp(ref_lp - lp, -20, 20)
        kl = torch.clamp(torch.exp(dneg) - dneg - 1, -10, 10)
        n = mask.sum()
        loss = (pg * mask).sum() / n + 0.01 * (kl * mask).sum() / n
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params.values(), 1.0)
        opt.step()
        times.append((time.perf_counter() - start) * 1000)
    times = sorted(times[1:])
    print(json.dumps({"median_ms": times[len(times) // 2], "min_ms": times[0], "torch": torch.__version__}))


if __name__ == "__main__":
    main()
