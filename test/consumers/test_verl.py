"""The veRL exports through veRL's own, unmodified code (vendor/verl: veRL 0.7.1, with everything the
modules below import), with transformers 5 and real tokenizers, as the docs' recipes run it.

SFT (docs/exporters.md): ``MultiTurnSFTDataset`` under the exported ``hsa_verl_dataset.py``. veRL renders
every message on its own, cuts the system-prompt prefix the template adds to each piece, masks the
generation prompt of each assistant turn, concatenates the pieces and checks them against the whole
conversation rendered at once (``sanity_check``). Checked: the check passes (Qwen2.5 on every row; Llama
3.1 with ``tools_in_user_message=false``, on rows spread over the file), the loss mask is one run of tokens
per assistant message and nothing else, and each run is that message's own tokens without the generation
prompt. Qwen3 adds an empty think block to the last assistant turn only when it sees the whole
conversation: the docs pass ``ignore_input_ids_mismatch``, and this checks that the think block is the
only difference.

RL (docs/full-loop.md): veRL's ``ToolAgentLoop`` as the exported ``hsa_verl.HsaToolAgentLoop`` of each
row's harness state, with the exported tools (loaded by veRL's tool registry) and interaction, against
``hsa env serve``; the policy replays the simulator's oracle rollout of the row (oracle_rollouts.ts)
through veRL's Hermes tool parser. Every gold call must come back as a tool result, every gold turn be
generated, and the interaction's final score equal the oracle's reward.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import ROOT, pipeline_folder, tokenizer_dir, trl_templates
from transformers import AutoTokenizer
from vendored import project, use

use("verl")

SAMPLE = 300  # rows spread over the file for the other templates; the docs' recipe (Qwen2.5) reads them all


def exported_dataset_class():
    path = pipeline_folder() / "exports" / "verl" / "hsa_verl_dataset.py"
    spec = importlib.util.spec_from_file_location("hsa_verl_dataset", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.HsaMultiTurnSFTDataset


def parquet_file():
    return str(pipeline_folder() / "exports" / "verl" / "train.parquet")


def sample_file(folder):
    """Rows spread over the export (every SAMPLE-th part of the file), as a parquet file of their own."""
    frame = pd.read_parquet(parquet_file())
    path = folder / "sample.parquet"
    frame.iloc[:: max(1, len(frame) // SAMPLE)].head(SAMPLE).to_parquet(path)
    return str(path)


def real_tokenizer(family, template_name):
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir(family)))
    tokenizer.chat_template = trl_templates()[template_name]
    return tokenizer


def loss_runs(loss_mask):
    """(start, end) of each run of ones in the loss mask."""
    runs, start = [], None
    for index, value in enumerate(loss_mask.tolist() + [0]):
        if value and start is None:
            start = index
        elif not value and start is not None:
            runs.append((start, index))
            start = None
    return runs


def test_the_vendored_dataset_is_veRLs_own_release():
    from verl.utils.dataset import multiturn_sft_dataset

    entry = project("verl")
    assert entry["ref"] == "v0.7.1"
    assert multiturn_sft_dataset.__file__.startswith(str(use("verl")))
    assert "verl/utils/dataset/multiturn_sft_dataset.py" in {file["path"] for file in entry["files"]}


@pytest.mark.parametrize(
    "family, template_name, kwargs, rows",
    [
        ("qwen3", "qwen2_5.jinja", {}, "every"),
        ("llama3", "llama3_1.jinja", {"tools_in_user_message": False}, "sample"),
    ],
)
def test_each_row_trains_on_each_assistant_turn(family, template_name, kwargs, rows, tmp_path):
    tokenizer = real_tokenizer(family, template_name)
    # The recipe's settings (docs/exporters.md): truncation=error, a max_length above the longest row.
    config = {"apply_chat_template_kwargs": kwargs, "max_length": 16384, "truncation": "error"}
    path = parquet_file() if rows == "every" else sample_file(tmp_path)
    dataset = exported_dataset_class()(path, tokenizer, config)
    generation_prompt = tokenizer.decode(dataset.generation_prompt)
    assert generation_prompt.strip() in ("<|im_start|>assistant", "<|start_header_id|>assistant<|end_header_id|>")
    assert len(dataset) > (1000 if rows == "every" else SAMPLE // 2)
    failures = []
    for index in range(len(dataset)):
        messages = dataset.messages[index]
        try:
            item = dataset[index]  # raises when sanity_check finds the pieces differ from the whole
        except AssertionError as error:
            failures.append((index, str(error)[:80]))
            continue
        runs = loss_runs(item["loss_mask"])
        assistants = [message for message in messages if message["role"] == "assistant"]
        if len(runs) != len(assistants):
            failures.append((index, f"{len(runs)} loss runs for {len(assistants)} assistant messages"))
            continue
        for (start, end), message in zip(runs, assistants, strict=True):
            text = tokenizer.decode(item["input_ids"][start:end])
            if generation_prompt.strip() in text or (message.get("content") and message["content"][:20] not in text):
                failures.append((index, f"loss run {text[:60]!r} is not the assistant message's own tokens"))
                break
    assert not failures, f"{len(failures)}/{len(dataset)} rows fail veRL's dataset: {failures[:3]}"


def test_qwen3_differs_only_by_the_last_turns_think_block(tmp_path):
    path = sample_file(tmp_path)
    tokenizer = real_tokenizer("qwen3", "qwen3.jinja")
    strict = exported_dataset_class()(str(path), tokenizer, {"max_length": 16384})
    with pytest.raises(AssertionError, match="ignore_input_ids_mismatch"):
        strict[0]
    lenient = exported_dataset_class()(str(path), tokenizer, {"max_length": 16384, "ignore_input_ids_mismatch": True})
    for index in range(len(lenient)):
        item = lenient[index]
        assert item["loss_mask"].sum() > 0, index
        per_turn = tokenizer.decode(item["input_ids"][item["attention_mask"].bool()])
        # The whole conversation, through the wrapper's decoding, as sanity_check renders it.
        whole = lenient.tokenizer.apply_chat_template(
            lenient.messages[index], tools=lenient.tools[index], tokenize=False
        )
        assert per_turn == whole.replace("<think>\n\n</think>\n\n", ""), index
        padding = ~item["attention_mask"].bool()
        assert not item["loss_mask"][padding].any(), index


# veRL's RL tool loop: the exported agent loop, tools and interaction inside veRL's own ToolAgentLoop.


class GoldPolicy:
    """Stands where veRL's LLM server manager does (``generate(request_id, prompt_ids=, sampling_params=)``):
    answers each turn with the next assistant message of the simulator's oracle rollout, written as Qwen3
    writes it (Hermes ``<tool_call>`` blocks, then ``<|im_end|>``) and tokenized by the policy's tokenizer."""

    def __init__(self, tokenizer, messages):
        self.tokenizer = tokenizer
        self.texts = [self.hermes(message) for message in messages]
        self.turns = 0

    @staticmethod
    def hermes(message):
        calls = [
            "<tool_call>\n%s\n</tool_call>"
            % json.dumps(
                {"name": call["function"]["name"], "arguments": json.loads(call["function"]["arguments"])},
                ensure_ascii=False,
            )
            for call in message.get("tool_calls") or []
        ]
        return (message.get("content") or "") + "\n".join(calls) + "<|im_end|>"

    async def generate(self, request_id, *, prompt_ids, sampling_params, image_data=None, video_data=None):
        from verl.workers.rollout.replica import TokenOutput

        text = self.texts[self.turns] if self.turns < len(self.texts) else "<|im_end|>"
        self.turns += 1
        return TokenOutput(token_ids=self.tokenizer.encode(text, add_special_tokens=False))


def oracle_rollouts(pipeline_out):
    """The simulator's oracle rollout of each RL row (oracle_rollouts.ts), by row id."""
    script = Path(__file__).with_name("oracle_rollouts.ts")
    completed = subprocess.run(
        ["node", "--import", "tsx", str(script), str(pipeline_out / "rl" / "rows.jsonl")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=True,
    )
    return {line["id"]: line for line in map(json.loads, completed.stdout.splitlines())}


async def play(hsa_verl, entry, config, policy, tokenizer, row):
    """One rollout, as veRL's AgentLoopWorker runs it inside its event loop: the loop built by
    hydra.utils.instantiate(entry, trainer_config=..., ...), then ``run(sampling_params, **row)``."""
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap
    from verl.utils.dataset.rl_dataset import RLHFDataset

    loop = hsa_verl.HsaToolAgentLoop(
        **{key: value for key, value in entry.items() if not key.startswith("_")},
        trainer_config=DictConfigWrap(config),
        server_manager=policy,
        tokenizer=tokenizer,
        processor=None,
        dataset_cls=RLHFDataset,
        data_config=DictConfigWrap(config.data),
    )
    return await loop.run({}, raw_prompt=row["prompt"], extra_info=row["extra_info"])


def verl_trainer_config(folder):
    from omegaconf import OmegaConf

    # The docs' launch flags (docs/full-loop.md) that the agent loop reads; the rest at veRL's defaults.
    return OmegaConf.create(
        {
            "actor_rollout_ref": {
                "rollout": {
                    "prompt_length": 4608,
                    "response_length": 4096,
                    "multi_turn": {
                        "format": "hermes",
                        "max_user_turns": None,
                        "max_assistant_turns": None,
                        "max_parallel_calls": 8,
                        "max_tool_response_length": 2048,
                        "tool_response_truncate_side": "middle",
                        "tool_config_path": None,
                        "interaction_config_path": str(folder / "interaction_config.yaml"),
                    },
                },
                "model": {},
            },
            "data": {"apply_chat_template_kwargs": {}},
        }
    )


def test_veRLs_tool_loop_runs_every_gold_call_of_every_rl_row(pipeline_out):
    import asyncio

    import yaml
    from rl_env_server import env_server
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop

    folder = pipeline_out / "rl" / "verl"
    rows = [json.loads(line) for line in (folder / "train.json").read_text(encoding="utf-8").splitlines()]
    gold = oracle_rollouts(pipeline_out)
    loops = {entry["name"]: entry for entry in yaml.safe_load((folder / "agent_loop_config.yaml").read_text())}
    tokenizer = real_tokenizer("qwen3", "qwen3.jinja")
    config = verl_trainer_config(folder)
    manifest = json.loads((pipeline_out / "manifest.json").read_text(encoding="utf-8"))
    results, over_at_reset = {}, []
    with env_server(str(ROOT / "fixtures" / "livestream" / "harness.yaml"), manifest["rl"]["scenario"]) as url:
        os.environ["HSA_ENV_URL"] = url  # hsa_verl.py reads it when it loads (PYTHONPATH, as the docs run it)
        sys.path.insert(0, str(folder))
        try:
            hsa_verl = importlib.import_module("hsa_verl")
            assert issubclass(hsa_verl.HsaToolAgentLoop, ToolAgentLoop)
            for row in rows:
                rollout = gold[row["extra_info"]["row_id"]]
                reset = hsa_verl.as_reset(row["extra_info"]["interaction_kwargs"]["reset"])
                if hsa_verl.env_post("/reset", reset)["done"]:
                    over_at_reset.append(row["extra_info"]["row_id"])
                assert rollout["variantId"] == (row["extra_info"]["variant_id"] or None)
                entry = loops[row["agent_name"]]
                policy = GoldPolicy(tokenizer, rollout["messages"])
                try:
                    output = asyncio.run(play(hsa_verl, entry, config, policy, tokenizer, row))
                except RuntimeError as error:
                    results[row["extra_info"]["row_id"]] = ("error", str(error)[:160])
                    continue
                results[row["extra_info"]["row_id"]] = ("ran", output, rollout, policy)
        finally:
            sys.path.remove(str(folder))
            os.environ.pop("HSA_ENV_URL", None)

    errors = {row_id: result[1] for row_id, result in results.items() if result[0] == "error"}
    # The RL plan leaves out the states an input hook ends at /reset (counted in the manifest): a trainer's
    # loop steps every row it gets, and /step on a finished episode is a 409.
    assert over_at_reset == [], over_at_reset
    assert errors == {}, errors
    failures, calls = [], 0
    for row_id, result in results.items():
        if result[0] == "error":
            continue
        _, output, rollout, policy = result
        gold_calls = sum(len(message.get("tool_calls") or []) for message in rollout["messages"])
        calls += gold_calls
        response = output.response_ids
        observed = tokenizer.decode([t for t, m in zip(response, output.response_mask, strict=True) if not m])
        generated = tokenizer.decode([t for t, m in zip(response, output.response_mask, strict=True) if m])
        if policy.turns < len(rollout["messages"]):
            failures.append((row_id, f"the loop ended after {policy.turns} of {len(rollout['messages'])} gold turns"))
        elif observed.count("<tool_response>") != gold_calls or any(
            # veRL's _call_tool on an exception, and HsaEnvTool on a call it cannot place in the episode.
            marker in observed
            for marker in ("Error when executing tool", "error: no episode", "error: this call is not")
        ):
            failures.append((row_id, f"{observed.count('<tool_response>')} tool results for {gold_calls} gold calls"))
        elif generated.count("<tool_call>") != gold_calls:
            failures.append((row_id, "the policy's tool calls are not all in the trained response"))
        elif not output.extra_fields["turn_scores"] or output.extra_fields["turn_scores"][-1] != pytest.approx(
            rollout["reward"]
        ):
            failures.append((row_id, f"score {output.extra_fields['turn_scores'][-1:]} != oracle {rollout['reward']}"))
    assert not failures, f"{len(failures)}/{len(rows)} rows: {failures[:3]}"
    assert calls > len(rows), calls
