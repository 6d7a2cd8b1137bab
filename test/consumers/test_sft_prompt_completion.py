"""The SFT recipe for the families TRL ships no training template for: Llama 3.1, Llama 3.2, Gemma 4.

With ``assistant_only_loss=True``, ``SFTTrainer`` raises at construction for these templates
(``get_training_chat_template``: "not training-compatible … patching is not supported"); the first test
shows it, so the suite notices the day TRL adds one. What TRL supports for them is its conversational
prompt-completion type with completion-only loss: the ``trl-prompt-completion`` export writes one row per
assistant message (the messages before it as ``prompt``, the message as ``completion``), and TRL trains
the completion's tokens only.

The trainer is constructed exactly as docs/exporters.md shows (``SFTConfig(..., completion_only_loss=True)``
over the export loaded with ``load_dataset("json", ...)``), with a tiny random model and a tokenizer that
carries the family's original template, and trains 2 steps. The tokens that carry loss are counted against
the assistant spans computed here, independently of TRL: the text the template renders for the completion
(the full rendering minus the prompt's rendering with the generation prompt), located in the full
rendering by character offsets. Every trained token must lie in that span, every token of the span must be
trained, and the span must hold the message's text and calls and no tool result or user text.
"""

from __future__ import annotations

import json
import math

import pytest
from conftest import pipeline_folder, tokenizer_dir, trl_templates
from datasets import load_dataset
from families import SFT_RECIPES
from tiny import tiny_model, tiny_tokenizer
from transformers.utils.chat_template_utils import render_jinja_template

LINES = 4  # prompt-completion rows per family: 2 steps of batch 2
FAMILIES = sorted(name for name, recipe in SFT_RECIPES.items() if recipe["layout"] == "prompt-completion")


def render(messages, tools, template, add_generation_prompt=False):
    return render_jinja_template(
        [messages], tools=tools, chat_template=template, add_generation_prompt=add_generation_prompt
    )[0][0]


def picked_lines(folder):
    """LINES lines spread over the export (short and long prompts, calls and answers)."""
    lines = (pipeline_folder() / "exports" / folder / "train.jsonl").read_text(encoding="utf-8").splitlines()
    step = max(1, len(lines) // LINES)
    return lines[step // 2 :: step][:LINES]


def family_tokenizer(template_name, template, texts):
    """Llama: the real Llama 3 tokenizer (its vocabulary, its pre-tokenizer) with the family's template; Gemma:
    a tiny one trained on the rows (the suite has no Gemma tokenizer)."""
    if template_name.startswith("llama3"):
        from transformers import PreTrainedTokenizerFast

        tokenizer = PreTrainedTokenizerFast(
            tokenizer_file=str(tokenizer_dir("llama3") / "tokenizer.json"),
            bos_token="<|begin_of_text|>",
            eos_token="<|eot_id|>",
            pad_token="<|reserved_special_token_2|>",
        )
        tokenizer.chat_template = template
        return tokenizer
    return tiny_tokenizer(texts, template, vocab_size=3000)


def assistant_span(tokenizer, row):
    """(full text, start of the completion's text): what transformers renders for the completion."""
    tools = json.loads(row["tools"])
    full = tokenizer.apply_chat_template(row["prompt"] + row["completion"], tools=tools, tokenize=False)
    prefix = tokenizer.apply_chat_template(row["prompt"], tools=tools, tokenize=False, add_generation_prompt=True)
    assert full.startswith(prefix), "the template does not render the prompt as a prefix of prompt + completion"
    return full, len(prefix)


@pytest.mark.parametrize("template_name", FAMILIES)
def test_assistant_only_loss_raises_for_this_family(template_name, tmp_path):
    # Why the recipe is not the messages layout with assistant_only_loss=True: TRL refuses it at construction.
    from trl import SFTConfig, SFTTrainer

    template = trl_templates()[template_name]
    rows = [json.loads(line) for line in picked_lines("trl-one-call")[:2]]
    subset = tmp_path / "train.jsonl"
    subset.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    dataset = load_dataset("json", data_files=str(subset), split="train")
    tokenizer = tiny_tokenizer([render(rows[0]["messages"], None, template)], template, vocab_size=600)
    args = SFTConfig(output_dir=str(tmp_path / "out"), assistant_only_loss=True, report_to="none", use_cpu=True)
    with pytest.raises(ValueError, match="patching is not supported"):
        SFTTrainer(model=tiny_model(tokenizer), args=args, train_dataset=dataset, processing_class=tokenizer)


@pytest.mark.parametrize("template_name", FAMILIES)
def test_sft_trains_the_assistant_tokens_only(template_name, tmp_path):
    from trl import SFTConfig, SFTTrainer

    recipe = SFT_RECIPES[template_name]
    template = trl_templates()[template_name]
    lines = picked_lines(recipe["export"])
    subset = tmp_path / "train.jsonl"
    subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [json.loads(line) for line in lines]
    assert all(set(row) == {"prompt", "completion", "tools"} for row in rows)
    texts = [render(row["prompt"] + row["completion"], json.loads(row["tools"]), template) for row in rows]
    tokenizer = family_tokenizer(template_name, template, texts)
    spans = [assistant_span(tokenizer, row) for row in rows]
    model = tiny_model(tokenizer)
    longest = max(len(tokenizer(full)["input_ids"]) for full, _ in spans)

    # As docs/exporters.md shows it (max_length: the rows' own longest here, 8192 there).
    dataset = load_dataset("json", data_files=str(subset), split="train")
    args = SFTConfig(
        output_dir=str(tmp_path / "out"),
        max_length=longest + 16,
        completion_only_loss=True,
        max_steps=2,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        dataloader_num_workers=0,
        seed=0,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer)
    prepared = list(trainer.train_dataset)
    assert len(prepared) == len(rows)

    for row, (full, start), example in zip(rows, spans, prepared, strict=True):
        encoded = tokenizer(full, return_offsets_mapping=True, add_special_tokens=False)
        assert example["input_ids"] == encoded["input_ids"], "TRL tokenized another text than the template renders"
        expected = [index for index, (begin, _) in enumerate(encoded["offset_mapping"]) if begin >= start]
        trained = [index for index, label in enumerate(example["labels"]) if label != -100]
        assert len(trained) == len(expected) > 0, (len(trained), len(expected))
        assert trained == expected, "trained tokens outside the assistant span"
        assert all(example["labels"][index] == example["input_ids"][index] for index in trained)
        span = full[start:]
        (message,) = row["completion"]
        assert message["role"] == "assistant"
        if message.get("content"):
            assert message["content"] in span
        for call in message.get("tool_calls") or []:
            assert call["function"]["name"] in span
        for earlier in row["prompt"]:
            if earlier["role"] in ("tool", "user") and len(earlier["content"]) > 20:
                assert earlier["content"] not in span, f"{earlier['role']} text in the trained span"

    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses
