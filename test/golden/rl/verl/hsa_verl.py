"""veRL agent loop, tool, interaction and reward shim over the harness-augment environment server.

agent_loop_config.yaml registers one HsaToolAgentLoop per harness state (the rows' agent_name), each with
its state's tool config; HsaEnvTool answers every tool and HsaEnvInteraction every reply, both in the same
episode on the server, keyed by veRL's request id. The calls of one assistant turn are stepped together, as
one message, the first time one of them executes. compute_score replays a rollout given as messages
(extra_info["messages"] or JSON text) when no interaction score is at hand.
"""
import asyncio
import functools
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


HERE = os.path.dirname(os.path.abspath(__file__))

try:  # veRL when installed; plain stand-ins otherwise, so that this file also runs (and compiles) alone
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse
except ImportError:  # pragma: no cover
    BaseTool = None
    ToolResponse = None
try:
    from verl.interactions.base import BaseInteraction
except ImportError:  # pragma: no cover
    BaseInteraction = object
try:
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop
    from verl.tools.utils.tool_registry import initialize_tools_from_config
except ImportError:  # pragma: no cover
    ToolAgentLoop = None

if BaseTool is None:  # pragma: no cover - the shapes veRL's verl/tools/base_tool.py and schemas.py define

    class ToolResponse:
        def __init__(self, text=None, image=None, video=None):
            self.text, self.image, self.video = text, image, video

    class BaseTool:
        def __init__(self, config, tool_schema):
            self.config = config
            self.tool_schema = tool_schema
            function = tool_schema["function"] if isinstance(tool_schema, dict) else tool_schema.function
            self.name = function["name"] if isinstance(function, dict) else function.name


# request id -> {"episode_id", "spec", "result", "lock", "turn", "answers"}: one rollout's episode, shared
# by its interaction and its tools.
EPISODES = {}


def _text(messages):
    return "\n".join(str(message.get("content") or "") for message in messages)


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
        EPISODES[instance_id] = {
            "episode_id": answer["episode_id"],
            "spec": reward_spec,
            "result": episode_result(answer),
            "lock": asyncio.Lock(),
            "turn": None,
            "answers": [],
        }
        return instance_id

    async def generate_response(self, instance_id, messages, **kwargs):
        """The agent replied: step it; answer with the next user message, or end with the reward."""
        state = EPISODES[instance_id]
        reply = next((message for message in reversed(messages) if message.get("role") == "assistant"), {"content": ""})
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": assistant_message({"content": reply.get("content")})}, self.env_url)
        state["result"] = episode_result(answer)
        done = state["result"]["done"]
        score = await self.calculate_score(instance_id)
        feedback = [message for message in answer["observation"]["messages"] if message.get("role") != "tool"]
        return done, _text(feedback), score if done else 0.0, {}

    async def calculate_score(self, instance_id, **kwargs):
        state = EPISODES[instance_id]
        result = await _call(finish, state["episode_id"], state["result"], self.env_url)
        return row_reward(state["spec"], result["total"], result["rewards"])

    async def finalize_interaction(self, instance_id, **kwargs):
        EPISODES.pop(instance_id, None)


class HsaEnvTool(BaseTool):
    """Every harness tool: the turn's calls are stepped in the rollout's episode; the server's results come back."""

    def __init__(self, config, tool_schema):
        super().__init__(config, tool_schema)
        config = dict(config or {})
        self.env_url = config.get("env_url")
        self.max_parallel_calls = int(config.get("max_parallel_calls", 8))

    async def create(self, instance_id=None, **kwargs):
        return instance_id or str(uuid.uuid4()), ToolResponse()

    async def execute(self, instance_id, parameters, **kwargs):
        agent_data = kwargs.get("agent_data")
        state = EPISODES.get(getattr(agent_data, "request_id", None))
        if state is None:
            return ToolResponse(text="error: no episode for this rollout (configure the hsa_env interaction)"), 0.0, {}
        async with state["lock"]:
            turn = agent_data.assistant_turns
            if state["turn"] != turn:
                await self._step_turn(state, turn, agent_data.tool_calls[: self.max_parallel_calls])
            # This call's result: the turn's first unclaimed call of this tool with these arguments.
            for answer in state["answers"]:
                if not answer["claimed"] and answer["name"] == self.name and answer["arguments"] == parameters:
                    answer["claimed"] = True
                    return ToolResponse(text=answer["text"]), 0.0, {}
        return ToolResponse(text="error: this call is not among the turn's tool calls"), 0.0, {}

    async def _step_turn(self, state, turn, calls):
        ids = ["call_%d_%d" % (turn, index) for index in range(len(calls))]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                for call_id, call in zip(ids, calls)
            ],
        }
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": message}, self.env_url)
        state["result"] = episode_result(answer)
        state["turn"] = turn
        messages = answer["observation"]["messages"]
        results = {message.get("tool_call_id"): str(message.get("content") or "") for message in messages if message.get("role") == "tool"}
        feedback = _text([message for message in messages if message.get("role") != "tool"])
        state["answers"] = []
        for index, (call_id, call) in enumerate(zip(ids, calls)):
            try:
                arguments = json.loads(call.arguments)
            except ValueError:
                arguments = None
            text = results.get(call_id, "")
            if feedback and index == len(calls) - 1:
                text = (text + "\n" + feedback) if text else feedback
            state["answers"].append({"name": call.name, "arguments": arguments, "text": text, "claimed": False})

    async def calc_reward(self, instance_id, **kwargs):
        return 0.0

    async def release(self, instance_id, **kwargs):
        return None


@functools.lru_cache(maxsize=None)
def _state_tools(tool_config_path):
    path = tool_config_path if os.path.isabs(tool_config_path) else os.path.join(HERE, tool_config_path)
    return tuple(initialize_tools_from_config(path))


if ToolAgentLoop is not None:

    class HsaToolAgentLoop(ToolAgentLoop):
        """veRL's ToolAgentLoop offering one harness state's tools (agent_loop_config.yaml names the file)."""

        def __init__(self, *args, tool_config_path=None, name=None, **kwargs):
            super().__init__(*args, **kwargs)
            tools = _state_tools(tool_config_path)
            # As ToolAgentLoop.__init__ builds them from multi_turn.tool_config_path (tool_agent_loop.py).
            self.tools = {tool.name: tool for tool in tools}
            self.tool_schemas = [tool.tool_schema.model_dump(exclude_unset=True, exclude_none=True) for tool in tools]


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """veRL custom reward: the interaction's score when veRL passes it, else the rollout replayed on the server."""
    extra_info = extra_info or {}
    scores = extra_info.get("turn_scores") or kwargs.get("turn_scores")
    if scores:
        return float(scores[-1])
    messages = extra_info.get("messages") or rollout_messages(solution_str)
    result = replay(ground_truth, messages)
    return row_reward(extra_info.get("reward_spec"), result["total"], result["rewards"])
