"""Import stand-in for hydra (hydra-core is not on the local index); see ../README.md.

veRL's agent_loop.py imports it at module level and calls hydra.utils.instantiate only where the agent
loop manager builds loops from their config, which the consumer suite does not run.
"""

from _unavailable import module_getattr

__getattr__ = module_getattr("hydra")
