#!/usr/bin/env bash
# One prepared GPU check: serve a small model with vLLM (the serve command built by harness-augment's
# vLLM adapter: tool-call parser, metrics on, optionally n-gram speculative decoding), wait for /health,
# then replay live-stream episodes against it with `hsa latency` and keep the report. Nothing in CI runs
# this; it needs a machine with an NVIDIA GPU, vLLM installed and the model available locally.
#
#   MODEL=Qwen/Qwen3-0.6B PORT=8011 EPISODES=24 CONCURRENCY=4 SPECULATIVE=ngram scripts/gpu-check.sh
#
# Exit codes: 0 report written; 2 a prerequisite is missing (said which); 3 the server or the replay failed.
set -euo pipefail
cd "$(dirname "$0")/.."

MODEL="${MODEL:-Qwen/Qwen3-0.6B}"
TOOL_PARSER="${TOOL_PARSER:-qwen}"
PORT="${PORT:-8011}"
EPISODES="${EPISODES:-24}"
CONCURRENCY="${CONCURRENCY:-4}"
MAX_TOKENS="${MAX_TOKENS:-160}"
SPECULATIVE="${SPECULATIVE:-}"          # empty or "ngram"
HEALTH_TIMEOUT_S="${HEALTH_TIMEOUT_S:-420}"
OUT_DIR="${OUT:-out}/gpu-check"
mkdir -p "$OUT_DIR"

missing() { echo "gpu-check: $1" >&2; exit 2; }
command -v node >/dev/null || missing "node is not installed"
[ -d node_modules ] || missing "node_modules is missing (run npm ci first)"
command -v nvidia-smi >/dev/null || missing "nvidia-smi not found: this check needs an NVIDIA GPU"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > "$OUT_DIR/gpu.txt" || missing "nvidia-smi cannot see a GPU"
command -v python3 >/dev/null || missing "python3 is not installed"
python3 -c "import vllm" 2>/dev/null || missing "vLLM is not installed for python3 (pip install vllm)"
command -v vllm >/dev/null || missing "the vllm command is not on PATH"
python3 -c "import vllm; print(vllm.__version__)" > "$OUT_DIR/vllm-version.txt"
if [ ! -d "$MODEL" ]; then
  python3 - "$MODEL" <<'PY' || missing "model $MODEL is neither a local folder nor in the Hugging Face cache (no network here)"
import sys
from huggingface_hub import snapshot_download
snapshot_download(sys.argv[1], local_files_only=True)
PY
fi

# The serve command, from the library's builder (so the golden-tested command is the one that runs).
SERVE_JSON="$(MODEL="$MODEL" TOOL_PARSER="$TOOL_PARSER" PORT="$PORT" SPECULATIVE="$SPECULATIVE" npx tsx -e '
import { buildVllmServeCommand } from "./src/adapters/inference/index.ts";
const speculative = process.env.SPECULATIVE === "ngram" ? { method: "ngram", num_speculative_tokens: 4, prompt_lookup_max: 4 } : undefined;
const serve = buildVllmServeCommand({ model: process.env.MODEL, toolParser: process.env.TOOL_PARSER, port: Number(process.env.PORT), maxModelLength: 8192, gpuMemoryShare: 0.5, servedModelName: "agent", ...(speculative ? { speculative } : {}) });
console.log(JSON.stringify(serve));
')"
echo "$SERVE_JSON" > "$OUT_DIR/serve-command.json"
mapfile -t SERVE_ARGS < <(python3 -c 'import json,sys; [print(a) for a in json.loads(sys.argv[1])["args"]]' "$SERVE_JSON")
echo "gpu-check: vllm ${SERVE_ARGS[*]}"

vllm "${SERVE_ARGS[@]}" > "$OUT_DIR/vllm.log" 2>&1 &
VLLM_PID=$!
cleanup() { kill "$VLLM_PID" 2>/dev/null || true; wait "$VLLM_PID" 2>/dev/null || true; }
trap cleanup EXIT

started=$(date +%s)
until curl -sf "http://127.0.0.1:$PORT/health" >/dev/null; do
  if ! kill -0 "$VLLM_PID" 2>/dev/null; then
    echo "gpu-check: vLLM exited while loading; last log lines:" >&2; tail -n 30 "$OUT_DIR/vllm.log" >&2; exit 3
  fi
  if [ $(( $(date +%s) - started )) -gt "$HEALTH_TIMEOUT_S" ]; then
    echo "gpu-check: vLLM did not become healthy within ${HEALTH_TIMEOUT_S}s" >&2; tail -n 30 "$OUT_DIR/vllm.log" >&2; exit 3
  fi
  sleep 3
done
echo "gpu-check: healthy after $(( $(date +%s) - started ))s"

npx tsx src/cli/main.ts latency \
  --endpoint "http://127.0.0.1:$PORT/v1" --model agent \
  --harness fixtures/livestream/harness.yaml --scenario livestream \
  --episodes "$EPISODES" --concurrency "$CONCURRENCY" --max-tokens "$MAX_TOKENS" --temperature 0 \
  --deadline 15 --out "$OUT_DIR" || { echo "gpu-check: the latency replay failed" >&2; exit 3; }
curl -sf "http://127.0.0.1:$PORT/metrics" > "$OUT_DIR/metrics.txt" || true
echo "gpu-check: report in $OUT_DIR (latency.json, latency.md, latency.html, vllm.log)"
cat "$OUT_DIR/latency.md"
