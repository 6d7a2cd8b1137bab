"""The trainers without a wheel on the local index, imported from their vendored source.

``vendor/<project>/`` holds the project's files unmodified at the commit ``vendor/VENDORED.json`` records
(with each file's git blob id; ``test_vendored.py`` checks them). ``use(project)`` puts the project's
source folder first on ``sys.path`` and the import stand-ins of ``stubs/`` last, so an installed package
always wins over a stand-in:

    from vendored import use
    use("verl")
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset
"""

from __future__ import annotations

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
# (antlr4-python3-runtime 4.9 is what the installed omegaconf wheel needs).
DEPENDENCIES = {"axolotl": ["addict"], "verl": ["codetiming", "antlr4"]}


def index() -> dict:
    return json.loads((VENDOR / "VENDORED.json").read_text(encoding="utf-8"))


def project(name: str) -> dict:
    return next(entry for entry in index()["projects"] if entry["project"] == name)


def use(name: str) -> Path:
    """Makes the vendored project importable; returns its source folder."""
    for dependency in DEPENDENCIES.get(name, []):
        use(dependency)
    folder = (VENDOR / name / SOURCE_ROOTS[name]).resolve()
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    if str(STUBS) not in sys.path:
        sys.path.append(str(STUBS))
    return folder
