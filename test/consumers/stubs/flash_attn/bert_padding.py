"""Import stand-in for flash_attn.bert_padding; the names OpenRLHF's models/ring_attn_utils.py imports."""

from _unavailable import unavailable

index_first_axis = unavailable("flash_attn.bert_padding.index_first_axis")
pad_input = unavailable("flash_attn.bert_padding.pad_input")
rearrange = unavailable("flash_attn.bert_padding.rearrange")
unpad_input = unavailable("flash_attn.bert_padding.unpad_input")
