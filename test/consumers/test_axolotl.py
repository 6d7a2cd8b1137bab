"""The axolotl export through Axolotl's own, unmodified ``chat_template`` prompt strategy
(vendor/axolotl, with its dependency addict vendored beside it): the strategy built by
``axolotl.prompt_strategies.chat_template.load`` from the exported ``axolotl.yaml`` entry and the docs'
training config (``sequence_len: 8192``, the model's own chat template: Qwen2.5's, as TRL ships it, over
a real Qwen tokenizer), every row tokenized by ``tokenize_prompt`` as Axolotl's dataset mapping calls it.

Checked for every row that keeps a hook-rejected attempt (``training: false``) and for rows spread over
the rest of the file (``SAMPLE``; Axolotl tokenizes a row per assistant turn, ~0.1 s a row here): it is
accepted (Axolotl empties a row longer than ``sequence_len``), every assistant message with ``training``
not false is labelled, and a kept rejected attempt is not.
"""

from __future__ import annotations

import yaml
from conftest import tokenizer_dir, trl_templates
from transformers import AutoTokenizer
from vendored import use

use("axolotl")

SAMPLE = 300

from axolotl.prompt_strategies import chat_template  # noqa: E402
from axolotl.prompters import IGNORE_TOKEN_ID  # noqa: E402
from axolotl.utils.dict import DictDefault  # noqa: E402


def test_every_row_is_accepted_with_its_trained_assistant_turns_labelled(pipeline_out):
    from datasets import load_dataset

    folder = pipeline_out / "exports" / "axolotl"
    (entry,) = yaml.safe_load((folder / "axolotl.yaml").read_text(encoding="utf-8"))["datasets"]
    assert entry["type"] == "chat_template"
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir("qwen3")))
    tokenizer.chat_template = trl_templates()["qwen2_5.jinja"]
    config = DictDefault({"sequence_len": 8192, "chat_template": "tokenizer_default"})
    strategy = chat_template.load(tokenizer, config, DictDefault(entry))
    rows = load_dataset(entry["ds_type"], data_files=str(folder / entry["path"]), split="train")
    keeps_attempt = [
        index
        for index, messages in enumerate(rows[entry["field_messages"]])
        if any(message.get("training") is False for message in messages)
    ]
    spread = range(0, len(rows), max(1, len(rows) // SAMPLE))
    failures, untrained = [], 0
    for index in sorted(set(keeps_attempt) | set(spread)):
        row = rows[index]
        tokenized = strategy.tokenize_prompt(row)
        labels = tokenized["labels"]
        if not tokenized["input_ids"]:
            failures.append((index, "dropped (longer than sequence_len)"))
            continue
        labelled = tokenizer.decode([token for token, label in zip(tokenized["input_ids"], labels) if label != IGNORE_TOKEN_ID])
        assistant = [m for m in row[entry["field_messages"]] if m["role"] == "assistant" and m.get("content")]
        untrained += sum(message.get("training") is False for message in assistant)
        for content in {message["content"] for message in assistant}:
            # A retry may repeat the rejected attempt's words: count the trained copies only.
            trained = sum(m["content"] == content and m.get("training") is not False for m in assistant)
            if labelled.count(content) != trained:
                failures.append((index, f"{content[:40]!r} labelled {labelled.count(content)}x, trained {trained}x"))
    assert not failures, f"{len(failures)}/{len(rows)} rows: {failures[:3]}"
    assert len(rows) > 1000 and untrained > 0
