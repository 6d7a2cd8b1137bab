"""The vendored trainer sources are the upstream files, byte for byte.

``vendor/VENDORED.json`` records, per project, the repository, the commit and every file's git blob id as
the repository's tree lists it at that commit (``git ls-tree``, written by scripts/vendor-python.py from a
clone). Each copy here must hash to that blob id (git's ``sha1("blob <size>\\0" + content)``), and the
project folder holds nothing else: no file was edited, added or left out.
"""

from __future__ import annotations

import hashlib

import pytest
from vendored import VENDOR, index

PROJECTS = index()["projects"]


def git_blob_id(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def test_the_known_blob_id_of_an_empty_file():
    # git hash-object /dev/null
    assert git_blob_id(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def test_every_project_names_its_repository_commit_and_license():
    assert {entry["project"] for entry in PROJECTS} >= {"verl", "llamafactory", "axolotl", "openrlhf"}
    for entry in PROJECTS:
        assert entry["repository"].startswith("https://github.com/"), entry["project"]
        assert len(entry["commit"]) == 40 and int(entry["commit"], 16) >= 0, entry["project"]
        assert entry["license"] in {file["path"] for file in entry["files"]}, entry["project"]


@pytest.mark.parametrize("entry", PROJECTS, ids=[entry["project"] for entry in PROJECTS])
def test_every_vendored_file_is_the_upstream_blob(entry):
    folder = VENDOR / entry["project"]
    changed = []
    for file in entry["files"]:
        path = folder / file["path"]
        if not path.is_file():
            changed.append((file["path"], "missing"))
        elif git_blob_id(path.read_bytes()) != file["blob"]:
            changed.append((file["path"], "differs from blob " + file["blob"]))
    assert not changed, f"{entry['project']} at {entry['commit']}: {changed[:5]}"


@pytest.mark.parametrize("entry", PROJECTS, ids=[entry["project"] for entry in PROJECTS])
def test_a_project_folder_holds_only_its_recorded_files(entry):
    folder = VENDOR / entry["project"]
    recorded = {file["path"] for file in entry["files"]}
    present = {
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert present == recorded, {"not recorded": sorted(present - recorded)[:5], "absent": sorted(recorded - present)[:5]}
