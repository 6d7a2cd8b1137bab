"""Which export of `npm start` each chat template TRL ships reads (the table in docs/exporters.md).

``export_for(template_name)`` names the folder under ``out/pipeline/exports`` for a template file of
``trl/chat_templates``; a template TRL adds later falls to the default export ``trl``, so the suite tries
it there rather than skipping it.
"""

from __future__ import annotations

# Template file -> export folder, where it is not the default `trl` (arguments as mappings, parallel
# calls kept, `content: ""` on call messages).
_EXPORTS = {
    # Their own templates concatenate `arguments` as text; R1-distill renders calls only when content is none.
    "deepseekv3.jinja": "trl-string-arguments",
    "deepseek_r1_distill.jinja": "trl-string-arguments",
    "deepseek_r1_distill_training.jinja": "trl-string-arguments",
    # One call per assistant message.
    "llama3_1.jinja": "trl-one-call",
    "llama3_2.jinja": "trl-one-call",
    "gptoss.jinja": "trl-one-call",
    "gptoss_training.jinja": "trl-one-call",
    # LFM2 (v1) never reads tool_calls: the calls are written into content as text.
    "lfm2.jinja": "trl-lfm2",
    "lfm2_training.jinja": "trl-lfm2",
}

# Exports whose tool-call arguments are JSON text rather than mappings.
STRING_ARGUMENTS = {"trl-string-arguments"}


def export_for(template_name: str) -> str:
    return _EXPORTS.get(template_name, "trl")


def is_tool_template(source: str) -> bool:
    """A text template that renders tools or tool calls (multimodal ones that also do are included)."""
    return "tool" in source
