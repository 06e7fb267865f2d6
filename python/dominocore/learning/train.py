"""Trains the learned policy and value of one configuration (docs/learning.md 2)
by imitating IS-MCTS: the data of ``selfplay.py``, a fixed-point network at
the end. Needs the ``[train]`` extra (torch; matplotlib for the plot)::

    python -m dominocore.learning.selfplay --config chickenfoot-trains-d9-p4 --out data/trains.npz
    python -m dominocore.learning.train --config chickenfoot-trains-d9-p4 --data data/trains.npz \
        --out-dir python/dominocore/weights --log-dir bench/results/learning

Every seed is fixed (``--seed``), so the same data and command give the same
weights on the same machine. It writes ``<key>.dcnet`` to ``--out-dir``, and
the learning curve (``<key>-curve.csv``, ``<key>-curve.svg``) and the
evaluation (``<key>-eval.json``) to ``--log-dir``.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from ..common.learned import ACTIVATION_MAX, fixed_point_outputs, write_network
from .selfplay import CONFIGS

__all__ = ["quantize", "train", "main"]


def _shift_for(largest: float, limit: float, scale: float) -> int:
    """The largest s <= 30 with largest * scale * 2**s <= limit."""
    s = 30
    while s > 0 and largest * scale * (1 << s) > limit:
        s -= 1
    return s


def quantize(
    weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]
) -> Tuple[List[Tuple[np.ndarray, np.ndarray, int]], float]:
    """The float network ``y = W_L clamp01(... clamp01(W_1 x + b_1) ...) + b_L``
    as the fixed-point layers of docs/learning.md 3.2, and the last layer's
    scale (outputs / scale = y)."""
    layers: List[Tuple[np.ndarray, np.ndarray, int]] = []
    scale = 1.0
    for i, (w, b) in enumerate(zip(weights, biases)):
        last = i == len(weights) - 1
        # Layer 0 reads raw integer inputs, later layers read activations of 127 per unit.
        in_scale = ACTIVATION_MAX if i == 0 else 1
        largest = max(float(np.abs(w).max()), 1e-12)
        s = _shift_for(largest, 32767, in_scale)
        bias_limit = (1 << 30) if i > 0 else (1 << 31) - 1 - (1 << 30)
        while s > 0 and float(np.abs(b).max(initial=0.0)) * ACTIVATION_MAX * (1 << s) + (1 << s) > bias_limit:
            s -= 1
        wq = np.round(w * in_scale * (1 << s)).astype(np.int16)
        bq = np.round(b * ACTIVATION_MAX * (1 << s)).astype(np.int64)
        if not last:
            bq += 1 << (s - 1) if s > 0 else 0  # the shift floors: this rounds to nearest
        layers.append((wq, bq.astype(np.int32), 0 if last else s))
        scale = ACTIVATION_MAX * float(1 << s)
    return layers, scale


def _split(n: int, seed: int, held_out: float) -> Tuple[np.ndarray, np.ndarray]:
    order = np.random.default_rng(seed).permutation(n)
    cut = int(n * (1 - held_out))
    return order[:cut], order[cut:]


def train(
    data: Dict[str, np.ndarray],
    *,
    hidden: Sequence[int] = (128, 128),
    epochs: int = 12,
    batch: int = 512,
    lr: float = 1e-3,
    value_weight: float = 0.25,
    seed: int = 1,
    held_out: float = 0.05,
    log: Any = print,
) -> Tuple[List[np.ndarray], List[np.ndarray], float, List[Dict[str, float]]]:
    """Fits the network; returns its float weights and biases, the value
    normalisation (targets were divided by it) and the curve (a row an epoch)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    obs = torch.as_tensor(data["obs"].astype(np.float32))
    mask = torch.as_tensor(data["mask"])
    action = torch.as_tensor(data["action"].astype(np.int64))
    value_norm = float(max(np.abs(data["value"]).mean(), 1e-6))
    value = torch.as_tensor(data["value"] / value_norm)
    train_at, test_at = (torch.as_tensor(a) for a in _split(len(action), seed, held_out))
    sizes = [obs.shape[1], *hidden, mask.shape[1] + 1]
    linears = [torch.nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])]
    params = [p for layer in linears for p in layer.parameters()]
    optimizer = torch.optim.Adam(params, lr=lr)

    def forward(x: Any) -> Any:
        for layer in linears[:-1]:
            x = torch.clamp(layer(x), 0.0, 1.0)
        return linears[-1](x)

    def losses(at: Any) -> Tuple[Any, Any, Any]:
        out = forward(obs[at])
        logits = out[:, :-1].masked_fill(~mask[at], -1e9)
        policy = torch.nn.functional.cross_entropy(logits, action[at])
        value_loss = torch.nn.functional.mse_loss(out[:, -1], value[at])
        accuracy = (logits.argmax(1) == action[at]).float().mean()
        return policy, value_loss, accuracy

    curve: List[Dict[str, float]] = []
    generator = torch.Generator().manual_seed(seed)
    started = time.monotonic()
    for epoch in range(1, epochs + 1):
        order = train_at[torch.randperm(len(train_at), generator=generator)]
        for start in range(0, len(order), batch):
            policy, value_loss, _ = losses(order[start : start + batch])
            optimizer.zero_grad()
            (policy + value_weight * value_loss).backward()
            optimizer.step()
        with torch.no_grad():
            row = {"epoch": float(epoch), "seconds": time.monotonic() - started}
            for name, at in (("train", train_at[: len(test_at)]), ("held_out", test_at)):
                p, v, a = losses(at)
                row.update(
                    {f"{name}_policy_loss": float(p), f"{name}_value_loss": float(v), f"{name}_accuracy": float(a)}
                )
        curve.append(row)
        log(
            f"epoch {epoch}: policy loss {row['train_policy_loss']:.3f} / {row['held_out_policy_loss']:.3f} held out, "
            f"accuracy {row['held_out_accuracy']:.3f}, value loss {row['held_out_value_loss']:.3f}"
        )
    weights = [layer.weight.detach().numpy().astype(np.float64) for layer in linears]
    biases = [layer.bias.detach().numpy().astype(np.float64) for layer in linears]
    return weights, biases, value_norm, curve


def _plot(curve: List[Dict[str, float]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [r["epoch"] for r in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    for name in ("train", "held_out"):
        left.plot(epochs, [r[f"{name}_policy_loss"] for r in curve], label=name.replace("_", " "))
        right.plot(epochs, [r[f"{name}_accuracy"] for r in curve], label=name.replace("_", " "))
    left.set(title=f"{title}: policy loss", xlabel="epoch")
    right.set(title="agreement with IS-MCTS", xlabel="epoch")
    left.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def main(argv: "List[str] | None" = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", choices=sorted(CONFIGS), required=True)
    parser.add_argument("--data", required=True, help="the .npz of selfplay.py")
    parser.add_argument("--out-dir", default=".")
    parser.add_argument("--log-dir", default=".")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--hidden", default="128,128")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="use the first LIMIT decisions only (a smoke run)")
    args = parser.parse_args(argv)
    key = args.config
    with np.load(args.data) as npz:
        data = {k: npz[k][: args.limit or None] for k in npz.files}
    hidden = tuple(int(h) for h in args.hidden.split(","))
    weights, biases, value_norm, curve = train(data, hidden=hidden, epochs=args.epochs, seed=args.seed)
    layers, scale = quantize(weights, biases)
    out = Path(args.out_dir) / f"{key}.dcnet"
    logs = Path(args.log_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    write_network(out, key, data["obs"].shape[1], data["mask"].shape[1], layers, scale, scale / value_norm)
    with open(logs / f"{key}-curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    try:
        _plot(curve, logs / f"{key}-curve.svg", key)
    except ImportError:
        print("matplotlib is not installed: no plot")
    # The shipped integers' own agreement with the expert, on the held-out decisions.
    exact = [(w.astype(np.int64), b.astype(np.int64), shift) for w, b, shift in layers]
    _, test_at = _split(len(data["action"]), args.seed, 0.05)
    agree = 0
    for i in test_at:
        logits = fixed_point_outputs(exact, data["obs"][i])[:-1]
        legal = np.flatnonzero(data["mask"][i])
        agree += int(legal[np.argmax(logits[legal])] == data["action"][i])
    evaluation = {
        "key": key,
        "decisions": int(len(data["action"])),
        "held_out": int(len(test_at)),
        "fixed_point_held_out_accuracy": agree / max(len(test_at), 1),
        "float_held_out_accuracy": curve[-1]["held_out_accuracy"],
        "bytes": out.stat().st_size,
    }
    (logs / f"{key}-eval.json").write_text(json.dumps(evaluation, indent=2) + "\n")
    print(json.dumps(evaluation))


if __name__ == "__main__":
    main()
