"""Import stand-in for flash_attn (not on the local index); see ../README.md. No names of its own, so
feature checks that import from it directly still find nothing."""
