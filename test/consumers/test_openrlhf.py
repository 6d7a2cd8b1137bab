"""The OpenRLHF export through OpenRLHF's own, unmodified code (vendor/openrlhf).

- ``launch.sh``: bash runs the exported script with a ``python3`` on PATH that records the arguments it
  gets; those arguments go through ``openrlhf/cli/train_ppo_ray.py`` run as ``__main__`` — its whole
  parser and every check after it — up to the call of ``train(args)``, where the run stops (it would start
  a Ray cluster and load the model). The flags must all be known to the parser and pass its checks.
- ``hsa_openrlhf_agent.py``: OpenRLHF's ``MultiTurnAgentExecutor.execute`` (the exported ``AgentExecutor``
  subclasses it) plays every prompt row on ``hsa env serve``, with a real Qwen3 tokenizer and a scripted
  policy in place of the vLLM engine: a tool call of the row's own state, then plain replies until the
  episode ends. Every row must end with a finite reward in [0, 1], the tool result back in the
  observation, and the policy's tokens (only those) as the action ranges OpenRLHF trains on.

  OpenRLHF's executor always generates and steps once, so a row whose episode the server ends at ``/reset``
  would fail with 409 ``episode_done``: the RL plan leaves such states out (counted in the manifest), and
  the test requires that no row is over at reset and none fails.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import math
import os
import runpy
import subprocess
import sys
import types

import pytest
from conftest import ROOT, read_jsonl, tokenizer_dir, trl_templates
from rl_env_server import env_server
from transformers import AutoTokenizer
from vendored import use

OPENRLHF = use("openrlhf")


class ReachedTrain(Exception):
    def __init__(self, parsed):
        super().__init__("train(args) reached")
        self.parsed = parsed


def launch_arguments(folder, tmp_path):
    """The arguments launch.sh hands to `python3 -m openrlhf.cli.train_ppo_ray`, as bash expands them."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    record = tmp_path / "argv.json"
    fake = bin_folder / "python3"
    fake.write_text(f'#!{sys.executable}\nimport json, sys\njson.dump(sys.argv[1:], open({str(record)!r}, "w"))\n')
    fake.chmod(0o755)
    environment = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}", "POLICY": "policy-checkpoint"}
    subprocess.run(["bash", str(folder / "launch.sh")], check=True, env=environment, timeout=60)
    return json.loads(record.read_text())


def parse_as_openrlhf(arguments):
    """Runs train_ppo_ray.py as __main__ with these arguments; returns the args it passes to train()."""
    script = OPENRLHF / "openrlhf" / "cli" / "train_ppo_ray.py"

    def stop_at_train(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "train" and frame.f_code.co_filename == str(script):
            raise ReachedTrain(frame.f_locals["args"])
        return None

    saved_argv = sys.argv
    sys.argv = [str(script), *arguments]
    sys.settrace(stop_at_train)
    try:
        runpy.run_path(str(script), run_name="__main__")
    except ReachedTrain as reached:
        return reached.parsed
    finally:
        sys.settrace(None)
        sys.argv = saved_argv
    raise AssertionError("train_ppo_ray.py ended without calling train(args)")


def test_launch_flags_pass_openrlhfs_own_parser_and_checks(pipeline_out, tmp_path):
    folder = pipeline_out / "rl" / "openrlhf"
    arguments = launch_arguments(folder, tmp_path)
    assert arguments[:2] == ["-m", "openrlhf.cli.train_ppo_ray"], arguments[:2]
    args = parse_as_openrlhf(arguments[2:])  # argparse exits (status 2) on a flag it does not know
    assert args.actor.model_name_or_path == "policy-checkpoint"
    assert (folder / args.train.agent_func_path).is_file() and (folder / args.data.prompt_dataset).is_file()
    assert args.reward.remote_url == ["agent"]  # what the parser's checks set for an agent function
    assert args.data.apply_chat_template and args.data.input_key == "prompt" and args.data.label_key == "label"
    assert args.data.max_len > args.rollout.max_new_tokens > 0


class ScriptedPolicy:
    """Stands where vLLM's engine does: `generate(prompt_token_ids, sampling_params, ...)` -> outputs[0]."""

    def __init__(self, tokenizer, texts):
        self.tokenizer = tokenizer
        self.texts = texts
        self.generated = []

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        text = self.texts[min(len(self.generated), len(self.texts) - 1)]
        token_ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        self.generated.append(token_ids)
        output = types.SimpleNamespace(token_ids=token_ids, text=text, logprobs=None)
        return types.SimpleNamespace(outputs=[output])


def enum_call(tools):
    """A call of the state's own tools: the first tool whose first required parameter is an enum."""
    for tool in tools:
        function = tool["function"]
        parameters = function.get("parameters") or {}
        required = parameters.get("required") or []
        if required and "enum" in parameters["properties"][required[0]]:
            return function["name"], {required[0]: parameters["properties"][required[0]]["enum"][0]}
    raise AssertionError("no tool with an enum parameter")


@pytest.fixture(scope="module")
def agent_module(pipeline_out):
    manifest = json.loads((pipeline_out / "manifest.json").read_text(encoding="utf-8"))
    with env_server(str(ROOT / "fixtures" / "livestream" / "harness.yaml"), manifest["rl"]["scenario"]) as url:
        os.environ["HSA_ENV_URL"] = url  # the exported agent reads it when it loads
        spec = importlib.util.spec_from_file_location(
            "hsa_openrlhf_agent", pipeline_out / "rl" / "openrlhf" / "hsa_openrlhf_agent.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
        os.environ.pop("HSA_ENV_URL", None)


def test_openrlhfs_agent_executor_plays_every_prompt_row(pipeline_out, agent_module):
    from openrlhf.utils.agent import MultiTurnAgentExecutor

    assert issubclass(agent_module.AgentExecutor, MultiTurnAgentExecutor)
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir("qwen3")))
    tokenizer.chat_template = trl_templates()["qwen3.jinja"]
    rows = read_jsonl(pipeline_out / "rl" / "openrlhf" / "prompts.jsonl")
    failures, over_at_reset = [], []
    for index, row in enumerate(rows):
        label = json.loads(row["label"])
        if agent_module.env_post("/reset", label["reset"])["done"]:
            over_at_reset.append(index)
        name, arguments = enum_call(label["tools"])
        call = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
        policy = ScriptedPolicy(tokenizer, [f"<tool_call>\n{call}\n</tool_call><|im_end|>", "OK<|im_end|>"])
        # OpenRLHF's prompt dataset renders the row's messages with the tokenizer's template (--data.apply_chat_template).
        prompt = tokenizer.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)
        sampling = types.SimpleNamespace(max_tokens=2048, logprobs=None)  # the two fields execute() reads
        try:
            result = asyncio.run(
                agent_module.AgentExecutor().execute(prompt, row["label"], sampling, 16384, tokenizer, policy)
            )
        except RuntimeError as error:
            failures.append((index, str(error)[:120]))
            continue
        tokens = result["observation_tokens"]
        actions = [tokens[start:end] for start, end in result["action_ranges"]]
        reward = float(result["reward"])
        if actions != policy.generated:
            failures.append((index, "action ranges are not the policy's tokens"))
        elif not (math.isfinite(reward) and 0.0 <= reward <= 1.0):
            failures.append((index, f"reward {reward}"))
        elif "<tool_response>" not in tokenizer.decode(tokens):
            failures.append((index, "the tool call's result is not in the observation"))
    assert over_at_reset == [], over_at_reset
    assert failures == [], f"{len(failures)}/{len(rows)} rows fail: {failures[:3]}"
    assert len(rows) > 10
