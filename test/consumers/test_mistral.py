"""The Mistral exports pass Mistral's own tokenizer code: mistral-common's request validator and
``encode_chat_completion`` with the v3 (Mistral 7B v0.3) and Tekken (Nemo) tokenizers it ships; and the SFT
recipe of docs/exporters.md (its code block, run as written) trains a tiny model 2 steps on the
completion's tokens only.

mistral-common imports ``pydantic_extra_types.language_code`` for the language field of audio
transcription requests, and the local wheel index has no pydantic-extra-types. Where it is missing, that
one name is given a plain ``str`` before the import; nothing on the chat path reads it. Everything this
test checks is mistral-common's own code.
"""

from __future__ import annotations

import json
import sys
import types
from collections import Counter
from pathlib import Path

import pytest
from conftest import pipeline_folder, read_jsonl

try:
    import pydantic_extra_types.language_code  # noqa: F401
except ImportError:
    package = types.ModuleType("pydantic_extra_types")
    language_code = types.ModuleType("pydantic_extra_types.language_code")
    language_code.LanguageAlpha2 = str
    package.language_code = language_code
    sys.modules.setdefault("pydantic_extra_types", package)
    sys.modules.setdefault("pydantic_extra_types.language_code", language_code)

import mistral_common  # noqa: E402
from mistral_common.protocol.instruct.request import ChatCompletionRequest  # noqa: E402
from mistral_common.protocol.instruct.validator import ValidationMode  # noqa: E402
from mistral_common.tokens.tokenizers.mistral import MistralTokenizer  # noqa: E402

DATA = Path(mistral_common.__file__).parent / "data"
# v3 checks every row; Tekken (a 15 MB vocabulary, slower to load and encode) a spread of 100.
TOKENIZERS = {"mistral_instruct_tokenizer_240323.model.v3": 1, "tekken_240718.json": 20}


def encode_failures(tokenizer, rows):
    failures = Counter()
    for row in rows:
        try:
            request = ChatCompletionRequest.from_openai(row["messages"], tools=json.loads(row["tools"]))
            tokenizer.encode_chat_completion(request)
        except Exception as error:  # mistral-common's own message is the reason
            failures[str(error)[:160]] += 1
    return failures


@pytest.mark.parametrize("tokenizer_file", sorted(TOKENIZERS))
def test_every_mistral_row_encodes(tokenizer_file):
    tokenizer = MistralTokenizer.from_file(str(DATA / tokenizer_file), mode=ValidationMode.finetuning)
    rows = read_jsonl(pipeline_folder() / "exports" / "trl-mistral" / "train.jsonl")[:: TOKENIZERS[tokenizer_file]]
    assert len(rows) > 0
    failures = encode_failures(tokenizer, rows)
    assert not failures, f"{sum(failures.values())}/{len(rows)} rows fail: {failures.most_common(3)}"


def test_the_default_ids_are_what_mistral_refuses():
    # The check can fail: the default export's ids (call_…) are refused by the same code.
    tokenizer = MistralTokenizer.from_file(str(DATA / "mistral_instruct_tokenizer_240323.model.v3"), mode=ValidationMode.finetuning)
    rows = read_jsonl(pipeline_folder() / "exports" / "trl" / "train.jsonl")[:20]
    failures = encode_failures(tokenizer, rows)
    assert sum(failures.values()) == 20 and all("length of 9" in reason for reason in failures)


def docs_recipe():
    """docs/exporters.md's Mistral SFT block, run as written up to the line that names the checkpoint."""
    from conftest import ROOT

    docs = (ROOT / "docs" / "exporters.md").read_text(encoding="utf-8")
    section = docs.split("#### Mistral: tokenized by mistral-common", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    definitions = block.split("\nTOKENIZER = ", 1)[0]
    assert "SFTTrainer(" in block and "completion_only_loss=True" in block
    namespace = {}
    exec(compile(definitions, "docs/exporters.md (Mistral SFT)", "exec"), namespace)
    return namespace


# 2 steps of batch 2; the shortest rows of the export keep the run short on a CPU.
LINES = 4


@pytest.mark.parametrize("tokenizer_file", sorted(TOKENIZERS))
def test_sft_recipe_trains_the_completion_tokens_only(tokenizer_file, tmp_path):
    import math

    from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy
    from tiny import tiny_model

    recipe = docs_recipe()
    export = pipeline_folder() / "exports" / "trl-mistral-prompt-completion" / "train.jsonl"
    lines = sorted(export.read_text(encoding="utf-8").splitlines(), key=len)
    # Two short rows that answer in text and two that call tools.
    texts = [line for line in lines if '"tool_calls"' not in line.split('"completion"', 1)[1]][:2]
    calls = [line for line in lines if '"tool_calls"' in line.split('"completion"', 1)[1]][:2]
    picked = texts + calls
    subset = tmp_path / "train.jsonl"
    subset.write_text("\n".join(picked) + "\n", encoding="utf-8")
    rows = [json.loads(line) for line in picked]
    assert all(set(row) == {"prompt", "completion", "tools"} for row in rows)

    tokenizer_path = str(DATA / tokenizer_file)
    dataset = recipe["mistral_sft_dataset"](str(subset), tokenizer_path)
    processing_class = recipe["MistralCommonBackend"](tokenizer_path, mode="finetuning")
    model = tiny_model(processing_class, hidden_size=16)
    # As the docs construct it, with a tiny model and a 2-step run.
    args = recipe["SFTConfig"](
        output_dir=str(tmp_path / "out"),
        completion_only_loss=True,
        pad_token="</s>",
        max_length=8192,
        max_steps=2,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        seed=0,
    )
    trainer = recipe["SFTTrainer"](model=model, args=args, train_dataset=dataset, processing_class=processing_class)
    prepared = list(trainer.train_dataset)
    assert len(prepared) == len(rows)

    inner = MistralTokenizer.from_file(tokenizer_path, mode=ValidationMode.finetuning).instruct_tokenizer.tokenizer
    prompt_ends = {inner.get_special_token("[/INST]"), inner.get_special_token("[/TOOL_RESULTS]")}

    for row, example in zip(rows, prepared, strict=True):
        ids = example["input_ids"]
        trained = [index for index, label in enumerate(example["labels"]) if label != -100]
        assert trained, "no token is trained"
        assert trained == list(range(trained[0], len(ids))), "the trained tokens are not one span"
        assert all(example["labels"][index] == ids[index] for index in trained)
        # The span starts right after the prompt's last marker and ends with the end of the turn.
        assert ids[trained[0] - 1] in prompt_ends, inner.decode(ids[trained[0] - 8 : trained[0] + 2], SpecialTokenPolicy.KEEP)
        assert ids[-1] == inner.eos_id
        span = inner.decode(ids[trained[0] :], SpecialTokenPolicy.IGNORE)
        (message,) = row["completion"]
        if message.get("content"):
            assert message["content"] in span
        for call in message.get("tool_calls") or []:
            assert call["function"]["name"] in span
        for earlier in row["prompt"]:
            if earlier["role"] in ("tool", "user") and len(earlier["content"] or "") > 20:
                assert earlier["content"] not in span, f"{earlier['role']} text in the trained span"

    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses
