"""A real TRL GRPOTrainer run over `npm start`'s RL rows, through TRL's own `environment_factory`.

The environment server is `hsa env serve` on 127.0.0.1 (an ephemeral port), started as the docs start it.
The model is a tiny random-init causal LM over an offline tokenizer with TRL's own Qwen3 template (tiny.py),
so TRL renders each row's harness-state tools in its prompt and parses tool calls as it does for Qwen3.
Checked: the exported `environment_factory` passes TRL's probe (a callable `reset`, one method per tool of
the state, `get_reward`), the tool schemas TRL derives from the methods (transformers' get_json_schema) are
the state's own (names, parameters, types, enums, required), the tool methods step calls in the row's
episode as TRL's tool loop calls them (`tool_dict[name](**arguments)`), and two training steps give finite
rewards from `get_reward`.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import math

import pytest
from conftest import ROOT, read_jsonl, trl_templates
from rl_env_server import env_server
from tiny import tiny_model, tiny_tokenizer

TEMPLATE = "qwen3.jinja"


def load_shim(folder):
    spec = importlib.util.spec_from_file_location("hsa_trl", folder / "hsa_trl.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rl_trl(pipeline_out):
    folder = pipeline_out / "rl" / "trl"
    manifest = json.loads((pipeline_out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest.get("rl"), "npm start's manifest has no RL stage"
    return folder, manifest["rl"]["scenario"]


@pytest.fixture(scope="module")
def server(rl_trl):
    _, scenario = rl_trl
    with env_server(str(ROOT / "fixtures" / "livestream" / "harness.yaml"), scenario) as url:
        yield url


def tool_methods(environment):
    """The methods TRL offers as tools (grpo_trainer.py: public methods but reset and get_reward)."""
    return {
        name: member
        for name, member in inspect.getmembers(environment, predicate=inspect.ismethod)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    }


def test_every_row_names_an_environment_whose_tools_are_its_states(rl_trl, server):
    from transformers.utils import get_json_schema

    folder, _ = rl_trl
    shim = load_shim(folder)
    states = json.loads((folder / "environments.json").read_text(encoding="utf-8"))
    factories = shim.load_environments(folder / "environments.json", env_url=server)
    rows = read_jsonl(folder / "grpo.jsonl")
    assert {row["environment"] for row in rows} == set(factories) == set(states)
    assert "original" in factories and len(factories) > 1, "the rows mix the original harness and variants"
    for state, factory in factories.items():
        methods = tool_methods(factory())
        expected = {tool["function"]["name"]: tool["function"] for tool in states[state]}
        assert set(methods) == set(expected), state
        for name, method in methods.items():
            rendered = get_json_schema(method)["function"]
            want = expected[name]
            assert rendered["name"] == name
            assert " ".join(rendered["description"].split()) == " ".join((want.get("description") or name).split())
            parameters = want.get("parameters") or {}
            assert sorted(rendered["parameters"].get("required", [])) == sorted(parameters.get("required", []))
            for parameter, schema in (parameters.get("properties") or {}).items():
                got = rendered["parameters"]["properties"][parameter]
                assert got.get("type") == schema.get("type"), (state, name, parameter, got, schema)
                assert got.get("enum") == schema.get("enum"), (state, name, parameter)
                if schema.get("description"):
                    assert got["description"].startswith(" ".join(schema["description"].split()))


def enum_call(tools):
    """A call every state can answer: a tool whose one required parameter is an enum (the skill loader)."""
    for tool in tools:
        parameters = tool["function"].get("parameters") or {}
        required = parameters.get("required") or []
        if len(required) == 1 and (parameters["properties"][required[0]].get("enum") or []):
            return tool["function"]["name"], {required[0]: parameters["properties"][required[0]]["enum"][0]}
    raise AssertionError("no tool with a single enum parameter")


def test_tool_methods_step_the_rows_episode_as_trls_tool_loop_calls_them(rl_trl, server):
    folder, _ = rl_trl
    shim = load_shim(folder)
    states = json.loads((folder / "environments.json").read_text(encoding="utf-8"))
    factories = shim.load_environments(folder / "environments.json", env_url=server)
    rows = read_jsonl(folder / "grpo.jsonl")
    rewards = []
    for state in ["original", next(state for state in sorted(factories) if state != "original")]:
        row = next(row for row in rows if row["environment"] == state)
        environment = factories[state]()
        # grpo_trainer.py `_generate_and_score_completions`: `environment.reset(**reset_kwargs)`, the row
        # without its `environment` column in multi-environment mode; None adds nothing to the prompt.
        assert environment.reset(**{key: value for key, value in row.items() if key != "environment"}) is None
        name, arguments = enum_call(states[state])
        # grpo_trainer.py `_tool_call_loop`: `sync_tool_dict[name](**function["arguments"])`, then str(result).
        result = str(tool_methods(environment)[name](**arguments))
        assert result.strip() and not result.startswith("The episode is over"), result
        # The server answered the call in the row's episode: the skill's rules come back as the result.
        assert arguments[next(iter(arguments))] in result or len(result) > 40, result
        reply = [{"role": "assistant", "content": "OK"}]
        assert shim.hsa_reply(completions=[reply], environments=[environment]) == [None]
        reward = environment.get_reward()
        assert math.isfinite(reward) and 0.0 <= reward <= 1.0
        rewards.append(reward)
    assert len(rewards) == 2


def test_grpo_trainer_trains_through_environment_factory_with_finite_rewards(rl_trl, server, tmp_path):
    from datasets import Dataset
    from transformers.utils.chat_template_utils import render_jinja_template
    from trl import GRPOConfig, GRPOTrainer

    folder, _ = rl_trl
    shim = load_shim(folder)
    factories = shim.load_environments(folder / "environments.json", env_url=server)
    states = json.loads((folder / "environments.json").read_text(encoding="utf-8"))
    rows = read_jsonl(folder / "grpo.jsonl")
    original = next(row for row in rows if row["environment"] == "original")
    variant = next(row for row in rows if row["environment"] != "original")
    picked = [original, variant]
    template = trl_templates()[TEMPLATE]
    texts = [
        render_jinja_template([row["prompt"]], tools=states[row["environment"]], chat_template=template)[0][0]
        for row in picked
    ]
    tokenizer = tiny_tokenizer(texts, template, vocab_size=3000)
    model = tiny_model(tokenizer)
    args = GRPOConfig(
        output_dir=str(tmp_path),
        max_steps=2,
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=12,
        learning_rate=1e-4,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=model,
        processing_class=tokenizer,
        args=args,
        train_dataset=Dataset.from_list(picked),
        environment_factory=factories,
        reward_funcs=[shim.hsa_reply],
    )
    # TRL probed every state's environment and kept its tools for that state's prompts.
    for state in factories:
        assert sorted(tool.__name__ for tool in trainer._env_tools[state]) == sorted(
            tool["function"]["name"] for tool in states[state]
        )
    # The prompt TRL renders for a row carries its state's tool schemas (trl's own _tokenize_prompts path).
    rendered = tokenizer.apply_chat_template(
        [variant["prompt"]], tools=trainer._env_tools[variant["environment"]], tokenize=False, add_generation_prompt=True
    )[0]
    for tool in states[variant["environment"]]:
        assert json.dumps(tool["function"]["name"]) in rendered
    trainer.train()
    logged = [entry for entry in trainer.state.log_history if "reward" in entry]
    assert len(logged) == 2
    for entry in logged:
        assert math.isfinite(entry["reward"]), entry
        assert math.isfinite(entry["rewards/HsaEnvironment/mean"]), entry
        assert math.isfinite(entry["loss"]), entry


def test_no_row_is_left_out_without_a_word_and_every_reason_is_trls_own(rl_trl, pipeline_out):
    # Every planned row is in grpo.jsonl or in rejects.jsonl; the manifest counts both, by reason. A left-out
    # state is one whose tools TRL cannot offer: writing its tool as a method with the state's parameter
    # names fails in Python itself (inspect.Parameter), before TRL's get_json_schema could see it.
    import re

    folder, _ = rl_trl
    planned = read_jsonl(pipeline_out / "rl" / "rows.jsonl")
    kept = read_jsonl(folder / "grpo.jsonl")
    rejects_file = folder / "rejects.jsonl"
    left = read_jsonl(rejects_file) if rejects_file.exists() else []
    assert sorted([row["hsa_row_id"] for row in kept] + [row["row_id"] for row in left]) == sorted(
        row["id"] for row in planned
    )
    manifest = json.loads((pipeline_out / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [entry for entry in manifest["rl"]["formats"] if entry["format"] == "trl"]
    assert (entry["rows"], entry["rejected"]) == (len(kept), len(left))
    counted = {reject["reason"]: reject["rows"] for reject in entry.get("rejects", [])}
    assert counted == {reason: sum(1 for row in left if row["reason"] == reason) for reason in {row["reason"] for row in left}}
    shim = load_shim(folder)
    by_id = {row["id"]: row for row in planned}
    for reject in left:
        name = re.search(r'parameter "([^"]+)" is not a Python parameter name', reject["reason"])
        if not name:
            continue
        tool = next(
            tool
            for tool in by_id[reject["row_id"]]["tools"]
            if name.group(1) in ((tool["function"].get("parameters") or {}).get("properties") or {})
        )
        with pytest.raises(ValueError, match="not a valid parameter name|is a keyword|duplicate parameter name"):
            shim._tool_method(tool)
