from .deepspeed import DeepspeedStrategy

__all__ = [
    "DeepspeedStrategy",
]
