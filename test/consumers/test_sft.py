"""A real SFTTrainer run on each SFT export family: a tiny random model, 2 steps, assistant-only loss.

The tokenizer carries the family's ORIGINAL template, as a checkpoint from the Hub does; with
``assistant_only_loss=True`` TRL swaps in its own training template (``get_training_chat_template``),
which is the path a user's run takes. Every row trained on must keep assistant tokens after TRL's
tokenization, and the loss must be finite.
"""

from __future__ import annotations

import json
import math

import pytest
from conftest import pipeline_folder, trl_templates
from datasets import load_dataset
from tiny import tiny_model, tiny_tokenizer
from transformers.utils.chat_template_utils import render_jinja_template

ROWS = 4  # rows per family: enough for 2 steps of batch 2

# export folder -> the original template of a family that reads it.
FAMILIES = {
    "trl": "qwen2_5.jinja",
    "trl-one-call": "gptoss.jinja",
    "trl-string-arguments": "deepseek_r1_distill.jinja",
    "trl-lfm2": "lfm2.jinja",
}


def picked_lines(folder):
    """ROWS lines of the export, spread over the file (original and variant states, retry traces)."""
    lines = (pipeline_folder() / "exports" / folder / "train.jsonl").read_text(encoding="utf-8").splitlines()
    step = max(1, len(lines) // ROWS)
    return lines[::step][:ROWS]


@pytest.mark.parametrize("folder", sorted(FAMILIES))
def test_sft_trainer_trains_on_every_row(folder, tmp_path):
    from trl import SFTConfig, SFTTrainer

    template = trl_templates()[FAMILIES[folder]]
    lines = picked_lines(folder)
    subset = tmp_path / "train.jsonl"
    subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # Loaded as SFTTrainer's users load it: the datasets JSON loader (`tools` stays JSON text).
    dataset = load_dataset("json", data_files=str(subset), split="train")
    rows = [{"messages": row["messages"], "tools": json.loads(row["tools"])} for row in dataset]
    texts = [render_jinja_template([row["messages"]], tools=row["tools"], chat_template=template)[0][0] for row in rows]
    tokenizer = tiny_tokenizer(texts, template, vocab_size=3000)
    model = tiny_model(tokenizer)
    longest = max(len(tokenizer(text)["input_ids"]) for text in texts)
    args = SFTConfig(
        output_dir=str(tmp_path / "out"),
        max_steps=2,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        logging_steps=1,
        max_length=longest + 16,
        assistant_only_loss=True,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        dataloader_num_workers=0,
        seed=0,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer)
    # TRL swapped in its training template (the one with {% generation %} markers) for this family.
    assert "generation" in (trainer.chat_template or ""), "TRL found no training template for this family"
    # TRL turns the assistant masks into labels (-100 elsewhere), then truncates to max_length.
    trained = [sum(label != -100 for label in example["labels"]) for example in trainer.train_dataset]
    assert len(trained) == len(rows)
    assert all(count > 0 for count in trained), f"rows with no trained token: {trained}"
    assert all(len(example["input_ids"]) <= args.max_length for example in trainer.train_dataset)
    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses
