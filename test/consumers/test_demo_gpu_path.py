"""The demo's GPU path at micro size on the CPU: scripts/demo-gpu.sh runs `hsa demo`, trains two Qwen2 models
from random init with TRL's SFTTrainer on the fixed and HSA TRL exports, answers the bench through `hsa bench
predict` against the script's own endpoint, and scores it with `hsa bench score`. Micro size proves the path
runs end to end; it measures nothing (the scores of two 50k-parameter models after two steps are noise)."""

import json
import math
import os
import subprocess
import sys

from conftest import ROOT, read_jsonl


def test_demo_gpu_path_runs_at_micro_size_on_the_cpu(tmp_path):
    out = tmp_path / "o"
    env = {
        **os.environ,
        "DEMO_GPU_OUT": str(out),
        "DEMO_GPU_DOMAIN": "itops",
        "DEMO_GPU_PYTHON": sys.executable,
        "CUDA_VISIBLE_DEVICES": "",
    }
    run = subprocess.run([str(ROOT / "scripts" / "demo-gpu.sh"), "micro"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=1500)
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads((out / "models" / "summary.json").read_text(encoding="utf-8"))
    assert summary["device"] == "cpu"
    bench = read_jsonl(summary["bench"])
    assert summary["benchRows"] == len(bench)
    assert sum(row["variantIndex"] == 0 for row in bench) == 2
    assert sum(row["variantIndex"] > 0 for row in bench) >= 2
    fixed_rows = read_jsonl(out / "demo" / "fixed" / "train.jsonl")
    hsa_rows = read_jsonl(out / "demo" / "hsa" / "train.jsonl")
    # The same number of TRL rows, different harnesses behind them.
    assert len(fixed_rows) == len(hsa_rows)
    assert [row["tools"] for row in fixed_rows] != [row["tools"] for row in hsa_rows]
    for name in ("fixed", "hsa"):
        learner = summary["learners"][name]
        assert learner["rows"] == 16
        assert learner["training"]["steps"] == 2
        assert len(learner["training"]["losses"]) == 2
        assert all(math.isfinite(loss) for loss in learner["training"]["losses"])
        predictions = read_jsonl(out / "models" / name / "predictions.jsonl")
        assert [prediction["id"] for prediction in predictions] == [row["id"] for row in bench]
        assert all(any(message["role"] == "assistant" for message in p["output"]) for p in predictions)
        scores = json.loads((out / "models" / name / "scores.json").read_text(encoding="utf-8"))
        assert scores["format"] == "hsa-bench-scores/1"
        assert scores["counts"]["rows"] == len(bench)
        assert scores["counts"]["missing"] == 0
        for value in learner["names"].values():
            assert value is None or -1 <= value <= 1
    assert "| fixed |" in run.stdout and "| hsa |" in run.stdout
