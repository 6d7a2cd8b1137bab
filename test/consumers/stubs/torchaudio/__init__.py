"""Import stand-in for torchaudio (not on the local index); see ../README.md.

LLaMA-Factory's data/mm_plugin.py imports it at module level for audio inputs; text rows never reach it.
"""


def __getattr__(name):
    raise NotImplementedError(f"torchaudio stand-in: torchaudio.{name} is not available in the consumer suite")
