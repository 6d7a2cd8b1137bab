"""The llama-factory export through LLaMA-Factory's own, unmodified data pipeline (vendor/llamafactory):
its dataset_info.json parser, its sharegpt converter and its supervised processor with the ``qwen``
template, as docs/exporters.md's ``hsa_sft.yaml`` sets them (``template: qwen``, ``cutoff_len: 8192``),
over a real Qwen tokenizer.

Every row must convert (the converter empties a row whose turns break its alternation rule), survive the
processor (it drops a row whose prompt and response do not pair up), and come out with each of its model
turns (``gpt`` and ``function_call``) labelled: one run of labelled tokens per model turn, none cut by
``cutoff_len``. LLaMA-Factory pins transformers <= 5.8; the local index has 5.17 and 5.18 only, so the
suite sets LLaMA-Factory's own ``DISABLE_VERSION_CHECK=1`` (its message names it) and runs on 5.18.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import tokenizer_dir
from transformers import AutoTokenizer
from vendored import use

os.environ.setdefault("DISABLE_VERSION_CHECK", "1")
use("llamafactory")

from llamafactory.data.converter import get_dataset_converter  # noqa: E402
from llamafactory.data.parser import get_dataset_list  # noqa: E402
from llamafactory.data.processor.supervised import SupervisedDatasetProcessor  # noqa: E402
from llamafactory.data.template import get_template_and_fix_tokenizer  # noqa: E402
from llamafactory.extras.constants import IGNORE_INDEX  # noqa: E402
from llamafactory.hparams.data_args import DataArguments  # noqa: E402


def labelled_runs(labels):
    runs, inside = 0, False
    for label in labels:
        if label != IGNORE_INDEX and not inside:
            runs += 1
        inside = label != IGNORE_INDEX
    return runs


@pytest.fixture(scope="module")
def export(pipeline_out):
    folder = pipeline_out / "exports" / "llama-factory"
    (name,) = json.loads((folder / "dataset_info.json").read_text(encoding="utf-8"))
    return folder, name


def test_every_row_is_converted_and_labelled_on_each_model_turn(export):
    from datasets import load_dataset

    folder, name = export
    data_args = DataArguments(template="qwen", cutoff_len=8192, dataset=name, dataset_dir=str(folder))
    (attr,) = get_dataset_list(data_args.dataset, data_args.dataset_dir)
    assert attr.formatting == "sharegpt" and attr.load_from == "file"
    # LLaMA-Factory's loader reads a local .jsonl file with the datasets JSON builder.
    rows = load_dataset("json", data_files=str(folder / attr.dataset_name), split="train")
    converter = get_dataset_converter(attr.formatting, attr, data_args)
    aligned = [converter(row) for row in rows]
    broken = [index for index, example in enumerate(aligned) if not example["_prompt"]]
    assert not broken, f"{len(broken)}/{len(rows)} rows break LLaMA-Factory's sharegpt rules: {broken[:5]}"

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir("qwen3")))
    template = get_template_and_fix_tokenizer(tokenizer, data_args)
    processor = SupervisedDatasetProcessor(template=template, tokenizer=tokenizer, processor=None, data_args=data_args)
    batch = {key: [example[key] for example in aligned] for key in aligned[0]}
    encoded = processor.preprocess_dataset(batch)
    assert len(encoded["input_ids"]) == len(rows), "the supervised processor dropped rows"

    failures = []
    for index, (row, input_ids, labels) in enumerate(zip(rows, encoded["input_ids"], encoded["labels"], strict=True)):
        model_turns = sum(turn[attr.role_tag] in (attr.assistant_tag, attr.function_tag) for turn in row[attr.messages])
        if len(input_ids) >= data_args.cutoff_len:
            failures.append((index, f"{len(input_ids)} tokens reach cutoff_len"))
        elif labelled_runs(labels) != model_turns:
            failures.append((index, f"{labelled_runs(labels)} labelled runs for {model_turns} model turns"))
    assert not failures, f"{len(failures)}/{len(rows)} rows: {failures[:3]}"
    assert "<tool_call>" in tokenizer.decode([label for label in encoded["labels"][0] if label != IGNORE_INDEX])
