"""Import stand-in for pylatexenc (not on the local index); see ../README.md."""
