"""Which export of `npm start` each chat template TRL ships reads: one table, one pairing per (family, recipe).

``SFT_RECIPES`` is the SFT recipe of docs/exporters.md per family, keyed by the ORIGINAL template a
checkpoint of that family carries (a file of ``trl/chat_templates``):

- ``layout: messages``: ``SFTConfig(assistant_only_loss=True)`` over ``{"messages", "tools"}`` rows. TRL then
  renders with its own training template (``renders_with``, the ``*_training.jinja`` that
  ``get_training_chat_template`` returns), so the export must suit THAT template: DeepSeek-V3's training
  template ``tojson``s the arguments, so its SFT export is ``trl`` (arguments as mappings), not the
  string-arguments export its original template needs.
- ``layout: prompt-completion``: families TRL has no training template for (``assistant_only_loss=True``
  raises); ``SFTConfig(completion_only_loss=True)`` over the prompt-completion export, rendered with the
  original template.
- ``layout: prompt-completion-tokenized``: Mistral, which no Jinja template renders: the prompt-completion
  export tokenized by mistral-common (``input_ids`` and ``completion_mask``), then
  ``SFTConfig(completion_only_loss=True)``.

``export_for(template_name)`` names the export a template renders in the consumer suite: the SFT export for
a template an SFT recipe renders with, else ``RENDER_EXPORTS`` (original templates rendered as they are:
inference, and recipes without assistant-only loss), else the default export ``trl``; a template TRL adds
later falls to ``trl``, so the suite tries it there rather than skipping it.
"""

from __future__ import annotations

SFT_RECIPES = {
    "qwen2_5.jinja": {"layout": "messages", "export": "trl", "renders_with": "qwen2_5_training.jinja"},
    "qwen3.jinja": {"layout": "messages", "export": "trl", "renders_with": "qwen3_training.jinja"},
    "glm4moe.jinja": {"layout": "messages", "export": "trl", "renders_with": "glm4moe_training.jinja"},
    "deepseekv3.jinja": {"layout": "messages", "export": "trl", "renders_with": "deepseekv3_training.jinja"},
    "deepseek_r1_distill.jinja": {
        "layout": "messages",
        "export": "trl-string-arguments",
        "renders_with": "deepseek_r1_distill_training.jinja",
    },
    "gptoss.jinja": {"layout": "messages", "export": "trl-one-call", "renders_with": "gptoss_training.jinja"},
    "lfm2.jinja": {"layout": "messages", "export": "trl-lfm2", "renders_with": "lfm2_training.jinja"},
    "llama3_1.jinja": {"layout": "prompt-completion", "export": "trl-prompt-completion", "renders_with": "llama3_1.jinja"},
    "llama3_2.jinja": {"layout": "prompt-completion", "export": "trl-prompt-completion", "renders_with": "llama3_2.jinja"},
    "gemma4.jinja": {"layout": "prompt-completion", "export": "trl-prompt-completion", "renders_with": "gemma4.jinja"},
    # No TRL template: mistral-common tokenizes the rows (test_mistral.py runs the docs' recipe).
    "mistral": {
        "layout": "prompt-completion-tokenized",
        "export": "trl-mistral-prompt-completion",
        "renders_with": "mistral-common",
    },
}

# Original templates rendered as they are (no TRL training template in between), where the export is not `trl`.
RENDER_EXPORTS = {
    # Their own templates concatenate `arguments` as text; R1-distill renders calls only when content is none.
    "deepseekv3.jinja": "trl-string-arguments",
    "deepseek_r1_distill.jinja": "trl-string-arguments",
    # One call per assistant message. (Llama's SFT export, `trl-prompt-completion`, holds the same messages
    # cut into one row per assistant message; the render check reads them whole, here.)
    "llama3_1.jinja": "trl-one-call",
    "llama3_2.jinja": "trl-one-call",
    "gptoss.jinja": "trl-one-call",
    # LFM2 (v1) never reads tool_calls: the calls are written into content as text.
    "lfm2.jinja": "trl-lfm2",
}

# Exports whose tool-call arguments are JSON text rather than mappings.
STRING_ARGUMENTS = {"trl-string-arguments"}


def _sft_exports() -> dict[str, str]:
    pairs: dict[str, str] = {}
    for recipe in SFT_RECIPES.values():
        if recipe["layout"] != "messages":
            continue
        template, export = recipe["renders_with"], recipe["export"]
        if pairs.setdefault(template, export) != export:
            raise AssertionError(f"{template} is paired with two SFT exports: {pairs[template]} and {export}")
    return pairs


_SFT_EXPORTS = _sft_exports()


def export_for(template_name: str) -> str:
    """The `messages` export a template renders: the SFT export where an SFT recipe renders with it, else its own."""
    if template_name in _SFT_EXPORTS:
        return _SFT_EXPORTS[template_name]
    return RENDER_EXPORTS.get(template_name, "trl")


def is_tool_template(source: str) -> bool:
    """A text template that renders tools or tool calls (multimodal ones that also do are included)."""
    return "tool" in source
