"""A real SFTTrainer run on each SFT export family: a tiny random model, 2 steps, assistant-only loss.

The tokenizer carries the family's ORIGINAL template, as a checkpoint from the Hub does; with
``assistant_only_loss=True`` TRL swaps in its own training template (``get_training_chat_template``),
which is the path a user's run takes. Every row trained on must keep assistant tokens after TRL's
tokenization, and the loss must be finite.
"""

from __future__ import annotations

import math

import pytest
from conftest import export_rows, pipeline_folder, trl_templates
from datasets import Dataset
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


def picked_rows(folder):
    rows = export_rows(pipeline_folder(), folder)
    # Spread over the file (original and variant states, retry traces), deterministic.
    step = max(1, len(rows) // ROWS)
    return rows[::step][:ROWS]


@pytest.mark.parametrize("folder", sorted(FAMILIES))
def test_sft_trainer_trains_on_every_row(folder, tmp_path):
    from trl import SFTConfig, SFTTrainer

    template = trl_templates()[FAMILIES[folder]]
    rows = picked_rows(folder)
    texts = [render_jinja_template([row["messages"]], tools=row["tools"], chat_template=template)[0][0] for row in rows]
    tokenizer = tiny_tokenizer(texts, template, vocab_size=3000)
    model = tiny_model(tokenizer)
    longest = max(len(tokenizer(text)["input_ids"]) for text in texts)
    # The export as SFTTrainer reads it from JSONL: `tools` stays JSON text, SFTTrainer decodes it.
    dataset = Dataset.from_list([{"messages": row["messages"], "tools": __import__("json").dumps(row["tools"])} for row in rows])
    args = SFTConfig(
        output_dir=str(tmp_path),
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
    assert trainer.processing_class.chat_template != template, "TRL did not swap in its training template"
    trained = [sum(example["assistant_masks"]) for example in trainer.train_dataset]
    assert len(trained) == len(rows)
    assert all(count > 0 for count in trained), f"rows with no trained token: {trained}"
    assert all(len(example["input_ids"]) <= args.max_length for example in trainer.train_dataset)
    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses
