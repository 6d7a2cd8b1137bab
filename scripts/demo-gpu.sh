#!/usr/bin/env bash
# The demo's GPU path: `hsa demo` writes the fixed and HSA TRL exports and the variant bench, then
# scripts/demo-gpu.py trains two small transformers from scratch on them (TRL SFTTrainer), answers the
# bench with each (greedy, through `hsa bench predict`) and scores it with `hsa bench score`.
#
#   scripts/demo-gpu.sh full                 # demo at its default sizes; models at full size (an accelerator)
#   scripts/demo-gpu.sh micro                # tiny sizes everywhere: seconds on a CPU (the CI test)
#   scripts/demo-gpu.sh full --steps 6000    # any demo-gpu.py flag overrides its preset
#
# Environment: DEMO_GPU_OUT (default out/demo-gpu), DEMO_GPU_DOMAIN (livestream), DEMO_GPU_SEED (42),
# DEMO_GPU_PYTHON (default $CONSUMER_VENV/bin/python, the venv of scripts/consumer-env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

size=${1:-full}
shift || true
out=${DEMO_GPU_OUT:-out/demo-gpu}
python=${DEMO_GPU_PYTHON:-${CONSUMER_VENV:-.venv-consumers}/bin/python}
case $size in
  micro) demo_sizes=(--train-tasks 8 --bench-items 2 --bench-variants 1 --steps 20) ;;
  full) demo_sizes=() ;;
  *) echo "usage: scripts/demo-gpu.sh micro|full [demo-gpu.py flags]" >&2; exit 2 ;;
esac
if [[ ! -x $python ]]; then
  echo "demo-gpu: no Python at $python; run scripts/consumer-env.sh or set DEMO_GPU_PYTHON" >&2
  exit 1
fi
mkdir -p "$out"
npx tsx src/cli/main.ts demo --no-ablation --domain "${DEMO_GPU_DOMAIN:-livestream}" --seed "${DEMO_GPU_SEED:-42}" \
  --out "$out/demo" "${demo_sizes[@]}" > "$out.demo.log" 2>&1 || { cat "$out.demo.log" >&2; exit 1; }
"$python" scripts/demo-gpu.py --demo-out "$out/demo" --out "$out/models" --size "$size" "$@"
