"""The policy-tfjs network and its trainer's update in PyTorch, for the bench's CPU comparison.

Reads what bench.ts writes (manifest.json + arrays.bin): the starting weights and the batch, already dealt
into the trainer's mini-batches and packed as the hand-gradient path packs them (each distinct word list
once, as distinct ids with weights count/length; one row per decision with a record). Then runs, per
update, exactly what `createTfjsTrainer(..., { gradients: 'hand' })` computes:

- the frozen skill reader's term per candidate (β·Σ softmax(τ·sim − κ·done − μ·rank; null 0)·sign·sim),
  a constant offset on the logits while `trainPrior` is false, so β τ κ μ are not parameters here;
- the reference policy's log-probs for the KL term (no grad);
- per mini-batch: bag means (embedding_bag) → context [goal; obs; recent; memory] → tanh hidden layer →
  query q = u + h·W_q·s_q and feature weights θ = θ₀ + h·G·s_g (`hiddenScales`) → logits a·q + x·θ + read,
  divided by the temperature → log-softmax over the candidates; PPO's clipped loss with the dual clip,
  k3 KL, the trainer's aggregation; backward, clip_grad_norm_ and one Adam step (tfjs's ε = 1e-7).

Prints one JSON line: median and min ms per update over the timed reps (after one warm-up update), the
torch version, and the weights after all updates (for the bench to compare with the TS trainer's).
With --serve it answers lines on stdin instead, so the bench can interleave its updates with tfjs's under
the same load: "update" runs one and answers {"ms": wall, "cpu_ms": process CPU time}; "weights" answers the weights and metrics so far.
Usage: python3 torch_step.py <dir> [reps] | python3 torch_step.py <dir> --serve
"""
import json
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)

TRAINED = ["embedding", "hiddenWeights", "hiddenBias", "query", "actionBias", "featureWeights", "featureGate"]


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


def skill_reads(prior, p, N, C):
    """The frozen reader's term per (decision, candidate), [N, C]."""
    beta, tau, kappa, mu = prior[0], prior[1], prior[2], prior[3]
    out = torch.zeros(N * C)
    if p["pairDecision"].numel() == 0:
        return out.reshape(N, C)
    dec = p["pairDecision"]
    sims = p["pairSims"]
    base = -(kappa * p["done"][dec] + mu * p["rank"][dec]) + (p["clauseMask"][dec] - 1) * 1e9
    att = tau * sims + base
    alpha = torch.softmax(torch.cat([att, torch.zeros(att.shape[0], 1)], 1), -1)[:, :-1]
    read = beta * (alpha * p["sign"][dec] * sims).sum(-1)
    out[dec * C + p["pairCand"]] = read
    return out.reshape(N, C)


def forward(w, p, reads, d, hq, hg, B, T):
    """log π of the chosen candidates and entropies, [B, T] (0 where a step has no decision)."""
    N, C = p["cand"].shape
    vecs = F.embedding_bag(p["listIds"], w["embedding"], p["listOffsets"], mode="sum", per_sample_weights=p["listWeights"])
    ctx = vecs[p["context"]].reshape(N, -1)
    h = torch.tanh(ctx @ w["hiddenWeights"] + w["hiddenBias"])
    q = w["actionBias"] + (h @ w["query"]) * hq
    theta = w["featureWeights"] + (h @ w["featureGate"]) * hg
    score = (vecs[p["cand"]] * q[:, None, :]).sum(-1) + (p["feats"] * theta[:, None, :]).sum(-1) + reads
    logits = score * p["invTemp"][:, None] + (p["candMask"] - 1) * 1e9
    lp = torch.log_softmax(logits, -1)
    chosen = lp.gather(1, p["chosen"][:, None])[:, 0]
    entropy = -(torch.exp(lp) * lp * p["candMask"]).sum(-1)
    out = torch.zeros(B * T).index_put((p["position"],), chosen)
    ent = torch.zeros(B * T).index_put((p["position"],), entropy)
    return out.reshape(B, T), ent.reshape(B, T)


def aggregate(x, mask, mode, T):
    if mode == "token-mean":
        return (x * mask).sum() / mask.sum().clamp(min=1)
    if mode == "seq-mean-token-mean":
        rows = mask.sum(-1)
        return ((x * mask).sum(-1) / rows.clamp(min=1)).sum() / (rows > 0).sum().clamp(min=1)
    if mode == "seq-mean-token-sum":
        return (x * mask).sum() / (mask.sum(-1) > 0).sum().clamp(min=1)
    raise ValueError(f"aggregation {mode} not mirrored here")


def main():
    directory = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "--serve" else 7
    m, a = load(directory)
    o = m["options"]
    d, H, T = m["dim"], m["hidden"], m["T"]
    hq, hg = m["scales"]["query"], m["scales"]["gate"]
    packs = []
    for i in range(m["parts"]):
        p = {k.split(".", 1)[1]: v for k, v in a.items() if k.startswith(f"m{i}.")}
        p["B"] = int(p["mask"].shape[0])
        packs.append(p)
    params = {k: a[k].clone().requires_grad_(True) for k in TRAINED}
    ref = {k: a[k].clone() for k in TRAINED}
    prior = a["prior"]
    opt = torch.optim.Adam(params.values(), lr=o["lr"], eps=1e-7)

    def update():
        with torch.no_grad():
            reads = [skill_reads(prior, p, *p["cand"].shape) for p in packs]
            refs = [forward(ref, p, r, d, hq, hg, p["B"], T)[0] for p, r in zip(packs, reads)]
        metrics = {}
        for p, r, ref_lp in zip(packs, reads, refs):
            lp, ent = forward(params, p, r, d, hq, hg, p["B"], T)
            mask, adv, old = p["mask"], p["advantages"], p["old"]
            log_ratio = torch.clamp(lp - old, -20, 20)
            ratio = torch.exp(log_ratio)
            unclipped = -adv * ratio
            clipped = -adv * torch.clamp(ratio, 1 - o["clipLow"], 1 + o["clipHigh"])
            surrogate = torch.maximum(unclipped, clipped)
            pg = torch.where(adv < 0, torch.minimum(surrogate, -adv * o["dualClip"]), surrogate)
            loss = aggregate(pg, mask, o["aggregation"], T)
            dneg = torch.clamp(ref_lp - lp, -20, 20)
            kl = torch.clamp(torch.exp(dneg) - dneg - 1, -10, 10)
            loss = loss + o["klCoef"] * aggregate(kl, mask, o["aggregation"], T)
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(params.values(), o["maxGradNorm"])
            opt.step()
            with torch.no_grad():
                n = mask.sum().clamp(min=1)
                metrics = {
                    "loss": float(loss),
                    "grad_norm": float(norm),
                    "clipfrac": float(((clipped > unclipped).float() * mask).sum() / n),
                    "approx_kl": float((-log_ratio * mask).sum() / n),
                    "kl": float((kl * mask).sum() / n),
                    "entropy": float((ent * mask).sum() / n),
                }
        return metrics

    def weights():
        return {k: params[k].detach().reshape(-1).tolist() for k in TRAINED}

    if len(sys.argv) > 2 and sys.argv[2] == "--serve":
        metrics = {}
        print(json.dumps({"ready": True, "torch": torch.__version__, "python": sys.executable}), flush=True)
        for line in sys.stdin:
            command = line.strip()
            if command == "update":
                start, cpu = time.perf_counter(), time.process_time()
                metrics = update()
                wall, cpu = time.perf_counter() - start, time.process_time() - cpu
                print(json.dumps({"ms": wall * 1000, "cpu_ms": cpu * 1000}), flush=True)
            elif command == "weights":
                print(json.dumps({"metrics": metrics, "weights": weights()}), flush=True)
            else:
                break
        return

    times = []
    metrics = {}
    for _ in range(reps + 1):
        start = time.perf_counter()
        metrics = update()
        times.append((time.perf_counter() - start) * 1000)
    timed = sorted(times[1:])
    print(json.dumps({
        "median_ms": timed[len(timed) // 2],
        "min_ms": timed[0],
        "torch": torch.__version__,
        "python": sys.executable,
        "metrics": metrics,
        "weights": weights(),
    }))


if __name__ == "__main__":
    main()
