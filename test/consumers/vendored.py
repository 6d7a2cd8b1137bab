"""The trainers without a wheel on the local index, imported from their vendored source.

``vendor/<project>/`` holds the project's files unmodified at the commit ``vendor/VENDORED.json`` records
(with each file's git blob id; ``test_vendored.py`` checks them). ``use(project)`` puts the project's
source folder (and those of the vendored packages it needs) first on ``sys.path``:

    from vendored import use
    use("verl")
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset

The import stand-ins of ``stubs/`` (packages the index lacks, see its README) are served only to imports
made by vendored code, never to the installed packages: transformers, accelerate and TRL probe for
optional packages (``importlib.util.find_spec``) and must keep finding none. ``forget_stand_ins()`` drops
the stand-in modules loaded so far (a vendored test module's fixture calls it when it is done), so later
tests in the session see the interpreter as the installed packages left it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENDOR = HERE / "vendor"
STUBS = HERE / "stubs"

# The folder of each project's top-level package, relative to vendor/<project>/ (its repository's layout).
SOURCE_ROOTS = {
    "verl": "",
    "llamafactory": "src",
    "axolotl": "src",
    "openrlhf": "",
    "addict": "",
    "codetiming": "",
    "antlr4": "runtime/Python3/src",
}
# Vendored dependencies of a vendored project: packages pip cannot install from the local index
# (antlr4-python3-runtime 4.9 is what the installed omegaconf wheel needs; veRL and LLaMA-Factory import it).
DEPENDENCIES = {"axolotl": ["addict"], "verl": ["codetiming", "antlr4"], "llamafactory": ["antlr4"]}

# Top-level names under stubs/: each folder, and the module the stand-ins share.
STAND_INS = frozenset(
    [path.name for path in STUBS.iterdir() if path.is_dir() and not path.name.startswith("_")] + ["_unavailable"]
)


def index() -> dict:
    return json.loads((VENDOR / "VENDORED.json").read_text(encoding="utf-8"))


def project(name: str) -> dict:
    return next(entry for entry in index()["projects"] if entry["project"] == name)


def _importer_file() -> str:
    """The file of the code that started the import being resolved (the first frame outside importlib)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    return frame.f_code.co_filename if frame is not None else ""


class _StandInFinder(importlib.abc.MetaPathFinder):
    """Finds a stand-in's top-level module in stubs/, for importers in vendor/ or stubs/ only."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in STAND_INS:
            return None  # submodules of a stand-in are found through its own __path__, in stubs/
        importer = _importer_file()
        if not (importer.startswith(str(VENDOR)) or importer.startswith(str(STUBS))):
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, [str(STUBS)])


def use(name: str) -> Path:
    """Makes the vendored project importable; returns its source folder."""
    for dependency in DEPENDENCIES.get(name, []):
        use(dependency)
    folder = (VENDOR / name / SOURCE_ROOTS[name]).resolve()
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    if not any(isinstance(finder, _StandInFinder) for finder in sys.meta_path):
        sys.meta_path.append(_StandInFinder())  # after the real finders: an installed package always wins
    return folder


def forget_stand_ins() -> None:
    """Drops every stand-in module imported so far from sys.modules."""
    for module in [module for module in sys.modules if module.split(".")[0] in STAND_INS]:
        del sys.modules[module]
