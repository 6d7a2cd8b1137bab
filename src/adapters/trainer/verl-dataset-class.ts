// The Python companion of the veRL export: a MultiTurnSFTDataset subclass, loaded through veRL's
// `data.custom_cls.path` / `data.custom_cls.name`, that decodes the JSON-text `tools` column and the
// tool-call `arguments` strings right before the chat template sees them. It wraps the tokenizer's
// `apply_chat_template` instead of overriding dataset internals, which differ between veRL versions.

/**
 * The class name to pass as `data.custom_cls.name`.
 *
 * @example
 * const override = `data.custom_cls.name=${verlDatasetClassName}`;
 */
export const verlDatasetClassName = 'HsaMultiTurnSFTDataset';

/**
 * The Python source written next to the parquet file.
 *
 * @example
 * verlDatasetClassSource().includes('class HsaMultiTurnSFTDataset(MultiTurnSFTDataset)') // true
 */
export function verlDatasetClassSource(): string {
  return `"""veRL dataset class for parquet files written by harness-augment (format: verl).

Pass it to veRL's SFT trainer:
    data.custom_cls.path=<this file> data.custom_cls.name=${verlDatasetClassName}

veRL's MultiTurnSFTDataset hands the \`tools\` column and every message straight to the tokenizer's chat
template. harness-augment writes \`tools\` as JSON text, because one parquet schema cannot hold tool
schemas that differ from row to row without padding them with nulls, and keeps each tool call's
\`arguments\` as the JSON text the model wrote. This subclass decodes both, and drops the message fields
that are null in the parquet file, just before the chat template sees them, so templates that \`tojson\`
the arguments (Qwen2.5, Llama 3.x) render them once. Rows may arrive as pandas hands parquet over (numpy
arrays of dicts holding more arrays): they become plain lists and dicts first.
"""

import json

from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset


def _plain(value):
    """Parquet rows come out of pandas as numpy arrays (lists) holding dicts (structs) that hold more
    arrays; chat templates need plain lists and dicts (an array's truth value is ambiguous)."""
    if not isinstance(value, (str, bytes, dict, list, tuple)) and hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _decode_arguments(arguments):
    # The JSON text the model wrote, decoded once; a value that is not JSON text is left as it is.
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments
    return arguments


def _decode_message(message):
    message = {key: value for key, value in _plain(message).items() if value is not None}
    calls = message.get("tool_calls")
    if calls is not None:
        decoded = []
        for call in calls:
            call = dict(call)
            function = dict(call["function"])
            function["arguments"] = _decode_arguments(function.get("arguments"))
            call["function"] = function
            decoded.append(call)
        message["tool_calls"] = decoded
    return message


def _decode_conversation(conversation):
    conversation = _plain(conversation)
    if isinstance(conversation, list) and all(isinstance(item, dict) for item in conversation):
        return [_decode_message(message) for message in conversation]
    return conversation


def _decode_tools(tools):
    tools = _plain(tools)
    return json.loads(tools) if isinstance(tools, str) else tools


def _decode_on_the_way_in(target):
    if target is None or getattr(target, "_hsa_decodes_json_text", False):
        return
    original = target.apply_chat_template

    def apply_chat_template(conversation=None, *args, **kwargs):
        if "tools" in kwargs:
            kwargs["tools"] = _decode_tools(kwargs["tools"])
        if conversation is None and "messages" in kwargs:
            conversation = kwargs.pop("messages")
        return original(_decode_conversation(conversation), *args, **kwargs)

    target.apply_chat_template = apply_chat_template
    target._hsa_decodes_json_text = True


class ${verlDatasetClassName}(MultiTurnSFTDataset):
    """MultiTurnSFTDataset that reads harness-augment parquet files (JSON-text tools and arguments)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _decode_on_the_way_in(getattr(self, "tokenizer", None))
        _decode_on_the_way_in(getattr(self, "processor", None))
`;
}
