"""A real SFTTrainer run on each family of the messages-layout SFT recipe: a tiny random model, 2 steps,
assistant-only loss.

The tokenizer carries the family's ORIGINAL template, as a checkpoint from the Hub does; with
``assistant_only_loss=True`` TRL swaps in its own training template (``get_training_chat_template``),
which is the path a user's run takes. The template TRL swapped in must be the one the recipe table
(``families.SFT_RECIPES``) says the export was checked against; every row trained on must keep assistant
tokens after TRL's tokenization, and the loss must be finite. The families TRL has no training template
for train on prompt-completion rows (test_sft_prompt_completion.py).
"""

from __future__ import annotations

import json
import math

import pytest
from conftest import pipeline_folder, trl_templates
from datasets import load_dataset
from families import SFT_RECIPES
from tiny import tiny_model, tiny_tokenizer
from transformers.utils.chat_template_utils import render_jinja_template

ROWS = 4  # rows per family: enough for 2 steps of batch 2

# The original templates of the families whose recipe is the messages layout with assistant_only_loss=True.
FAMILIES = sorted(name for name, recipe in SFT_RECIPES.items() if recipe["layout"] == "messages")


def picked_lines(folder):
    """ROWS lines of the export, spread over the file (original and variant states, retry traces)."""
    lines = (pipeline_folder() / "exports" / folder / "train.jsonl").read_text(encoding="utf-8").splitlines()
    step = max(1, len(lines) // ROWS)
    return lines[::step][:ROWS]


@pytest.mark.parametrize("template_name", FAMILIES)
def test_sft_trainer_trains_on_every_row(template_name, tmp_path):
    from trl import SFTConfig, SFTTrainer

    recipe = SFT_RECIPES[template_name]
    folder = recipe["export"]
    template = trl_templates()[template_name]
    lines = picked_lines(folder)
    subset = tmp_path / "train.jsonl"
    subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # Loaded as SFTTrainer's users load it: the datasets JSON loader (`tools` stays JSON text).
    dataset = load_dataset("json", data_files=str(subset), split="train")
    rows = [{"messages": row["messages"], "tools": json.loads(row["tools"])} for row in dataset]
    # The tokenizer's merges come from the text TRL will tokenize: the rows through the training template.
    training = trl_templates()[recipe["renders_with"]]
    texts = [render_jinja_template([row["messages"]], tools=row["tools"], chat_template=training)[0][0] for row in rows]
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
    # ... and it is the template the recipe's export is checked against (hsa check-exports in .ci/run).
    assert trainer.chat_template == trl_templates()[recipe["renders_with"]]
    # TRL turns the assistant masks into labels (-100 elsewhere), then truncates to max_length.
    trained = [sum(label != -100 for label in example["labels"]) for example in trainer.train_dataset]
    assert len(trained) == len(rows)
    assert all(count > 0 for count in trained), f"rows with no trained token: {trained}"
    assert all(len(example["input_ids"]) <= args.max_length for example in trainer.train_dataset)
    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses
