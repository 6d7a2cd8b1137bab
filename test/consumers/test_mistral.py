"""The Mistral export passes Mistral's own tokenizer code: mistral-common's request validator and
``encode_chat_completion`` with the v3 (Mistral 7B v0.3) and Tekken (Nemo) tokenizers it ships.

mistral-common imports ``pydantic_extra_types.language_code`` for the language field of audio
transcription requests, and the local wheel index has no pydantic-extra-types. Where it is missing, that
one name is given a plain ``str`` before the import; nothing on the chat path reads it. Everything this
test checks is mistral-common's own code.
"""

from __future__ import annotations

import json
import sys
import types
from collections import Counter
from pathlib import Path

import pytest
from conftest import pipeline_folder, read_jsonl

try:
    import pydantic_extra_types.language_code  # noqa: F401
except ImportError:
    package = types.ModuleType("pydantic_extra_types")
    language_code = types.ModuleType("pydantic_extra_types.language_code")
    language_code.LanguageAlpha2 = str
    package.language_code = language_code
    sys.modules.setdefault("pydantic_extra_types", package)
    sys.modules.setdefault("pydantic_extra_types.language_code", language_code)

import mistral_common  # noqa: E402
from mistral_common.protocol.instruct.request import ChatCompletionRequest  # noqa: E402
from mistral_common.protocol.instruct.validator import ValidationMode  # noqa: E402
from mistral_common.tokens.tokenizers.mistral import MistralTokenizer  # noqa: E402

DATA = Path(mistral_common.__file__).parent / "data"
# v3 checks every row; Tekken (a 15 MB vocabulary, slower to load and encode) a spread of 100.
TOKENIZERS = {"mistral_instruct_tokenizer_240323.model.v3": 1, "tekken_240718.json": 20}


def encode_failures(tokenizer, rows):
    failures = Counter()
    for row in rows:
        try:
            request = ChatCompletionRequest.from_openai(row["messages"], tools=json.loads(row["tools"]))
            tokenizer.encode_chat_completion(request)
        except Exception as error:  # mistral-common's own message is the reason
            failures[str(error)[:160]] += 1
    return failures


@pytest.mark.parametrize("tokenizer_file", sorted(TOKENIZERS))
def test_every_mistral_row_encodes(tokenizer_file):
    tokenizer = MistralTokenizer.from_file(str(DATA / tokenizer_file), mode=ValidationMode.finetuning)
    rows = read_jsonl(pipeline_folder() / "exports" / "trl-mistral" / "train.jsonl")[:: TOKENIZERS[tokenizer_file]]
    assert len(rows) > 0
    failures = encode_failures(tokenizer, rows)
    assert not failures, f"{sum(failures.values())}/{len(rows)} rows fail: {failures.most_common(3)}"


def test_the_default_ids_are_what_mistral_refuses():
    # The check can fail: the default export's ids (call_…) are refused by the same code.
    tokenizer = MistralTokenizer.from_file(str(DATA / "mistral_instruct_tokenizer_240323.model.v3"), mode=ValidationMode.finetuning)
    rows = read_jsonl(pipeline_folder() / "exports" / "trl" / "train.jsonl")[:20]
    failures = encode_failures(tokenizer, rows)
    assert sum(failures.values()) == 20 and all("length of 9" in reason for reason in failures)
