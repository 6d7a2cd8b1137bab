"""Init for `axolotl.utils.mistral` module."""

from axolotl.utils.mistral.mistral3_processor import Mistral3Processor
from axolotl.utils.mistral.mistral_tokenizer import HFMistralTokenizer

__all__ = ["HFMistralTokenizer", "Mistral3Processor"]
