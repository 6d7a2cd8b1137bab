"""Import stand-in for deepspeed.runtime.zero.partition_parameters (deepspeed is not on the local index); see stubs/README.md."""

from _unavailable import module_getattr

__getattr__ = module_getattr("deepspeed.runtime.zero.partition_parameters")
