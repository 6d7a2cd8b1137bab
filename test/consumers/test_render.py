"""Every tool-calling chat template the installed TRL ships renders every row of its family's export.

Rendering is transformers' own ``render_jinja_template`` (what ``apply_chat_template`` and so SFTTrainer
call), over the rows as SFTTrainer loads them. Three checks per row:

- the real row renders without an error;
- no call is dropped and no argument is encoded twice: the row is rendered a second time with each call's
  name and arguments swapped for probes of the same type (a mapping stays a mapping, JSON text stays JSON
  text); every probe name and value must appear in the output, and never behind an escaped quote (which is
  what a template's ``tojson`` of a JSON string gives);
- LFM2 v1 rows, whose calls are text in ``content``: the calls are parsed back out of the rendered text
  (Python call syntax) and must equal the row's ``tool_calls``.
"""

from __future__ import annotations

import ast
import copy
import json
import re
from collections import Counter

import pytest
from conftest import export_rows, pipeline_folder, trl_templates
from families import STRING_ARGUMENTS, export_for, is_tool_template
from transformers.utils.chat_template_utils import render_jinja_template

TEMPLATES = sorted(name for name, source in trl_templates().items() if is_tool_template(source))


def render(messages, tools, template):
    return render_jinja_template([messages], tools=tools, chat_template=template)[0][0]


def probe_row(messages, string_arguments):
    """The row with every call's name and arguments replaced by numbered probes."""
    probed = copy.deepcopy(messages)
    count = 0
    for message in probed:
        for call in message.get("tool_calls") or []:
            arguments = {"hsaprobekey": f"hsaprobeval{count}"}
            call["function"] = {
                "name": f"hsaprobe{count}fn",
                "arguments": json.dumps(arguments) if string_arguments else arguments,
            }
            count += 1
    return probed, count


def probe_problem(text, count):
    for index in range(count):
        if f"hsaprobe{index}fn" not in text:
            return f"call {index} dropped (its name is not in the rendered text)"
        if f"hsaprobeval{index}" not in text:
            return f"call {index}: its arguments are not in the rendered text"
    if re.search(r'\\+"hsaprobe(key|val)', text):
        return "arguments encoded twice (a JSON string rendered with tojson)"
    return None


LFM2_CALLS = re.compile(r"<\|tool_call_start\|>(.*?)<\|tool_call_end\|>", re.S)
NAME = re.compile(r"\s*([A-Za-z_][\w.\-]*)")


def literal_at(text, start):
    """The Python literal that starts at `start` and ends before `,` or `)`; (value, end)."""
    for end in range(start + 1, len(text) + 1):
        if end < len(text) and text[end] not in ",)":
            continue
        try:
            return ast.literal_eval(text[start:end].strip()), end
        except (SyntaxError, ValueError):
            continue
    raise ValueError(f"no Python literal at {text[start:start + 40]!r}")


def parse_calls(block):
    """`[name(key=value, ...), ...]` as LFM2 writes it; names and keys as written (`destination-state` too)."""
    calls, index = [], 1
    if not (block.startswith("[") and block.endswith("]")):
        raise ValueError("not a list")
    while index < len(block) - 1:
        name = NAME.match(block, index)
        if not name or block[name.end()] != "(":
            raise ValueError(f"no call at {block[index:index + 40]!r}")
        index, arguments = name.end() + 1, {}
        while block[index] != ")":
            key = NAME.match(block, index)
            if not key or block[key.end()] != "=":
                raise ValueError(f"no keyword at {block[index:index + 40]!r}")
            value, index = literal_at(block, key.end() + 1)
            arguments[key.group(1)] = value
            if block[index] == ",":
                index += 1
        calls.append((name.group(1), arguments))
        index += 1
        if block[index] == ",":
            index += 1
    return calls


def lfm2_problem(text, messages):
    rendered = []
    for block in LFM2_CALLS.findall(text):
        try:
            rendered.extend(parse_calls(block))
        except (ValueError, IndexError) as error:
            return f"the calls in the text do not parse as a list of calls: {error}"
    expected = [
        (call["function"]["name"], call["function"]["arguments"])
        for message in messages
        for call in message.get("tool_calls") or []
    ]
    if rendered != expected:
        return f"calls parsed back from the text {rendered[:2]} differ from tool_calls {expected[:2]}"
    return None


def test_the_installed_trl_ships_tool_templates():
    # The suite must not pass by finding nothing to render.
    assert len(TEMPLATES) >= 20, TEMPLATES
    assert "qwen2_5.jinja" in TEMPLATES and "deepseekv3.jinja" in TEMPLATES and "lfm2.jinja" in TEMPLATES


@pytest.mark.parametrize("template_name", TEMPLATES)
def test_every_row_renders_through_the_template(template_name):
    template = trl_templates()[template_name]
    folder = export_for(template_name)
    rows = export_rows(pipeline_folder(), folder)
    assert len(rows) > 0
    problems = Counter()
    calls = 0
    for row in rows:
        try:
            text = render(row["messages"], row["tools"], template)
        except Exception as error:  # the template's own error message is the reason
            problems[f"render: {str(error)[:160]}"] += 1
            continue
        if folder == "trl-lfm2":
            problem = lfm2_problem(text, row["messages"])
        else:
            probed, count = probe_row(row["messages"], folder in STRING_ARGUMENTS)
            calls += count
            # Without the tools: the call branch of a template does not read them, and it halves the time.
            problem = probe_problem(render(probed, None, template), count)
        if problem:
            problems[problem] += 1
    assert not problems, f"{template_name} over exports/{folder}: {sum(problems.values())}/{len(rows)} rows fail: {problems.most_common(3)}"
    if folder != "trl-lfm2":
        assert calls > 0, "the export holds no tool call to check"


def test_the_templates_an_export_says_cannot_carry_calls_drop_or_refuse_them():
    # exports/trl/README.md names, for every template TRL ships, whether the rows are for it; the ones it says
    # cannot carry tool calls at all must drop a call or raise on a tool row when transformers renders them.
    readme = (pipeline_folder() / "exports" / "trl" / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"^templates: (.*)$", readme, re.M)[0].split(", "))
    cannot = dict(re.findall(r"^- (\w+) \(.*?\) cannot carry tool calls: (.*)$", readme, re.M))
    others = set(re.findall(r"^- (\w+) \(", readme, re.M))
    shipped = {name.removesuffix(".jinja") for name in trl_templates()}
    assert shipped <= named | others, f"templates TRL ships that the table does not know: {sorted(shipped - named - others)}"
    assert len(cannot) >= 9
    rows = export_rows(pipeline_folder(), "trl")
    row = next(row for row in rows if sum(len(message.get("tool_calls") or []) for message in row["messages"]) == 1)
    for name in sorted(cannot):
        probed, count = probe_row(row["messages"], False)
        try:
            text = render_jinja_template(
                [probed], tools=row["tools"], chat_template=trl_templates()[f"{name}.jinja"], bos_token="", eos_token=""
            )[0][0]
        except Exception:  # refused: what the README says of it
            assert "raises" in cannot[name], name
            continue
        assert probe_problem(text, count), f"{name} carried the call, but the README says it cannot"
