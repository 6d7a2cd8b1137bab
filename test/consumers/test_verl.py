"""The veRL export through veRL's own per-turn tokenization (verl_port.py, from veRL's source) and the
exported ``hsa_verl_dataset.py``: every message rendered alone, concatenated, equal to the whole
conversation, for Qwen2.5 and Llama 3.1 (with ``tools_in_user_message=false``, as docs/exporters.md says).
Qwen3 cannot match (its template adds an empty think block to the last turn only when it sees the whole
conversation): the docs pass ``ignore_input_ids_mismatch``, and this checks that the think block is the
only difference.
"""

from __future__ import annotations

import importlib.util

import pandas as pd
import pytest
import verl_port
from conftest import pipeline_folder, trl_templates
from tiny import tiny_tokenizer

SAMPLE = 40  # rows spread over the file: each costs one render per message

verl_port.install()


def exported_dataset_class():
    path = pipeline_folder() / "exports" / "verl" / "hsa_verl_dataset.py"
    spec = importlib.util.spec_from_file_location("hsa_verl_dataset", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.HsaMultiTurnSFTDataset


@pytest.fixture(scope="module")
def parquet_sample(tmp_path_factory):
    frame = pd.read_parquet(pipeline_folder() / "exports" / "verl" / "train.parquet")
    step = max(1, len(frame) // SAMPLE)
    sample = frame.iloc[::step].head(SAMPLE)
    path = tmp_path_factory.mktemp("verl") / "train.parquet"
    sample.to_parquet(path)
    return path


def tokenizer_for(template_name, parquet):
    from verl_port import convert_nested_value_to_list_recursive

    template = trl_templates()[template_name]
    frame = pd.read_parquet(parquet)
    texts = []
    for raw in frame["messages"].head(4):
        messages = [{k: v for k, v in m.items() if v is not None} for m in convert_nested_value_to_list_recursive(raw)]
        texts.append("".join(str(m.get("content") or "") for m in messages))
    return tiny_tokenizer(texts, template, vocab_size=1500)


@pytest.mark.parametrize(
    "template_name, kwargs",
    [("qwen2_5.jinja", {}), ("llama3_1.jinja", {"tools_in_user_message": False})],
)
def test_every_turn_matches_the_whole_conversation(template_name, kwargs, parquet_sample):
    tokenizer = tokenizer_for(template_name, parquet_sample)
    dataset = exported_dataset_class()(str(parquet_sample), tokenizer, {"apply_chat_template_kwargs": kwargs})
    failures = []
    for index in range(len(dataset)):
        try:
            item = dataset[index]
            assert item["loss_mask"].sum() > 0
        except AssertionError as error:
            failures.append((index, str(error)[:80]))
    assert not failures, f"{len(failures)}/{len(dataset)} rows fail veRL's sanity_check: {failures[:3]}"


def test_qwen3_differs_only_by_the_last_turns_think_block(parquet_sample):
    tokenizer = tokenizer_for("qwen3.jinja", parquet_sample)
    strict = exported_dataset_class()(str(parquet_sample), tokenizer, {})
    with pytest.raises(AssertionError):
        strict[0]
    lenient = exported_dataset_class()(str(parquet_sample), tokenizer, {"ignore_input_ids_mismatch": True})
    for index in range(len(lenient)):
        per_turn = tokenizer.decode(lenient[index]["input_ids"])
        row = lenient.dataframe.iloc[index].to_dict()
        # The whole conversation, through the wrapper's decoding, as sanity_check renders it.
        whole = lenient.tokenizer.apply_chat_template(row["messages"], tools=lenient.tools[index], tokenize=False)
        assert per_turn == whole.replace("<think>\n\n</think>\n\n", ""), index
