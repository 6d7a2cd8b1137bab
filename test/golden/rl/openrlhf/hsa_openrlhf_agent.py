"""OpenRLHF agent over the harness-augment environment server (--train.agent_func_path).

OpenRLHF loads this file and calls AgentExecutor() (openrlhf/trainer/ray/vllm_engine.py,
_load_agent_executor); AgentExecutor is a MultiTurnAgentExecutor over AgentInstance, which resets the row's
episode on the server and steps every generated turn there. The label of each prompt row holds its /reset
payload, reward spec, messages and its harness state's tool schemas: OpenRLHF applies the chat template
without tools, so execute() renders the prompt again with the state's tools (the tokenizer's own template).
Tool calls are read from the generated text as Hermes/Qwen <tool_call>{json}</tool_call> blocks, and the
server's answer is written back in the Qwen chat format (<tool_response> blocks in a user turn); change
parse_action and feedback_text for another family.
"""
import re

import json
import os
import urllib.error
import urllib.request

ENV_URL = os.environ.get("HSA_ENV_URL", "http://127.0.0.1:8000")
ENV_TOKEN = os.environ.get("HSA_ENV_TOKEN")


def env_post(path, body, env_url=None):
    """POST JSON to the environment server; raises RuntimeError with the server's message on an error."""
    request = urllib.request.Request(
        (env_url or ENV_URL).rstrip("/") + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"content-type": "application/json"},
        method="POST",
    )
    if ENV_TOKEN:
        request.add_header("authorization", "Bearer " + ENV_TOKEN)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        raise RuntimeError("%s %s: %s" % (path, error.code, error.read().decode("utf-8", "replace"))) from None


def as_reset(value):
    return json.loads(value) if isinstance(value, str) else value


def assistant_message(message):
    """An assistant message as /step takes it: tool-call arguments as JSON text."""
    result = {"role": "assistant", "content": message.get("content")}
    calls = message.get("tool_calls") or []
    if calls:
        result["tool_calls"] = [
            {
                "id": call.get("id") or "call_%d" % index,
                "type": "function",
                "function": {
                    "name": call["function"]["name"],
                    "arguments": call["function"]["arguments"]
                    if isinstance(call["function"]["arguments"], str)
                    else json.dumps(call["function"]["arguments"]),
                },
            }
            for index, call in enumerate(calls)
        ]
    elif result["content"] is None:
        result["content"] = ""
    return result


def row_reward(spec, total, rewards):
    """The row's reward: the total, or the mean of the segment's named rewards that the episode has."""
    spec = as_reset(spec) or {"kind": "total"}
    if spec.get("kind") != "segment":
        return float(total)
    values = [float(rewards[name]) for name in spec.get("names", []) if name in rewards]
    return sum(values) / len(values) if values else float(total)


def episode_result(answer):
    return {"done": bool(answer.get("done")), "total": float(answer.get("reward", 0.0)), "rewards": answer.get("rewards") or {}}


def finish(episode_id, last, env_url=None):
    """The episode's rewards: from the last answer when done, else scored as it stands (/get_reward)."""
    if last["done"]:
        return last
    scored = env_post("/get_reward", {"query": [""], "labels": [episode_id]}, env_url)
    rewards = {name: values[0] for name, values in scored["extra_logs"].items() if name != "done"}
    return {"done": False, "total": float(scored["rewards"][0]), "rewards": rewards}


def replay(reset, messages, env_url=None):
    """Replays a rollout's assistant messages in a fresh episode; tool and user messages come from the server."""
    answer = env_post("/reset", as_reset(reset), env_url)
    episode_id = answer["episode_id"]
    last = episode_result(answer)
    for message in messages:
        if last["done"]:
            break
        if message.get("role") != "assistant":
            continue
        last = episode_result(env_post("/step", {"episode_id": episode_id, "message": assistant_message(message)}, env_url))
    result = finish(episode_id, last, env_url)
    result["episode_id"] = episode_id
    return result


def rollout_messages(completion):
    """A completion as messages: a list of chat messages, JSON text of one, or plain reply text."""
    if isinstance(completion, list):
        return completion
    if isinstance(completion, str):
        try:
            value = json.loads(completion)
            if isinstance(value, list):
                return value
        except ValueError:
            pass
        return [{"role": "assistant", "content": completion}]
    return [completion]


try:
    from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor
except ImportError:  # pragma: no cover - the shapes of openrlhf/utils/agent.py, so this file runs alone

    class AgentInstanceBase:
        def __init__(self, *args, **kwargs):
            pass

    class MultiTurnAgentExecutor:
        def __init__(self, agent_instance_cls):
            self.agent_instance_cls = agent_instance_cls

        async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None):
            raise RuntimeError("OpenRLHF is not installed")


TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


def parse_action(text):
    """An assistant message from generated text: Hermes tool-call blocks, else a plain reply."""
    calls = []
    for index, block in enumerate(TOOL_CALL.findall(text)):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        arguments = value.get("arguments", {})
        calls.append({"id": "call_%d" % index, "type": "function", "function": {"name": value.get("name", ""), "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)}})
    if calls:
        return {"role": "assistant", "content": None, "tool_calls": calls}
    return {"role": "assistant", "content": text.split("<|im_end|>")[0].strip()}


def feedback_text(messages):
    """The server's answer as Qwen's template writes it after an assistant turn (its <|im_end|> is generated)."""
    parts = ["\n"]
    previous = None
    for message in messages:
        if message["role"] == "tool":
            if previous != "tool":
                parts.append("<|im_start|>user")
            parts.append("\n<tool_response>\n%s\n</tool_response>" % message["content"])
        else:
            if previous == "tool":
                parts.append("<|im_end|>\n")
            parts.append("<|im_start|>%s\n%s<|im_end|>\n" % (message["role"], message.get("content") or ""))
        previous = message["role"]
    if previous == "tool":
        parts.append("<|im_end|>\n")
    return "".join(parts) + "<|im_start|>assistant\n"


def prompt_with_tools(label, hf_tokenizer):
    """The row's prompt rendered by the tokenizer's chat template with its harness state's tools."""
    value = json.loads(label)
    return hf_tokenizer.apply_chat_template(value["messages"], tools=value["tools"], tokenize=False, add_generation_prompt=True)


def _tensor(value):
    try:
        import torch

        return torch.tensor(value)
    except ImportError:  # pragma: no cover
        return value


class AgentInstance(AgentInstanceBase):
    def __init__(self, *args, **kwargs):
        self.episode_id = None
        self.spec = None

    async def reset(self, states, **kwargs):
        label = json.loads(states["label"])
        answer = env_post("/reset", label["reset"])
        self.episode_id = answer["episode_id"]
        self.spec = label.get("reward")
        return {"observation": states["observation"]}

    async def step(self, states, **kwargs):
        answer = env_post("/step", {"episode_id": self.episode_id, "message": parse_action(states["action_text"])})
        result = finish(self.episode_id, episode_result(answer))
        reward = row_reward(self.spec, result["total"], result["rewards"]) if answer["done"] else 0.0
        return {
            "rewards": _tensor(reward),
            "scores": _tensor(reward),
            "environment_feedback": "" if answer["done"] else feedback_text(answer["observation"]["messages"]),
            "done": bool(answer["done"]),
            "sampling_params": states.get("sampling_params", None),
            "extra_logs": {name: _tensor(float(value)) for name, value in result["rewards"].items()},
        }


class AgentExecutor(MultiTurnAgentExecutor):
    def __init__(self):
        super().__init__(AgentInstance)

    async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None):
        prompt = prompt_with_tools(label, hf_tokenizer)
        return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images)
