#!/usr/bin/env python3
"""The baseline of `npm run bench`'s tools-only figure: Hammer's own function masking
(https://github.com/MadeAgents/Hammer, train/data_processing.py, vendored unmodified under
scripts/bench/vendor/hammer at the commit scripts/bench/vendor/VENDORED.json records) on our trajectories.

    python3 scripts/bench/hammer-masking.py --trajectories in.jsonl --variants 8 --out masked.jsonl

1. Loads Hammer's definitions from the vendored file: its imports, prompt texts and functions, everything
   before its driver (the first top-level statement that opens a file: the driver reads Hammer's own 60k
   xLAM file, copies it three times and masks two copies in three). The file is checked against its
   recorded git blob id first. An import of a module this Python lacks is left out when none of the
   definitions use it (tqdm: the driver's progress bar); one they use stops the run.
2. Adapts each trajectory to Hammer's input, an xLAM row (not timed, written beside --out): `query` is the
   user's turns (hook feedback left out), `tools` the trajectory's tools in xLAM form (name, description,
   parameters = the JSON Schema's properties), `answers` every tool call of the trajectory in order.
3. Timed (CPU seconds of this process, `time.process_time`): reads the xLAM rows back, one JSON line at a
   time, and writes `--variants` rows per input, each masked as Hammer's driver masks a copy
   (`replace_param_default_values_news(replace_param_names_new(replace_function_names_new(row)))`: random
   tool and parameter names, the gold answers rewritten to match, default values drawn anew) and turned
   into its SFT row (`get_hammer_prompt`), one JSON line each. Every copy is masked, as every tools-only
   row is varied; Hammer's driver leaves one copy in three as it is.

Prints one JSON line: inputs, rows, bytes written, CPU seconds of step 3, the upstream commit, the imports
left out, the Python version. Hammer seeds Python's `random` once (12) when its definitions load, so the
output is the same for the same input.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import platform
import sys
import time
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "vendor"
HAMMER = VENDOR / "hammer"
MASKING_FILE = "train/data_processing.py"


def git_blob_id(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def recorded_hammer() -> dict:
    index = json.loads((VENDOR / "VENDORED.json").read_text(encoding="utf-8"))
    return next(entry for entry in index["projects"] if entry["project"] == "hammer")


def opens_a_file(node: ast.stmt) -> bool:
    return any(
        isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open"
        for call in ast.walk(node)
    )


def names_read(nodes: list[ast.stmt]) -> set[str]:
    return {
        name.id
        for node in nodes
        for name in ast.walk(node)
        if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load)
    }


def module_missing(node: ast.Import | ast.ImportFrom) -> bool:
    modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
    return any(importlib.util.find_spec(module.split(".")[0]) is None for module in modules)


def hammer_definitions() -> tuple[dict, list[str]]:
    """Hammer's functions, loaded from the unmodified vendored file; and the imports left out."""
    entry = recorded_hammer()
    path = HAMMER / MASKING_FILE
    content = path.read_bytes()
    blob = next(file["blob"] for file in entry["files"] if file["path"] == MASKING_FILE)
    if git_blob_id(content) != blob:
        sys.exit(f"{path} is not Hammer's file at {entry['commit']} (git blob {blob}); vendor it again")
    tree = ast.parse(content, filename=str(path))
    definitions: list[ast.stmt] = []
    for node in tree.body:
        if opens_a_file(node):
            break  # Hammer's driver for its own data set starts here
        definitions.append(node)
    used = names_read([node for node in definitions if not isinstance(node, (ast.Import, ast.ImportFrom))])
    kept, left_out = [], []
    for node in definitions:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and module_missing(node):
            bound = {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            if bound & used:
                sys.exit(f"Hammer's masking needs {', '.join(sorted(bound))}, which this Python lacks")
            left_out.append(ast.unparse(node))
            continue
        kept.append(node)
    namespace: dict = {"__name__": "hammer_data_processing", "__file__": str(path)}
    # Compiled with the vendored file's name and line numbers: a traceback points into Hammer's code.
    exec(compile(ast.Module(body=kept, type_ignores=[]), str(path), "exec"), namespace)
    return namespace, left_out


def message_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def xlam_row(trajectory: dict) -> dict:
    """One trajectory as an xLAM row, the input Hammer's masking reads (tools and answers as JSON text)."""
    messages = trajectory.get("messages") or []
    query = "\n".join(
        message_text(message.get("content"))
        for message in messages
        if message.get("role") == "user" and (message.get("hsa") or {}).get("event") != "hook_feedback"
    )
    tools = []
    for tool in trajectory.get("tools") or []:
        function = tool.get("function", tool)
        schema = function.get("parameters") or {}
        tools.append(
            {
                "name": function["name"],
                "description": function.get("description", ""),
                "parameters": dict(schema.get("properties") or {}),
            }
        )
    answers = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            try:
                arguments = json.loads(call["function"].get("arguments") or "{}")
            except ValueError:
                arguments = {}
            arguments = arguments if isinstance(arguments, dict) else {}
            answers.append({"name": call["function"]["name"], "arguments": arguments})
    return {"id": trajectory.get("id"), "query": query, "tools": json.dumps(tools), "answers": json.dumps(answers)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trajectories", required=True, type=Path, help="our trajectories, JSONL")
    parser.add_argument("--variants", required=True, type=int, help="masked rows per trajectory")
    parser.add_argument("--out", required=True, type=Path, help="Hammer's SFT rows, JSONL")
    args = parser.parse_args()

    hammer, left_out = hammer_definitions()
    xlam = args.out.with_name(args.out.stem + ".xlam.jsonl")
    with args.trajectories.open(encoding="utf-8") as lines, xlam.open("w", encoding="utf-8") as out:
        for line in lines:
            if line.strip():
                out.write(json.dumps(xlam_row(json.loads(line)), ensure_ascii=False) + "\n")

    mask_names = hammer["replace_function_names_new"]
    mask_parameters = hammer["replace_param_names_new"]
    mask_defaults = hammer["replace_param_default_values_news"]
    sft_row = hammer["get_hammer_prompt"]
    inputs = rows = written = 0
    started = time.process_time()
    with xlam.open(encoding="utf-8") as lines, args.out.open("w", encoding="utf-8") as out:
        for line in lines:
            row = json.loads(line)
            inputs += 1
            for _ in range(args.variants):
                masked = mask_defaults(mask_parameters(mask_names(row)))
                text = json.dumps(sft_row(masked), ensure_ascii=False) + "\n"
                out.write(text)
                written += len(text.encode("utf-8"))
                rows += 1
    cpu = time.process_time() - started
    print(
        json.dumps(
            {
                "inputs": inputs,
                "rows": rows,
                "bytes": written,
                "cpuSeconds": cpu,
                "commit": recorded_hammer()["commit"],
                "python": platform.python_version(),
                "importsLeftOut": left_out,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
