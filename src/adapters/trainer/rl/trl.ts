// TRL GRPO files for the RL stage, through TRL's own environment contract (GRPOTrainer's
// `environment_factory`, TRL >= 1.13): `grpo.jsonl` (prompt-only rows whose `environment` column names the
// row's harness state, plus the columns `reset` reads), `environments.json` (each state's tools) and
// `hsa_trl.py`, which builds `environment_factory = {state id: factory}`. An instance of a state's
// environment has `reset(**row)`, one typed, documented method per tool of that state (TRL turns them into
// the tool schemas the model sees, with transformers' get_json_schema; each call is stepped in the row's
// episode on the environment server, hooks included) and `get_reward()`; the reward function `hsa_reply`
// hands each rollout's final reply to its episode so that `get_reward` scores the whole turn.
// States whose tools TRL cannot express as methods go to `rejects.jsonl` with the reason, and are counted
// by reason in the summary the pipeline writes into its manifest.

import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonLine, writeJsonLines } from '../../../harness/json-lines.js';
import { writeFileAtomic } from '../../../harness/write-file-atomic.js';
import type { RlExporter, RlRow } from '../../../pipeline/rl.js';
import { envClientPython } from './env-client-python.js';
import { stateId, toolsByState } from './states.js';
import { trlToolProblem } from './trl-tool-methods.js';

/** One TRL GRPO row: extra columns are strings or numbers so that every row has the same Arrow types. */
export function toTrlGrpoRow(row: RlRow): Record<string, unknown> {
  return {
    prompt: row.prompt,
    environment: stateId(row),
    hsa_row_id: row.id,
    hsa_group: row.group,
    hsa_scenario: row.scenario,
    hsa_episode_index: row.episode.index,
    hsa_episode_id: row.episode.id,
    hsa_seed: row.seed,
    hsa_state: row.state,
    hsa_variant_id: row.variantId ?? '',
    hsa_reset: JSON.stringify(row.reset),
    hsa_reward_spec: JSON.stringify(row.reward),
  };
}

function trlShim(envURL: string): string {
  return `"""TRL GRPOTrainer over the harness-augment environment server, through TRL's environment_factory.

Start the server first (hsa env serve ... --port 8000), then:

    from datasets import load_dataset
    from trl import GRPOConfig, GRPOTrainer
    from hsa_trl import environment_factory, hsa_reply

    trainer = GRPOTrainer(
        model=...,
        args=GRPOConfig(num_generations=8, ...),
        train_dataset=load_dataset("json", data_files="grpo.jsonl", split="train"),
        environment_factory=environment_factory,  # {harness state id: factory}; rows pick one by "environment"
        reward_funcs=[hsa_reply],
    )

Each row's "environment" column names its harness state (the original harness or a variant); TRL renders
that state's tools into the prompt and calls them during generation. An environment plays the row's
episode on the server: reset(**row) starts it (hsa_reset pins the variant; the prompt is already the
server's first observation, so reset returns None), every tool method steps the call there (hooks,
faults and tool results are the server's), hsa_reply steps the rollout's final reply, and get_reward()
returns the episode's reward (its total, or its segment's, per hsa_reward_spec). hsa_reply itself scores
nothing (None: TRL ignores it in the sum); the reward is get_reward's.

hsa_reward is the older path without environments: it replays a completion given as messages.
"""
import functools
import inspect
import typing

${envClientPython(envURL)}

ENVIRONMENTS_FILE = os.environ.get(
    "HSA_TRL_ENVIRONMENTS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "environments.json")
)
_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}
# Keys get_json_schema renders from a type hint; any other detail of a parameter's schema (nested
# properties, bounds, patterns, defaults) is appended to its description as JSON, so the model still sees it.
_RENDERED = {"type", "description", "enum", "title"}


def _hint(schema):
    """The Python type hint whose get_json_schema rendering is the JSON Schema's type."""
    if not isinstance(schema, dict):
        return typing.Any
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(value is None or isinstance(value, (str, int, float, bool)) for value in enum):
        return typing.Literal[tuple(enum)]
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return typing.Union[tuple(_hint(part) for part in schema[key])]
    kind = schema.get("type")
    if isinstance(kind, list) and kind:
        return typing.Union[tuple(_hint(dict(schema, type=part)) for part in kind)]
    if kind == "array":
        items = schema.get("items")
        return list[_hint(items)] if isinstance(items, dict) and items else list
    if kind == "object":
        return dict
    return _JSON_TYPES.get(kind, typing.Any)


def _lost_details(schema):
    if not isinstance(schema, dict):
        return {}
    lost = {key: value for key, value in schema.items() if key not in _RENDERED}
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict) and set(items) <= _RENDERED and "enum" not in items:
        lost.pop("items", None)
    return lost


def _one_line(text):
    return " ".join(str(text or "").split())


def _docstring(tool):
    function = tool["function"]
    description = (function.get("description") or "").strip()
    if inspect.cleandoc(description) != description:
        description = _one_line(description)
    properties = (function.get("parameters") or {}).get("properties") or {}
    lines = [description or function["name"]]
    if properties:
        lines += ["", "Args:"]
        for name, schema in properties.items():
            text = _one_line(schema.get("description") if isinstance(schema, dict) else "") or "(%s)" % name
            lost = _lost_details(schema)
            if lost:
                text += " JSON Schema: " + json.dumps(lost, ensure_ascii=False, sort_keys=True)
            lines.append("    %s: %s" % (name, text))
    return "\\n".join(lines)


def _tool_method(tool):
    """A function TRL can offer as a tool: named as the tool, typed and documented as its schema says."""
    function = tool["function"]
    name = function["name"]
    parameters = function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])

    def call(self, **arguments):
        return self._call_tool(name, arguments)

    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations = {}
    for parameter, schema in properties.items():
        # An optional parameter defaults to None without an Optional hint: the schema stays the harness's.
        hint = _hint(schema)
        annotations[parameter] = hint
        default = inspect.Parameter.empty if parameter in required else None
        signature.append(inspect.Parameter(parameter, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
    call.__name__ = call.__qualname__ = name
    call.__doc__ = _docstring(tool)
    call.__annotations__ = annotations
    call.__signature__ = inspect.Signature(signature)
    return call


def _content(messages):
    return "\\n".join(str(message.get("content") or "") for message in messages)


class HsaEnvironment:
    """One episode of a harness state on the environment server, as TRL's environment_factory expects."""

    def __init__(self, state, tools, env_url=None):
        self._state = state
        self._tool_names = [tool["function"]["name"] for tool in tools]
        self._env_url = env_url
        for tool in tools:
            method = _tool_method(tool)
            setattr(self, method.__name__, method.__get__(self, type(self)))
        self._clear()

    def _clear(self):
        self._episode_id = None
        self._spec = None
        self._result = {"done": False, "total": 0.0, "rewards": {}}
        self._calls = 0

    def reset(self, hsa_reset=None, hsa_reward_spec=None, **row):
        """Starts the row's episode; the row's prompt is its first observation already, so nothing is added."""
        self._clear()
        answer = env_post("/reset", as_reset(hsa_reset), self._env_url)
        offered = [tool["function"]["name"] for tool in answer["observation"]["tools"]]
        if offered != self._tool_names:
            raise ValueError(
                "harness state %s: the server offers %s, this export %s (serve the harness the rows were made from)"
                % (self._state, offered, self._tool_names)
            )
        self._episode_id = answer["episode_id"]
        self._spec = hsa_reward_spec
        self._result = episode_result(answer)
        return None

    def _step(self, message):
        answer = env_post("/step", {"episode_id": self._episode_id, "message": message}, self._env_url)
        self._result = episode_result(answer)
        return answer["observation"]["messages"]

    def _call_tool(self, name, arguments):
        if self._episode_id is None:
            raise RuntimeError("call reset() before a tool")
        if self._result["done"]:
            return "The episode is over: no further tool calls are answered."
        self._calls += 1
        call = {"id": "call_%d" % self._calls, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}
        return _content(self._step({"role": "assistant", "content": None, "tool_calls": [call]}))

    def _reply(self, completion):
        """Steps the rollout's final reply (an assistant message without tool calls) in the episode."""
        messages = rollout_messages(completion)
        last = messages[-1] if messages else None
        if self._episode_id is None or self._result["done"] or not isinstance(last, dict):
            return
        if last.get("role") == "assistant" and not last.get("tool_calls"):
            self._step(assistant_message(last))

    def get_reward(self):
        """The episode's reward: at its end, or scored as it stands (a rollout that stopped early)."""
        if self._episode_id is None:
            raise RuntimeError("call reset() before get_reward()")
        result = finish(self._episode_id, self._result, self._env_url)
        return row_reward(self._spec, result["total"], result["rewards"])


def load_environments(path=None, env_url=None):
    """{harness state id: factory} from environments.json (the tools of each state)."""
    with open(path or ENVIRONMENTS_FILE, encoding="utf-8") as handle:
        states = json.load(handle)
    return {state: functools.partial(HsaEnvironment, state, tools, env_url) for state, tools in states.items()}


environment_factory = load_environments() if os.path.exists(ENVIRONMENTS_FILE) else {}


def hsa_reply(prompts=None, completions=None, environments=None, **kwargs):
    """TRL reward function that scores nothing: it steps each rollout's final reply in its episode."""
    if environments is None:
        raise ValueError("hsa_reply needs GRPOTrainer(environment_factory=hsa_trl.environment_factory)")
    for environment, completion in zip(environments, completions):
        environment._reply(completion)
    return [None] * len(completions)


def hsa_reward(prompts=None, completions=None, hsa_reset=None, hsa_reward_spec=None, **kwargs):
    """Reward function without environments: each completion (messages) replayed in a fresh episode."""
    rewards = []
    for index, completion in enumerate(completions):
        spec = hsa_reward_spec[index] if hsa_reward_spec is not None else None
        result = replay(hsa_reset[index], rollout_messages(completion))
        rewards.append(row_reward(spec, result["total"], result["rewards"]))
    return rewards
`;
}

/**
 * The TRL RL exporter: `grpo.jsonl`, `environments.json`, `hsa_trl.py`, and `rejects.jsonl` when a
 * state's tools cannot be TRL methods. Those rows are counted by reason in the summary, and so in the
 * pipeline's manifest and its printed summary.
 *
 * @example
 * const summary = await trlRlExporter.write(rows, 'out/rl/trl', { envURL: 'http://127.0.0.1:8000', groupSize: 8 });
 * summary.rows + summary.rejected === rows.length // true
 */
export const trlRlExporter: RlExporter = {
  format: 'trl',
  describe:
    'TRL GRPOTrainer rows and environment_factory: one environment per harness state, one method per tool',
  async write(rows, outDir, options) {
    await mkdir(outDir, { recursive: true });
    const states = toolsByState(rows);
    const problems = new Map<string, string>();
    for (const [state, tools] of states) {
      const problem = tools.map(trlToolProblem).find((reason) => reason !== undefined);
      if (problem) problems.set(state, problem);
    }
    const kept = rows.filter((row) => !problems.has(stateId(row)));
    const left = rows.filter((row) => problems.has(stateId(row)));
    const files = {
      data: join(outDir, 'grpo.jsonl'),
      environments: join(outDir, 'environments.json'),
      shim: join(outDir, 'hsa_trl.py'),
    };
    await writeJsonLines(
      files.data,
      kept.map((row) => toTrlGrpoRow(row)),
    );
    const environments = Object.fromEntries([...states].filter(([state]) => !problems.has(state)));
    await writeFileAtomic(files.environments, `${JSON.stringify(environments, null, 2)}\n`);
    await writeFileAtomic(files.shim, trlShim(options.envURL));
    const written = Object.values(files);
    const rejects = join(outDir, 'rejects.jsonl');
    if (left.length > 0) {
      const lines = left.map((row) =>
        jsonLine({ row_id: row.id, environment: stateId(row), reason: problems.get(stateId(row)) }),
      );
      await writeFileAtomic(rejects, lines.join(''));
      written.push(rejects);
    } else await rm(rejects, { force: true });
    return {
      files: written,
      rows: kept.length,
      rejected: left.length,
      rejects: countReasons(left, problems),
    };
  },
};

/** The rows left out, counted by reason (most first, then by reason). */
function countReasons(
  left: readonly RlRow[],
  problems: ReadonlyMap<string, string>,
): Array<{ reason: string; rows: number }> {
  const counts = new Map<string, number>();
  for (const row of left) {
    const reason = problems.get(stateId(row)) as string;
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts]
    .map(([reason, count]) => ({ reason, rows: count }))
    .sort((a, b) => b.rows - a.rows || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
}
