"""Tiny models for the consumer suite: a real tokenizer and a real causal LM, built offline in seconds.

Nothing is downloaded. The tokenizer is a byte-level BPE trained with the ``tokenizers`` library on the
caller's own texts (so it round-trips any text, Chinese included, and sequences stay short), wrapped as a
``transformers.PreTrainedTokenizerFast`` with the given chat template; the model is a ``Qwen2ForCausalLM``
built from a config with random weights. Both are what the trainers accept from the Hub.

Stable API (other suites import it; keep it small):

    from tiny import tiny_tokenizer, tiny_model, template_special_tokens

    tokenizer = tiny_tokenizer(texts, chat_template)          # PreTrainedTokenizerFast
    model = tiny_model(tokenizer)                               # Qwen2ForCausalLM, ~0.1M parameters

``tiny_tokenizer(texts, chat_template, vocab_size=4000, eos_token=None)``
    ``texts``: strings to learn merges from (e.g. the rows' rendered text); ``chat_template``: Jinja source,
    set as ``tokenizer.chat_template``. Every special marker the template writes (``<|im_start|>``,
    ``<｜User｜>``, ``<start_of_turn>`` ...) becomes one added token. ``eos_token`` defaults to the
    template's end-of-turn marker when one is found (``<|im_end|>``, ``<|eot_id|>``, ...), else ``</s>``;
    the pad token is its own ``<pad>``. Deterministic: same texts and template, same vocabulary.

``tiny_model(tokenizer, hidden_size=32, layers=2, seed=0)``
    A causal LM whose vocabulary is the tokenizer's, seeded so that two calls give the same weights.

``template_special_tokens(chat_template)``
    The special markers found in a template, sorted (what ``tiny_tokenizer`` adds).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Markers chat templates write literally: <|im_start|>, <｜User｜> (DeepSeek, full-width bars),
# <start_of_turn>, <tool_call>, [INST] ... Matched in the template's string literals only.
_MARKER = re.compile(r"<\|[A-Za-z0-9_▁.\-]+\|>|<｜[^｜<>]+｜>|</?[a-z][a-z0-9_]*(?:\|>)?>|<\|[a-z_]+>|\[/?[A-Z_]+\]")
_LITERAL = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
_EOS_CANDIDATES = ("<|im_end|>", "<|eot_id|>", "<｜end▁of▁sentence｜>", "<end_of_turn>", "<|end|>", "<|return|>")


def template_special_tokens(chat_template: str) -> list[str]:
    """The special markers a chat template writes, sorted."""
    found: set[str] = set()
    for match in _LITERAL.finditer(chat_template):
        literal = match.group(1) if match.group(1) is not None else match.group(2)
        found.update(_MARKER.findall(literal))
    # Markers written outside string literals (raw template text between tags).
    raw = re.sub(r"\{[{%#].*?[}%#]\}", " ", chat_template, flags=re.S)
    found.update(_MARKER.findall(raw))
    return sorted(found)


def tiny_tokenizer(texts: Iterable[str], chat_template: str, vocab_size: int = 4000, eos_token: str | None = None):
    """A byte-level BPE tokenizer trained on ``texts``, with ``chat_template`` and its markers."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    specials = template_special_tokens(chat_template)
    if eos_token is None:
        eos_token = next((token for token in _EOS_CANDIDATES if token in specials), "</s>")
    added = sorted({*specials, eos_token, "<pad>"})
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=added,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(list(texts), trainer=trainer)
    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token=eos_token, pad_token="<pad>")
    wrapped.chat_template = chat_template
    return wrapped


def tiny_model(tokenizer, hidden_size: int = 32, layers: int = 2, seed: int = 0):
    """A random-init ``Qwen2ForCausalLM`` over ``tokenizer``'s vocabulary."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=layers,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=65536,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    return Qwen2ForCausalLM(config)
