"""The OPD files train in TRL 1.13: the exported train_opd.py (GKDTrainer) and DistillationTrainer.

Student and teacher are tiny random models saved to disk, so the exported script runs as a user runs it
(``main(opd.yaml)``), with only the model paths and the step count changed in its config.
"""

from __future__ import annotations

import importlib.util
import json
import math

import yaml
from conftest import pipeline_folder, read_jsonl
from datasets import Dataset
from tiny import tiny_model, tiny_tokenizer

# A plain ChatML template (the OPD rows are chat messages without tools).
CHATML = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


def tiny_checkpoint(folder, texts, seed):
    tokenizer = tiny_tokenizer(texts, CHATML, vocab_size=600)
    model = tiny_model(tokenizer, seed=seed)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    tokenizer.save_pretrained(folder)
    model.save_pretrained(folder)
    return str(folder)


def load_script(path):
    spec = importlib.util.spec_from_file_location("train_opd", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # its imports run here: they must resolve in TRL 1.13
    return module


def texts_of(rows, key):
    return [message["content"] for row in rows for message in row[key]]


def test_exported_train_opd_py_trains_with_gkd(tmp_path):
    opd = pipeline_folder() / "opd"
    script = load_script(opd / "train_opd.py")
    config = yaml.safe_load((opd / "opd.yaml").read_text())
    rows = read_jsonl(opd / config["datasets"]["gkd"])
    assert rows and all(row["messages"][-1]["role"] == "assistant" for row in rows)
    texts = texts_of(rows, "messages")
    subset = tmp_path / "gkd.jsonl"
    subset.write_text("".join(json.dumps(row) + "\n" for row in rows[:4]))
    config["student_model"] = tiny_checkpoint(tmp_path / "student", texts, seed=1)
    config["teacher_model"] = tiny_checkpoint(tmp_path / "teacher", texts, seed=2)
    config["output_dir"] = str(tmp_path / "out")
    config["datasets"]["gkd"] = str(subset)
    # The exported hyperparameters stay (lmbda, beta, temperature); a CPU-sized run on top.
    config["gkd"].update(
        max_steps=2, per_device_train_batch_size=2, max_new_tokens=8, logging_steps=1,
        report_to="none", save_strategy="no", use_cpu=True, max_length=256,
    )
    config_file = tmp_path / "opd.yaml"
    config_file.write_text(yaml.safe_dump(config))
    losses = []
    from transformers import TrainerCallback

    class Record(TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "loss" in logs:
                losses.append(logs["loss"])

    original = script.GKDTrainer

    class Recorded(original):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, callbacks=[Record()], **kwargs)

    script.GKDTrainer = Recorded
    script.main(str(config_file))
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses


def test_distillation_rows_train_with_distillation_trainer(tmp_path):
    from trl import DistillationConfig, DistillationTrainer

    opd = pipeline_folder() / "opd"
    rows = read_jsonl(opd / "distillation.jsonl")
    assert rows and all(row["prompt"][-1]["role"] == "user" for row in rows)
    texts = texts_of(rows, "prompt")
    student = tiny_checkpoint(tmp_path / "student", texts, seed=1)
    teacher = tiny_checkpoint(tmp_path / "teacher", texts, seed=2)
    from transformers import AutoModelForCausalLM, AutoTokenizer

    args = DistillationConfig(
        output_dir=str(tmp_path / "out"), max_steps=2, per_device_train_batch_size=2, logging_steps=1,
        max_completion_length=8, report_to="none", save_strategy="no", use_cpu=True,
    )
    trainer = DistillationTrainer(
        model=AutoModelForCausalLM.from_pretrained(student),
        teacher_model=AutoModelForCausalLM.from_pretrained(teacher),
        args=args,
        train_dataset=Dataset.from_list([{"prompt": row["prompt"]} for row in rows[:4]]),
        processing_class=AutoTokenizer.from_pretrained(student),
    )
    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(math.isfinite(loss) for loss in losses), losses
