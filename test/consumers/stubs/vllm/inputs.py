"""Import stand-in for vllm.inputs (vllm is not on the local index); see stubs/README.md."""

from _unavailable import module_getattr

__getattr__ = module_getattr("vllm.inputs")
