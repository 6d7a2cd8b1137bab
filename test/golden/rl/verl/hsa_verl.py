"""veRL tool, interaction and reward shim over the harness-augment environment server.

tool_config.yaml points every tool at HsaEnvTool and interaction_config.yaml at HsaEnvInteraction; both
play the same episode on the server, keyed by veRL's request id. compute_score replays a rollout given as
messages (extra_info["messages"] or JSON text) when no interaction score is at hand.
"""
import asyncio
import uuid

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


try:  # veRL when installed; plain classes otherwise, so that this file also runs (and compiles) alone
    from verl.tools.base_tool import BaseTool
except ImportError:  # pragma: no cover
    BaseTool = object
try:
    from verl.interactions.base import BaseInteraction
except ImportError:  # pragma: no cover
    BaseInteraction = object

# request id -> {"episode_id", "spec", "result"}: the interaction and the tools of one rollout share it.
EPISODES = {}


def _text(messages):
    return "\n".join(message.get("content") or "" for message in messages)


def _call(function, *args):
    return asyncio.get_running_loop().run_in_executor(None, function, *args)


class HsaEnvInteraction(BaseInteraction):
    def __init__(self, config=None):
        config = dict(config or {})
        if BaseInteraction is not object:
            super().__init__(config)
        self.env_url = config.get("env_url")

    async def start_interaction(self, instance_id=None, reset=None, reward_spec=None, **kwargs):
        instance_id = instance_id or str(uuid.uuid4())
        answer = await _call(env_post, "/reset", as_reset(reset), self.env_url)
        EPISODES[instance_id] = {"episode_id": answer["episode_id"], "spec": reward_spec, "result": episode_result(answer)}
        return instance_id

    async def generate_response(self, instance_id, messages, **kwargs):
        """The agent replied: step it; answer with the next user message, or end with the reward."""
        state = EPISODES[instance_id]
        reply = next((message for message in reversed(messages) if message.get("role") == "assistant"), {"content": ""})
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": assistant_message(reply)}, self.env_url)
        state["result"] = episode_result(answer)
        done = state["result"]["done"]
        score = await self.calculate_score(instance_id)
        users = [message for message in answer["observation"]["messages"] if message.get("role") == "user"]
        return done, _text(users), score if done else 0.0, {}

    async def calculate_score(self, instance_id, **kwargs):
        state = EPISODES[instance_id]
        result = await _call(finish, state["episode_id"], state["result"], self.env_url)
        return row_reward(state["spec"], result["total"], result["rewards"])

    async def finalize_interaction(self, instance_id, **kwargs):
        EPISODES.pop(instance_id, None)


class HsaEnvTool(BaseTool):
    """Every harness tool: the call is stepped in the rollout's episode, the server's answer is the result."""

    def __init__(self, config, tool_schema):
        if BaseTool is not object:
            super().__init__(config, tool_schema)
        self.config = dict(config or {})
        self.tool_schema = tool_schema
        function = tool_schema.get("function", {}) if isinstance(tool_schema, dict) else getattr(tool_schema, "function", None)
        self.tool_name = function.get("name") if isinstance(function, dict) else getattr(function, "name", None)
        self.env_url = self.config.get("env_url")

    async def create(self, instance_id=None, **kwargs):
        return instance_id or str(uuid.uuid4())

    async def execute(self, instance_id, parameters, **kwargs):
        agent_data = kwargs.get("agent_data")
        request_id = getattr(agent_data, "request_id", None) or kwargs.get("request_id")
        state = EPISODES.get(request_id)
        if state is None:
            return json.dumps({"error": {"type": "tool_error", "message": "no episode for this rollout (start the hsa_env interaction)"}}), 0.0, {}
        message = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_" + str(instance_id)[:8], "type": "function", "function": {"name": self.tool_name, "arguments": json.dumps(parameters)}}]}
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": message}, self.env_url)
        state["result"] = episode_result(answer)
        return _text(answer["observation"]["messages"]), 0.0, {}

    async def calc_reward(self, instance_id, **kwargs):
        return 0.0

    async def release(self, instance_id, **kwargs):
        return None


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """veRL custom reward: the interaction's score when veRL passes it, else the rollout replayed on the server."""
    extra_info = extra_info or {}
    scores = extra_info.get("turn_scores") or kwargs.get("turn_scores")
    if scores:
        return float(scores[-1])
    messages = extra_info.get("messages") or rollout_messages(solution_str)
    result = replay(ground_truth, messages)
    return row_reward(extra_info.get("reward_spec"), result["total"], result["rewards"])
