"""Shared by the import stand-ins: a name whose use fails loudly, naming the stand-in it came from."""


def unavailable(qualified_name):
    """A class that cannot be instantiated (and so cannot be called into) in the consumer suite."""

    def fail(*args, **kwargs):
        raise NotImplementedError(f"import stand-in: {qualified_name} is not available in the consumer suite")

    return type(qualified_name.rsplit(".", 1)[-1], (), {"__init__": fail, "__call__": fail})


def module_getattr(module_name):
    """A module-level __getattr__: any other name of the stand-in module fails on use, not on import."""

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        return unavailable(f"{module_name}.{name}")

    return __getattr__
