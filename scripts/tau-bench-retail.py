#!/usr/bin/env python3
"""Turns tau-bench's retail domain into a harness's raw material and logged conversations for `hsa demo`.

Source: sierra-research/tau-bench at 59a200c6d575d595120f1cb70fea53cef0632f6b (MIT). The script refuses any
other version of the files it reads (their SHA-256 is pinned below). It writes, into --out:

  tools.json         the 16 retail tools as tau-bench's own `get_info()` returns them (an OpenAI tools array)
  policy.md          the policy's preamble (`wiki.md` up to its first section), verbatim
  skills/<id>/SKILL.md  one skill per section of `wiki.md` (id: the section title in kebab case), body verbatim
  logs.jsonl         one logged conversation per task of `tasks_train.py` (the first --tasks of them)

A task of tasks_train.py is a user instruction and the gold write actions (cancel, modify, return, exchange).
Its conversation follows the policy: the user's request (the instruction in the first person, without the
sentence that describes the simulated user's temperament); the agent authenticates the user (by email, or
by name and zip, whichever the instruction gives), loads the skill of each action before it, looks up every
order the request names and the products it changes, and asks for confirmation; the user confirms; the
agent makes the gold actions, one call per message, and reports their outcome. Every tool result is what
tau-bench's own tool code returns on its own data (a fresh copy per task). A task whose lookups or actions
return an error is left out and counted. Nothing here is random: the same files give the same bytes.

Usage: python3 scripts/tau-bench-retail.py --tau-bench <checkout> [--out DIR] [--tasks N] [--check]
  (git clone https://github.com/sierra-research/tau-bench && git -C tau-bench checkout 59a200c6d575d595120f1cb70fea53cef0632f6b)
"""

import argparse
import copy
import hashlib
import json
import re
import sys
import types
from pathlib import Path

COMMIT = "59a200c6d575d595120f1cb70fea53cef0632f6b"
# SHA-256 over the sorted (path, SHA-256 of the file) lines of every file read below.
SOURCE_DIGEST = "d3adcf2c7d732aea63b3d302e888f58b6575ea1b9585dcba325730401f1a6fe2"
RETAIL = Path("tau_bench/envs/retail")
SOURCE_FILES = [
    Path("tau_bench/envs/tool.py"),
    Path("tau_bench/types.py"),
    RETAIL / "tasks_train.py",
    RETAIL / "wiki.md",
    RETAIL / "data/__init__.py",
    RETAIL / "data/orders.json",
    RETAIL / "data/products.json",
    RETAIL / "data/users.json",
]

# Which policy section governs each write action (the section's kebab-case title is the skill id).
SKILL_OF_ACTION = {
    "cancel_pending_order": "cancel-pending-order",
    "modify_pending_order_address": "modify-pending-order",
    "modify_pending_order_items": "modify-pending-order",
    "modify_pending_order_payment": "modify-pending-order",
    "return_delivered_order_items": "return-delivered-order",
    "exchange_delivered_order_items": "exchange-delivered-order",
}
CONFIRMATIONS = ["yes", "Yes, please proceed.", "yes, go ahead", "Yes, that's right."]


def source_digest(root: Path, files: list[Path]) -> str:
    lines = sorted(f"{path.as_posix()} {hashlib.sha256((root / path).read_bytes()).hexdigest()}" for path in files)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def load_tau_bench(root: Path):
    """tau-bench's retail tools, tasks and data, without its package imports (they pull in model clients)."""
    sys.path.insert(0, str(root))
    for name in ("tau_bench", "tau_bench.envs", "tau_bench.envs.retail"):
        module = types.ModuleType(name)
        module.__path__ = [str(root / name.replace(".", "/"))]
        sys.modules[name] = module
    from tau_bench.envs.retail.data import load_data
    from tau_bench.envs.retail.tasks_train import TASKS_TRAIN
    from tau_bench.envs.retail.tools import ALL_TOOLS

    return ALL_TOOLS, TASKS_TRAIN, load_data


def kebab(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def policy_parts(wiki: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The preamble (without its title line) and one (id, title, body) per `## ` section, text verbatim."""
    head, *sections = re.split(r"^## ", wiki, flags=re.M)
    preamble = re.sub(r"^# .*\n+", "", head).strip()
    parts = []
    for section in sections:
        title, _, body = section.partition("\n")
        parts.append((kebab(title), title.strip(), body.strip()))
    return preamble, parts


def skill_markdown(skill_id: str, title: str, body: str) -> str:
    kind = "reply" if skill_id in SKILL_OF_ACTION.values() else "strategy"
    description = f"The retail policy on {title[0].lower()}{title[1:]}."
    metadata = "" if kind == "reply" else "metadata:\n  hsa-kind: strategy\n"
    return f"---\nname: {skill_id}\ndescription: {description}\n{metadata}---\n{body}\n"


class Conversation:
    """One conversation: messages in Chat Completions form, tool results from tau-bench's tools."""

    def __init__(self, tools: dict, data: dict):
        self.tools = tools
        self.data = data
        self.messages: list[dict] = []
        self.loaded: set[str] = set()
        self.calls = 0

    def call(self, name: str, arguments: dict) -> str:
        self.calls += 1
        call_id = f"call_{self.calls}"
        if name == "load_skill":
            result = json.dumps({"loaded": arguments["skill_id"]})
        else:
            result = self.tools[name].invoke(data=self.data, **arguments)
            if result.startswith("Error"):
                raise ValueError(f"{name}: {result}")
        self.messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
                ],
            }
        )
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
        return result

    def load(self, skill_id: str) -> None:
        if skill_id not in self.loaded:
            self.loaded.add(skill_id)
            self.call("load_skill", {"skill_id": skill_id})

    def say(self, role: str, text: str) -> None:
        self.messages.append({"role": role, "content": text})


def listed(values: list[str]) -> str:
    return ", ".join(values)


def describe(action) -> str:
    """What an action will do, for the confirmation the policy asks for."""
    args = action.kwargs
    order = args.get("order_id", "")
    if action.name == "cancel_pending_order":
        return f"cancel order {order} (reason: {args['reason']})"
    if action.name == "modify_pending_order_address":
        street = ", ".join(part for part in [args["address1"], args["address2"]] if part)
        return f"ship order {order} to {street}, {args['city']}, {args['state']} {args['zip']}, {args['country']}"
    if action.name == "modify_pending_order_payment":
        return f"pay order {order} with {args['payment_method_id']} instead"
    if action.name == "modify_pending_order_items":
        return f"in order {order}, change items {listed(args['item_ids'])} to {listed(args['new_item_ids'])}, the price difference through {args['payment_method_id']}"
    if action.name == "exchange_delivered_order_items":
        return f"exchange items {listed(args['item_ids'])} of order {order} for {listed(args['new_item_ids'])}, the price difference through {args['payment_method_id']}"
    if action.name == "return_delivered_order_items":
        return f"return items {listed(args['item_ids'])} of order {order}, refunded to {args['payment_method_id']}"
    raise ValueError(f"no description for {action.name}")


IDENTITY = re.compile(
    r"^Your name is (?P<name>[^.]*?) and your (?P<kind>zip code|email) is (?P<value>\S+?)\. You are [^.]*\. (?P<request>.*)$",
    re.S,
)


def conversation(task, index: int, tools: dict, data: dict) -> dict:
    match = IDENTITY.match(task.instruction)
    if not match:
        raise ValueError("the instruction does not start with the user's name and zip code or email")
    chat = Conversation(tools, data)
    request = match["request"].strip()
    chat.say("user", f"My name is {match['name']} and my {match['kind']} is {match['value']}. {request}")
    if match["kind"] == "email":
        found = chat.call("find_user_id_by_email", {"email": match["value"]})
    else:
        first, _, last = match["name"].partition(" ")
        found = chat.call("find_user_id_by_name_zip", {"first_name": first, "last_name": last, "zip": match["value"]})
    if found != task.user_id:
        raise ValueError(f"authentication found {found}, the task's user is {task.user_id}")
    # Every order the request names, in the order it names them; the skill of each action on it first.
    orders = list(dict.fromkeys(re.findall(r"#W\d+", request)))
    for action in task.actions:
        if action.kwargs["order_id"] not in orders:
            orders.append(action.kwargs["order_id"])
    products: set[str] = set()
    for order_id in orders:
        acting = [action for action in task.actions if action.kwargs["order_id"] == order_id]
        for action in acting:
            chat.load(SKILL_OF_ACTION[action.name])
        details = json.loads(chat.call("get_order_details", {"order_id": order_id}))
        for action in acting:
            for item_id in action.kwargs.get("item_ids", []) if "new_item_ids" in action.kwargs else []:
                product = next(item["product_id"] for item in details["items"] if item["item_id"] == item_id)
                if product not in products:
                    products.add(product)
                    chat.call("get_product_details", {"product_id": product})
    changes = [action for action in task.actions if "new_item_ids" in action.kwargs]
    reminder = " Is that every item you want to change?" if changes else ""
    chat.say(
        "assistant",
        f"Please confirm: {'; '.join(describe(action) for action in task.actions)}.{reminder} Shall I proceed?",
    )
    chat.say("user", CONFIRMATIONS[index % len(CONFIRMATIONS)])
    outcomes = []
    for action in task.actions:
        order = json.loads(chat.call(action.name, dict(action.kwargs)))
        outcomes.append(f"order {order['order_id']} is now {order['status']}")
    chat.say("assistant", f"Done: {'; '.join(outcomes)}.")
    return {"id": f"tau-retail-{index + 1:03d}", "context": {}, "messages": chat.messages}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tau-bench", required=True, type=Path, help=f"a tau-bench checkout at {COMMIT}")
    parser.add_argument("--out", type=Path, default=Path("test/demo/fixtures/tau-bench-retail"))
    parser.add_argument("--tasks", type=int, default=250, help="the first N tasks of tasks_train.py")
    parser.add_argument("--check", action="store_true", help="compare with the files in --out, write nothing")
    args = parser.parse_args()
    root = args.tau_bench.resolve()
    tool_files = sorted(path.relative_to(root) for path in (root / RETAIL / "tools").glob("*.py"))
    digest = source_digest(root, SOURCE_FILES + tool_files)
    if digest != SOURCE_DIGEST:
        print(f"{root}: not the tau-bench files of {COMMIT} (digest {digest})", file=sys.stderr)
        return 2
    all_tools, tasks, load_data = load_tau_bench(root)
    tools = {tool.get_info()["function"]["name"]: tool for tool in all_tools}
    preamble, sections = policy_parts((root / RETAIL / "wiki.md").read_text())
    outputs: dict[str, str] = {
        "tools.json": json.dumps([tool.get_info() for tool in all_tools], indent=2) + "\n",
        "policy.md": preamble + "\n",
    }
    for skill_id, title, body in sections:
        outputs[f"skills/{skill_id}/SKILL.md"] = skill_markdown(skill_id, title, body)
    data = load_data()
    lines, left_out = [], []
    for index, task in enumerate(tasks[: args.tasks]):
        try:
            lines.append(json.dumps(conversation(task, index, tools, copy.deepcopy(data)), ensure_ascii=False))
        except (ValueError, KeyError, StopIteration) as error:
            left_out.append(f"task {index}: {error}")
    outputs["logs.jsonl"] = "\n".join(lines) + "\n"
    print(f"{len(lines)} conversations from {min(args.tasks, len(tasks))} tasks; {len(left_out)} left out")
    for reason in left_out:
        print(f"  {reason}")
    stale = 0
    for name, text in outputs.items():
        target = args.out / name
        if args.check:
            # JSON is compared by value: the repository keeps it in its formatter's layout.
            same = target.exists() and (
                json.loads(target.read_text()) == json.loads(text)
                if name.endswith(".json")
                else target.read_text() == text
            )
            if not same:
                print(f"stale: {target}", file=sys.stderr)
                stale += 1
            continue
        if name.endswith(".json") and target.exists() and json.loads(target.read_text()) == json.loads(text):
            continue  # kept in the repository formatter's layout
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
