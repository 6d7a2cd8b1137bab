"""Import stand-in for deepspeed.runtime (deepspeed is not on the local index); see stubs/README.md."""

from _unavailable import module_getattr

__getattr__ = module_getattr("deepspeed.runtime")
