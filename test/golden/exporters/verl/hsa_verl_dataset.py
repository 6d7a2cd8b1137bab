"""veRL dataset class for parquet files written by harness-augment (format: verl).

Pass it to veRL's SFT trainer:
    data.custom_cls.path=<this file> data.custom_cls.name=HsaMultiTurnSFTDataset

veRL's MultiTurnSFTDataset hands the `tools` column and every message straight to the tokenizer's chat
template. harness-augment writes `tools` as JSON text, because one parquet schema cannot hold tool
schemas that differ from row to row without padding them with nulls, and keeps each tool call's
`arguments` as the JSON text the model wrote. This subclass decodes both, and drops the message fields
that are null in the parquet file, just before the chat template sees them, so templates that `tojson`
the arguments (Qwen2.5, Llama 3.x) render them once.
"""

import json

from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset


def _decode_message(message):
    message = {key: value for key, value in dict(message).items() if value is not None}
    calls = message.get("tool_calls")
    if calls is not None:
        decoded = []
        for call in calls:
            call = dict(call)
            function = dict(call["function"])
            if isinstance(function.get("arguments"), str):
                function["arguments"] = json.loads(function["arguments"])
            call["function"] = function
            decoded.append(call)
        message["tool_calls"] = decoded
    return message


def _decode_conversation(conversation):
    if isinstance(conversation, (list, tuple)) and all(isinstance(item, dict) for item in conversation):
        return [_decode_message(message) for message in conversation]
    return conversation


def _decode_tools(tools):
    return json.loads(tools) if isinstance(tools, str) else tools


def _decode_on_the_way_in(target):
    if target is None or getattr(target, "_hsa_decodes_json_text", False):
        return
    original = target.apply_chat_template

    def apply_chat_template(conversation, *args, **kwargs):
        if "tools" in kwargs:
            kwargs["tools"] = _decode_tools(kwargs["tools"])
        return original(_decode_conversation(conversation), *args, **kwargs)

    target.apply_chat_template = apply_chat_template
    target._hsa_decodes_json_text = True


class HsaMultiTurnSFTDataset(MultiTurnSFTDataset):
    """MultiTurnSFTDataset that reads harness-augment parquet files (JSON-text tools and arguments)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _decode_on_the_way_in(getattr(self, "tokenizer", None))
        _decode_on_the_way_in(getattr(self, "processor", None))
