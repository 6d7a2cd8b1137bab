from .math_utils import extract_boxed_answer, grade_answer
from .utils import get_strategy, get_tokenizer

__all__ = [
    "extract_boxed_answer",
    "grade_answer",
    "get_strategy",
    "get_tokenizer",
]
