"""tiny.py builds what the trainers accept: a tokenizer that round-trips the rows, a model that runs."""

import json

import torch
from conftest import export_rows, trl_templates
from tiny import template_special_tokens, tiny_model, tiny_tokenizer
from transformers.utils.chat_template_utils import render_jinja_template


def test_tiny_tokenizer_round_trips_rendered_rows_and_the_model_gives_a_finite_loss(pipeline_out):
    template = trl_templates()["qwen2_5_training.jinja"]
    rows = export_rows(pipeline_out, "trl")[:8]
    texts = [render_jinja_template([row["messages"]], tools=row["tools"], chat_template=template)[0][0] for row in rows]
    tokenizer = tiny_tokenizer(texts, template, vocab_size=1000)
    assert "<|im_start|>" in template_special_tokens(template)
    assert tokenizer.eos_token == "<|im_end|>"
    for text in texts:
        ids = tokenizer(text)["input_ids"]
        assert tokenizer.decode(ids) == text
    again = tiny_tokenizer(texts, template, vocab_size=1000)
    assert again.get_vocab() == tokenizer.get_vocab()
    model = tiny_model(tokenizer)
    ids = torch.tensor([tokenizer(texts[0])["input_ids"][:256]])
    loss = model(input_ids=ids, labels=ids).loss
    assert torch.isfinite(loss)
    assert json.dumps(tokenizer.chat_template) == json.dumps(template)
