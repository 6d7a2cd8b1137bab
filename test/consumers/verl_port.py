"""veRL's multi-turn SFT tokenization, ported for the suite (veRL has no wheel on the local index).

Source: volcengine/verl, verl/utils/dataset/multiturn_sft_dataset.py and verl/utils/chat_template.py at
commit b178a3cd56f58b2d502255daba591e92833930a7 (Apache-2.0). Only the text path is kept, line for line
where it matters: parquet read with pandas, each message rendered on its own
(``_process_single_message``: tools with the first message only, the system-prompt prefix cut from every
later one), the pieces concatenated, and ``sanity_check``, which raises when they differ from the whole
conversation rendered at once, unless ``ignore_input_ids_mismatch``. Images, videos, padding and
truncation are left out. ``install()`` puts the class where the exported ``hsa_verl_dataset.py`` imports
it from (``verl.utils.dataset.multiturn_sft_dataset``).
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pandas as pd
import torch


def convert_nested_value_to_list_recursive(data_item):
    if isinstance(data_item, dict):
        return {k: convert_nested_value_to_list_recursive(v) for k, v in data_item.items()}
    elif isinstance(data_item, list):
        return [convert_nested_value_to_list_recursive(elem) for elem in data_item]
    elif isinstance(data_item, np.ndarray):
        return convert_nested_value_to_list_recursive(data_item.tolist())
    return data_item


def extract_system_prompt_and_generation(tokenizer):
    token1 = tokenizer.apply_chat_template([{"role": "user", "content": ""}], add_generation_prompt=False, tokenize=True)
    token2 = tokenizer.apply_chat_template([{"role": "user", "content": ""}] * 2, add_generation_prompt=False, tokenize=True)
    token1, token2 = _ids(token1), _ids(token2)
    system_prompt = token1[: -(len(token2) - len(token1))]
    token3 = _ids(tokenizer.apply_chat_template([{"role": "user", "content": ""}], add_generation_prompt=True, tokenize=True))
    generate_prompt = token3[len(token1) :]
    return system_prompt, generate_prompt


def _ids(encoded):
    # transformers 5 returns a BatchEncoding where veRL's transformers returned a list.
    return list(encoded["input_ids"]) if hasattr(encoded, "keys") else list(encoded)


class MultiTurnSFTDataset:
    def __init__(self, parquet_files, tokenizer, config=None, processor=None, max_samples=-1):
        config = config or {}
        self.messages_key = config.get("messages_key", "messages")
        self.tools_key = config.get("tools_key", "tools")
        self.enable_thinking_key = config.get("enable_thinking_key", "enable_thinking")
        self.apply_chat_template_kwargs = config.get("apply_chat_template_kwargs", {})
        self.ignore_input_ids_mismatch = config.get("ignore_input_ids_mismatch", False)
        self.parquet_files = parquet_files if isinstance(parquet_files, list) else [parquet_files]
        self.tokenizer = tokenizer
        self.processor = processor
        self.dataframe = pd.concat([pd.read_parquet(file) for file in self.parquet_files])
        self.messages = self.dataframe[self.messages_key].apply(convert_nested_value_to_list_recursive).tolist()
        if self.tools_key in self.dataframe.columns:
            self.tools = self.dataframe[self.tools_key].apply(convert_nested_value_to_list_recursive).tolist()
        else:
            self.tools = None
        if self.enable_thinking_key in self.dataframe.columns:
            self.enable_thinking = self.dataframe[self.enable_thinking_key].tolist()
        else:
            self.enable_thinking = None
        self.system_prompt, self.generation_prompt = extract_system_prompt_and_generation(self.tokenizer)

    def __len__(self):
        return len(self.messages)

    def _process_single_message(self, index, message, tools=None, enable_thinking=None):
        processor = self.processor if self.processor is not None else self.tokenizer
        kwargs = {**self.apply_chat_template_kwargs}
        if enable_thinking is not None:
            kwargs["enable_thinking"] = enable_thinking
        inputs = processor.apply_chat_template(
            [message], tools=tools, add_generation_prompt=False, tokenize=True, return_dict=True,
            return_tensors="pt", **kwargs,
        )
        input_ids = dict(inputs).pop("input_ids")[0]
        if index != 0 and message["role"] != "system":
            input_ids = input_ids[len(self.system_prompt) :]
        loss_mask = torch.zeros_like(input_ids)
        if message["role"] == "assistant":
            loss_mask = torch.ones_like(input_ids)
            loss_mask[: len(self.generation_prompt)] = 0
        return input_ids, loss_mask

    def __getitem__(self, item):
        row_dict = self.dataframe.iloc[item].to_dict()
        messages = row_dict[self.messages_key]
        tools = self.tools[item] if self.tools is not None else None
        enable_thinking = self.enable_thinking[item] if self.enable_thinking is not None else None
        input_ids, loss_mask = [], []
        for i, message in enumerate(messages):
            ids, mask = self._process_single_message(i, message, tools=tools if i == 0 else None, enable_thinking=enable_thinking)
            input_ids.append(ids)
            loss_mask.append(mask)
        input_ids = torch.cat(input_ids, dim=0)
        loss_mask = torch.cat(loss_mask, dim=0)
        self.sanity_check(input_ids, messages, tools, enable_thinking)
        return {"input_ids": input_ids, "loss_mask": loss_mask}

    def sanity_check(self, input_ids, messages, tools, enable_thinking):
        processor = self.processor if self.processor is not None else self.tokenizer
        kwargs = {**self.apply_chat_template_kwargs}
        if enable_thinking is not None:
            kwargs["enable_thinking"] = enable_thinking
        inputs = processor.apply_chat_template(
            messages, tools=tools, add_generation_prompt=False, tokenize=True, return_dict=True,
            return_tensors="pt", **kwargs,
        )
        if not torch.equal(input_ids, inputs["input_ids"].squeeze(0)):
            if not self.ignore_input_ids_mismatch:
                raise AssertionError(
                    "MultiTurnSFTDataset apply_chat_template to each turn separately and concat `input_ids` "
                    "as a whole sequence, which may not equal to apply_chat_template to whole messages at once."
                )


def install():
    """Makes ``from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset`` resolve here."""
    for name in ("verl", "verl.utils", "verl.utils.dataset"):
        sys.modules.setdefault(name, types.ModuleType(name))
    module = types.ModuleType("verl.utils.dataset.multiturn_sft_dataset")
    module.MultiTurnSFTDataset = MultiTurnSFTDataset
    sys.modules["verl.utils.dataset.multiturn_sft_dataset"] = module
