"""The demo's GPU path: two small transformers trained from scratch on the fixed and the HSA TRL exports of an
`hsa demo` run, each answering the demo's variant bench, scored by `hsa bench score`.

    scripts/demo-gpu.sh full            # `hsa demo` at its default sizes, then this script at full size
    python scripts/demo-gpu.py --demo-out out/demo --out out/demo-gpu --size micro   # seconds, on a CPU

What it does, per learner (`fixed`, `hsa`):

1. Reads `<demo-out>/<learner>/train.jsonl` (the TRL rows the demo's learner was trained on: the same rows,
   the same number for both) with `datasets`, `messages` as JSON objects (so call arguments stay as written)
   and `tools` as the JSON text TRL decodes itself.
2. Trains a randomly initialised `Qwen2ForCausalLM` (a config, no pretrained weights) with TRL's
   `SFTTrainer`, assistant-only loss, TRL's own Qwen2.5 training chat template. One tokenizer for both
   learners: a byte-level BPE (`test/consumers/tiny.py`) learned from both training sets' rendered text.
3. Serves the model on 127.0.0.1 (an ephemeral port) as an OpenAI-compatible `/v1/chat/completions` (greedy
   decoding; `<tool_call>` blocks become `tool_calls`) and runs `hsa bench predict` against it, so the rows
   are played by the same `answerBenchRow` as every other model (skill loads answered from the row's
   harness, other tools an error result).
4. Scores the predictions with `hsa bench score` and reports `names` (tool and skill selection) on the
   original rows, the variants, and their gap, for both learners, in `<out>/summary.json` and `summary.md`.

The device is CUDA when available (bf16), else the CPU (`--device` overrides). `--size micro|full` picks the
sizes; every size flag overrides its preset.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test" / "consumers"))

PRESETS = {
    # Seconds on a CPU: proves the path runs end to end, says nothing about robustness.
    "micro": dict(hidden_size=32, layers=2, heads=2, steps=2, batch_size=1, lr=1e-3, vocab_size=1000,
                  max_length=8192, max_train_rows=16, bench_items=2, max_new_tokens=24, max_model_calls=2),
    # An accelerator: a ~25M-parameter model per learner on every training row, the whole bench.
    "full": dict(hidden_size=512, layers=8, heads=8, steps=3000, batch_size=8, lr=3e-4, vocab_size=8000,
                 max_length=16384, max_train_rows=0, bench_items=0, max_new_tokens=160, max_model_calls=8),
}
LEARNERS = ("fixed", "hsa")
TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--demo-out", required=True, type=Path, help="an `hsa demo` output folder")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--size", choices=sorted(PRESETS), default="full")
    parser.add_argument("--device", default="auto", help="auto (cuda when available), cuda or cpu")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--hsa", default=os.environ.get("HSA_CLI", "npx tsx src/cli/main.ts"),
                        help="how to run the hsa CLI (default: npx tsx src/cli/main.ts, from the repository)")
    for name, value in PRESETS["micro"].items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=None)
    args = parser.parse_args(argv)
    for name, value in PRESETS[args.size].items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    return args


def read_jsonl(path: Path) -> list:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def training_dataset(path: Path, limit: int):
    """The TRL rows as SFTTrainer reads them: messages as JSON objects, tools as JSON text."""
    from datasets import Dataset, Features, Json, Value

    rows = read_jsonl(path)
    if limit > 0:
        rows = rows[:limit]
    features = Features({"messages": Json(), "tools": Value("string")})
    return Dataset.from_list([{"messages": row["messages"], "tools": row["tools"]} for row in rows], features=features)


def chat_template() -> str:
    import trl

    return (Path(trl.__file__).parent / "chat_templates" / "qwen2_5_training.jinja").read_text(encoding="utf-8")


def rendered(dataset, template: str) -> list[str]:
    from transformers.utils.chat_template_utils import render_jinja_template

    texts = []
    for row in dataset:
        tools = json.loads(row["tools"]) if isinstance(row["tools"], str) else row["tools"]
        texts.append(render_jinja_template([row["messages"]], tools=tools, chat_template=template)[0][0])
    return texts


def build_model(tokenizer, args, device):
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(args.seed)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=args.hidden_size,
        intermediate_size=args.hidden_size * 2,
        num_hidden_layers=args.layers,
        num_attention_heads=args.heads,
        num_key_value_heads=max(1, args.heads // 2),
        max_position_embeddings=max(args.max_length, 4096) * 2,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    return Qwen2ForCausalLM(config).to(device)


def train(name, dataset, tokenizer, args, device, out: Path):
    from trl import SFTConfig, SFTTrainer

    model = build_model(tokenizer, args, device)
    config = SFTConfig(
        output_dir=str(out / name / "trainer"),
        max_steps=args.steps,
        per_device_train_batch_size=args.batch_size,
        learning_rate=args.lr,
        lr_scheduler_type="constant",
        warmup_steps=0,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        seed=args.seed,
        data_seed=args.seed,
        max_length=args.max_length,
        assistant_only_loss=True,
        bf16=device == "cuda",
        use_cpu=device == "cpu",
        dataloader_num_workers=0,
        disable_tqdm=True,
    )
    trainer = SFTTrainer(model=model, args=config, train_dataset=dataset, processing_class=tokenizer)
    result = trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    model.eval()
    return model, {"steps": result.global_step, "losses": losses, "parameters": sum(p.numel() for p in model.parameters())}


def completion(model, tokenizer, request: dict, args, device) -> dict:
    """One greedy completion in the OpenAI format; `<tool_call>` blocks become tool calls."""
    import torch

    messages = []
    for message in request["messages"]:
        message = dict(message)
        calls = message.get("tool_calls")
        if calls:
            message["tool_calls"] = [
                {**call, "function": {**call["function"], "arguments": _json_or_text(call["function"].get("arguments"))}}
                for call in calls
            ]
        messages.append(message)
    ids = tokenizer.apply_chat_template(messages, tools=request.get("tools"), add_generation_prompt=True,
                                        return_tensors="pt", return_dict=True)["input_ids"].to(device)
    with torch.no_grad():
        output = model.generate(ids, max_new_tokens=args.max_new_tokens, do_sample=False,
                                eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    text = tokenizer.decode(output[0, ids.shape[1]:], skip_special_tokens=False).split(tokenizer.eos_token)[0]
    calls = []
    for index, block in enumerate(TOOL_CALL.findall(text)):
        try:
            parsed = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(parsed, dict) and isinstance(parsed.get("name"), str):
            arguments = parsed.get("arguments", {})
            calls.append({"id": f"call_{index}", "type": "function",
                          "function": {"name": parsed["name"], "arguments": json.dumps(arguments)}})
    content = TOOL_CALL.sub("", text).strip()
    message = {"role": "assistant", "content": content if content or not calls else None}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": "demo-gpu", "object": "chat.completion", "created": 0, "model": request.get("model", ""),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": int(ids.shape[1]), "completion_tokens": int(output.shape[1] - ids.shape[1]),
                  "total_tokens": int(output.shape[1])},
    }


def _json_or_text(value):
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def serve(model, tokenizer, args, device):
    """An OpenAI-compatible endpoint on an ephemeral port of 127.0.0.1, one request at a time."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def do_POST(self):
            if not self.path.endswith("/chat/completions"):
                self.send_error(404)
                return
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            with lock:
                body = json.dumps(completion(model, tokenizer, request, args, device)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def hsa(args, *arguments: str):
    command = args.hsa.split() + list(arguments)
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {run.returncode}:\n{run.stderr[-2000:]}")
    return run


def bench_rows(args, out: Path) -> Path:
    """The demo's bench, or the rows of its first `--bench-items` items."""
    source = args.demo_out / "bench" / "rows.jsonl"
    if args.bench_items <= 0:
        return source
    rows = read_jsonl(source)
    items = list(dict.fromkeys(row["itemId"] for row in rows))[: args.bench_items]
    chosen = [row for row in rows if row["itemId"] in set(items)]
    target = out / "bench.jsonl"
    target.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in chosen), encoding="utf-8")
    return target


def names_scores(scores: dict) -> dict:
    """`names` (tool selection and skill selection) on the original rows, the variants, and their gap."""
    def share(rows):
        return None if not rows else sum(r["scores"]["toolSelection"] and r["scores"]["skillSelection"] for r in rows) / len(rows)

    original = share([r for r in scores["rows"] if r["variantIndex"] == 0])
    variants = share([r for r in scores["rows"] if r["variantIndex"] > 0])
    gap = None if original is None or variants is None else original - variants
    return {"original": original, "variants": variants, "gap": gap}


def main(argv=None):
    import torch
    from tiny import tiny_tokenizer

    args = parse_args(argv)
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    args.out.mkdir(parents=True, exist_ok=True)
    template = chat_template()
    datasets = {name: training_dataset(args.demo_out / name / "train.jsonl", args.max_train_rows) for name in LEARNERS}
    texts = [text for name in LEARNERS for text in rendered(datasets[name], template)]
    tokenizer = tiny_tokenizer(texts, template, vocab_size=args.vocab_size)
    bench = bench_rows(args, args.out)
    seed = json.loads((args.demo_out / "summary.json").read_text(encoding="utf-8"))["seed"]
    report = {"format": "hsa-demo-gpu/1", "device": device, "size": args.size,
              "settings": {key: getattr(args, key) for key in PRESETS["micro"]}, "bench": str(bench),
              "benchRows": len(read_jsonl(bench)), "learners": {}}
    for name in LEARNERS:
        model, training = train(name, datasets[name], tokenizer, args, device, args.out)
        server = serve(model, tokenizer, args, device)
        predictions = args.out / name / "predictions.jsonl"
        scores_file = args.out / name / "scores.json"
        try:
            hsa(args, "bench", "predict", "--bench", str(bench), "--endpoint",
                f"http://127.0.0.1:{server.server_address[1]}/v1", "--model", f"demo-gpu-{name}",
                "--max-steps", str(args.max_model_calls), "--concurrency", "1", "--out", str(predictions))
        finally:
            server.shutdown()
        hsa(args, "bench", "score", "--bench", str(bench), "--predictions", str(predictions), "--seed", str(seed),
            "--out", str(scores_file))
        scores = json.loads(scores_file.read_text(encoding="utf-8"))
        report["learners"][name] = {"rows": training_rows(datasets[name]), "training": training,
                                    "names": names_scores(scores), "scores": str(scores_file)}
        del model
        if device == "cuda":
            torch.cuda.empty_cache()
    (args.out / "summary.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (args.out / "summary.md").write_text(markdown(report), encoding="utf-8")
    sys.stdout.write(markdown(report))


def training_rows(dataset) -> int:
    return len(dataset)


def markdown(report: dict) -> str:
    pct = lambda value: "-" if value is None else f"{100 * value:.1f}"  # noqa: E731
    lines = [
        f"# hsa demo, GPU path ({report['size']}, {report['device']})",
        "",
        f"Two `Qwen2ForCausalLM` from random init, {report['settings']['hidden_size']} wide, "
        f"{report['settings']['layers']} layers, {report['settings']['steps']} SFT steps each; "
        f"{report['benchRows']} bench rows, scored by `hsa bench score`; `names` in percent.",
        "",
        "| learner | TRL rows | parameters | loss first → last | original | variants | gap |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, learner in report["learners"].items():
        losses = learner["training"]["losses"]
        loss = f"{losses[0]:.3f} → {losses[-1]:.3f}" if losses else "-"
        names = learner["names"]
        lines.append(f"| {name} | {learner['rows']} | {learner['training']['parameters']} | {loss} | "
                     f"{pct(names['original'])} | {pct(names['variants'])} | {pct(names['gap'])} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
