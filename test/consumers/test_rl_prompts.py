"""Issue 19 item 7: the prompts OpenRLHF and veRL give the model carry the harness state's tool schemas
(parameters, types, descriptions), not the tool names only.

OpenRLHF: the exported agent's `prompt_with_tools` (what `AgentExecutor.execute` hands to OpenRLHF's
MultiTurnAgentExecutor) through a real tokenizer (Qwen3's, with TRL's Qwen3 template). veRL: the state's
tool config as its agent loop dumps it (`tool.tool_schema.model_dump(exclude_unset=True,
exclude_none=True)`, tool_agent_loop.py), rendered through the same tokenizer's chat template.
"""

from __future__ import annotations

import importlib.util
import json

import yaml
from conftest import read_jsonl, tokenizer_dir, trl_templates
from transformers import PreTrainedTokenizerFast


def qwen3_tokenizer():
    tokenizer = PreTrainedTokenizerFast(tokenizer_file=str(tokenizer_dir("qwen3") / "tokenizer.json"))
    tokenizer.chat_template = trl_templates()["qwen3.jinja"]
    return tokenizer


def assert_schemas_in(text, tools):
    for tool in tools:
        function = tool["function"]
        assert json.dumps(function["name"]) in text
        for name, schema in ((function.get("parameters") or {}).get("properties") or {}).items():
            assert json.dumps(name) in text, (function["name"], name)
            if schema.get("description"):
                assert json.dumps(schema["description"], ensure_ascii=False)[1:-1] in text, (function["name"], name)


def test_openrlhf_prompts_carry_the_states_tool_schemas(pipeline_out):
    folder = pipeline_out / "rl" / "openrlhf"
    spec = importlib.util.spec_from_file_location("agent_module", folder / "hsa_openrlhf_agent.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tokenizer = qwen3_tokenizer()
    rows = read_jsonl(folder / "prompts.jsonl")
    environments = set()
    for row in rows:
        label = json.loads(row["label"])
        environments.add(label["environment"])
        text = module.prompt_with_tools(row["label"], tokenizer)
        assert text.endswith("<|im_start|>assistant\n")
        assert_schemas_in(text, label["tools"])
    assert len(environments) > 1


def test_verl_prompts_carry_the_states_tool_schemas(pipeline_out):
    folder = pipeline_out / "rl" / "verl"
    loops = {loop["name"]: loop for loop in yaml.safe_load((folder / "agent_loop_config.yaml").read_text())}
    tokenizer = qwen3_tokenizer()
    for row in read_jsonl(folder / "train.json"):
        config = yaml.safe_load((folder / loops[row["agent_name"]]["tool_config_path"]).read_text())
        tools = [tool["tool_schema"] for tool in config["tools"]]
        text = tokenizer.apply_chat_template(row["prompt"], tools=tools, tokenize=False, add_generation_prompt=True)
        assert_schemas_in(text, tools)
