"""Import stand-in for pylatexenc.latex2text (pylatexenc is not on the local index); see stubs/README.md."""

from _unavailable import module_getattr

__getattr__ = module_getattr("pylatexenc.latex2text")
