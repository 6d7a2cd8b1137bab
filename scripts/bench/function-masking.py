# The baseline of `npm run bench`'s tools-only figure: function masking as Hammer describes it (tool names
# and parameter names replaced by random strings, descriptions kept, the gold calls rewritten to match), on
# the same trajectories, `variants` masked copies per example, one JSON line per copy written to a file.
# A re-implementation of the idea with the standard library, NOT Hammer's own code (its repository is not
# available offline): no certificate, no validation, no hook or prompt re-derivation; it is the floor of
# what "rename the tools" costs in Python. Prints one JSON line: rows, bytes, CPU seconds (process time).
#
#   python3 scripts/bench/function-masking.py trajectories.jsonl variants examples out.jsonl
import json
import random
import string
import sys
import time

started = time.process_time()
source, variants, examples, target = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def masked_name(rng):
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(8))


def mask(example, rng):
    tools = example.get("tools") or []
    names = {tool["function"]["name"]: masked_name(rng) for tool in tools}
    params = {}
    masked_tools = []
    for tool in tools:
        function = dict(tool["function"])
        schema = dict(function.get("parameters") or {})
        properties = schema.get("properties") or {}
        renamed = {name: masked_name(rng) for name in properties}
        params[function["name"]] = renamed
        schema["properties"] = {renamed[name]: value for name, value in properties.items()}
        if "required" in schema:
            schema["required"] = [renamed.get(name, name) for name in schema["required"]]
        function["name"] = names[function["name"]]
        function["parameters"] = schema
        masked_tools.append({"type": "function", "function": function})
    messages = []
    for message in example["messages"]:
        message = dict(message)
        calls = message.get("tool_calls")
        if calls:
            rewritten = []
            for call in calls:
                name = call["function"]["name"]
                try:
                    arguments = json.loads(call["function"]["arguments"] or "{}")
                except ValueError:
                    arguments = {}
                renamed = params.get(name, {})
                if isinstance(arguments, dict):
                    arguments = {renamed.get(key, key): value for key, value in arguments.items()}
                rewritten.append(
                    {**call, "function": {"name": names.get(name, name), "arguments": json.dumps(arguments)}}
                )
            message["tool_calls"] = rewritten
        messages.append(message)
    return {**example, "tools": masked_tools, "messages": messages}


rows = 0
written = 0
with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
    for index, line in enumerate(lines):
        if index >= examples:
            break
        if not line.strip():
            continue
        example = json.loads(line)
        for variant in range(variants):
            rng = random.Random(f"bench/{example['id']}/{variant}")
            text = json.dumps({"id": f"{example['id']}/{variant}", "trajectory": mask(example, rng)}) + "\n"
            out.write(text)
            written += len(text.encode("utf-8"))
            rows += 1
print(json.dumps({"rows": rows, "bytes": written, "cpuSeconds": time.process_time() - started}))
