"""OpenRLHF agent function over the harness-augment environment server (--agent_func_path).

The label of each prompt row holds its /reset payload and reward spec. Tool calls are read from the generated
text as Hermes/Qwen <tool_call>{json}</tool_call> blocks (change parse_action for another chat format); the
server's answer comes back as <tool_response> blocks and the next user turn in the same chat format.
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
    from openrlhf.utils.agent import AgentExecutorBase, AgentInstanceBase
except ImportError:  # pragma: no cover - runs (and compiles) without OpenRLHF
    AgentInstanceBase = object
    AgentExecutorBase = object

TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


def parse_action(text):
    """An assistant message from generated text: Hermes tool-call blocks, else a plain reply."""
    calls = []
    for index, block in enumerate(TOOL_CALL.findall(text)):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        calls.append({"id": "call_%d" % index, "type": "function", "function": {"name": value.get("name", ""), "arguments": json.dumps(value.get("arguments", {}))}})
    if calls:
        return {"role": "assistant", "content": None, "tool_calls": calls}
    return {"role": "assistant", "content": text.split("<|im_end|>")[0].strip()}


def feedback_text(messages):
    parts = []
    for message in messages:
        if message["role"] == "tool":
            parts.append("<|im_start|>user\n<tool_response>\n%s\n</tool_response><|im_end|>\n" % message["content"])
        elif message["role"] == "user":
            parts.append("<|im_start|>user\n%s<|im_end|>\n" % message["content"])
    return "".join(parts) + "<|im_start|>assistant\n"


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
        try:
            import torch

            rewards = torch.tensor(reward)
        except ImportError:  # pragma: no cover
            rewards = reward
        return {
            "rewards": rewards,
            "scores": rewards,
            "environment_feedback": "" if answer["done"] else feedback_text(answer["observation"]["messages"]),
            "done": bool(answer["done"]),
            "sampling_params": states.get("sampling_params", None),
            "extra_logs": {name: float(value) for name, value in result["rewards"].items()},
        }


class AgentExecutor(AgentExecutorBase):
    def __init__(self, max_steps, max_length, llm_engine, hf_tokenizer, result_queue):
        super().__init__(AgentInstance, max_steps, max_length, llm_engine, hf_tokenizer, result_queue)

    async def execute(self, prompt, label, sampling_params):
        return await super().execute(prompt, label, sampling_params)
