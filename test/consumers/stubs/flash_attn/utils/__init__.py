"""Import stand-in for flash_attn.utils; see ../../README.md."""
