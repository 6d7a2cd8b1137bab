"""Import stand-in for tensordict (not on the local index); see ../README.md.

veRL names TensorDict in signatures and calls the two context managers below inside
contextlib.suppress at import; the suite never builds a TensorDict.
"""

from _unavailable import unavailable

__version__ = "0.0.0+stand-in"

TensorDict = unavailable("tensordict.TensorDict")
set_lazy_legacy = unavailable("tensordict.set_lazy_legacy")
set_list_to_stack = unavailable("tensordict.set_list_to_stack")
