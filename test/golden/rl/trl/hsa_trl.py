"""Reward function and environment for TRL's GRPOTrainer over the harness-augment environment server.

Start the server first (hsa env serve ... --port 8000), then:
    from hsa_trl import hsa_reward
    trainer = GRPOTrainer(model=..., reward_funcs=[hsa_reward], train_dataset=load_dataset("json", data_files="grpo.jsonl", split="train"), ...)
Each completion is replayed in a fresh episode of the row's scenario under the row's harness state
(hsa_reset pins the variant id); the reward is the episode's total, or its segment's reward (hsa_reward_spec).
"""
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


def hsa_reward(prompts=None, completions=None, hsa_reset=None, hsa_reward_spec=None, environments=None, **kwargs):
    """TRL reward function: one float per completion."""
    if environments is not None:
        return [environment.reward for environment in environments]
    rewards = []
    for index, completion in enumerate(completions):
        spec = hsa_reward_spec[index] if hsa_reward_spec is not None else None
        result = replay(hsa_reset[index], rollout_messages(completion))
        rewards.append(row_reward(spec, result["total"], result["rewards"]))
    return rewards


class HsaEnvironment:
    """One episode on the environment server: reset with the row's columns, then one step per assistant message."""

    def __init__(self, env_url=None):
        self.env_url = env_url
        self.episode_id = None
        self.spec = None
        self.done = False
        self.reward = 0.0
        self.tools = []

    def reset(self, hsa_reset=None, hsa_reward_spec=None, **kwargs):
        answer = env_post("/reset", as_reset(hsa_reset), self.env_url)
        self.episode_id = answer["episode_id"]
        self.spec = hsa_reward_spec
        self.tools = answer["observation"]["tools"]
        self._update(answer)
        return answer["observation"]["messages"]

    def step(self, message):
        """Takes one assistant message; returns the messages it produced (tool results, feedback, the next user turn)."""
        answer = env_post("/step", {"episode_id": self.episode_id, "message": assistant_message(message)}, self.env_url)
        self._update(answer)
        return answer["observation"]["messages"]

    def _update(self, answer):
        result = episode_result(answer)
        if not result["done"]:
            result = finish(self.episode_id, result, self.env_url)
        self.done = bool(answer.get("done"))
        self.reward = row_reward(self.spec, result["total"], result["rewards"])
