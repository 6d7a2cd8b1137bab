"""Import stand-in for flash_attn.utils.distributed; the name OpenRLHF's models/ring_attn_utils.py imports."""

from _unavailable import unavailable

all_gather = unavailable("flash_attn.utils.distributed.all_gather")
