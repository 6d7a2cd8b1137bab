#!/usr/bin/env python3
"""Copies a Python project's source files, unmodified, from a clone of its repository into
<vendor-dir>/<project>/ at their original paths, and records each file's git blob id as the
repository's own tree lists it (`git ls-tree <commit> <path>`) in <vendor-dir>/VENDORED.json.

The consumer suite runs trainers that have no wheel on the local index through the copies under
test/consumers/vendor (the default --vendor-dir); test/consumers/test_vendored.py checks every copy against
the recorded blob ids. `npm run bench` runs Hammer's function masking from scripts/bench/vendor
(test/bench/hammer-vendored.test.ts checks those copies).

    python3 scripts/vendor-python.py --project verl --repository https://github.com/verl-project/verl \\
      --git-dir ../verl/.git --commit v0.7.1 --package verl \\
      --module verl.utils.dataset.multiturn_sft_dataset --license LICENSE

Files: the module-level import closure of every --module inside --package (imports inside functions are
not followed: name them with --module or --file when the suite runs them), plus --file paths (a folder
brings every file under it; data files a module reads) and the --license file. Reads the repository's objects only (no checkout), so the copies are the commit's bytes.

    python3 scripts/vendor-python.py --vendor-dir scripts/bench/vendor --project hammer \\
      --repository https://github.com/MadeAgents/Hammer --git-dir ../Hammer/.git --commit main \\
      --file train/data_processing.py --license LICENSE
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_VENDOR = ROOT / "test" / "consumers" / "vendor"


def git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True).stdout


def tree_blobs(git_dir: str, commit: str) -> dict[str, str]:
    """Every file of the commit's tree: path -> blob id, as `git ls-tree -r` lists them."""
    blobs = {}
    for line in git(git_dir, "ls-tree", "-r", "-z", commit).split(b"\0"):
        if not line:
            continue
        meta, path = line.split(b"\t", 1)
        mode, kind, blob = meta.decode().split()
        if kind == "blob":
            blobs[path.decode()] = blob
    return blobs


def module_path(module: str, source_root: str, blobs: dict[str, str]) -> str | None:
    base = "/".join(filter(None, [source_root.strip("/"), *module.split(".")]))
    for candidate in (base + ".py", base + "/__init__.py"):
        if candidate in blobs:
            return candidate
    return None


def top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports that run when the module loads: at module level, also inside module-level if/try/with."""
    found: list[ast.Import | ast.ImportFrom] = []

    def walk(nodes):
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                walk(node.body)
                walk(getattr(node, "orelse", []))
                walk(getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    walk(handler.body)

    walk(tree.body)
    return found


def import_closure(git_dir: str, commit: str, blobs, package: str, source_root: str, modules: list[str]) -> set[str]:
    paths: set[str] = set()
    todo = list(modules)
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = module_path(module, source_root, blobs)
        if path is None:
            continue  # a name imported from a module, not a module of its own
        paths.add(path)
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages run first
        is_package = path.endswith("/__init__.py")
        tree = ast.parse(git(git_dir, "show", f"{commit}:{path}"))
        for node in top_level_imports(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = parts if is_package else parts[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names = [target] + [f"{target}.{alias.name}" for alias in node.names]
            todo.extend(name for name in names if name.split(".")[0] == package)
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--vendor-dir", type=Path, default=DEFAULT_VENDOR, help="folder of the copies and VENDORED.json"
    )
    parser.add_argument("--project", required=True, help="folder name under --vendor-dir")
    parser.add_argument("--repository", required=True, help="the upstream repository's URL, as recorded")
    parser.add_argument("--git-dir", required=True, help="a clone's git directory holding --commit")
    parser.add_argument("--commit", required=True, help="commit, tag or branch; recorded as the full commit id")
    parser.add_argument("--package", help="the top-level Python package whose modules are followed")
    parser.add_argument("--source-root", default="", help="folder of the package in the repository (src)")
    parser.add_argument("--module", action="append", default=[], help="a module whose import closure is copied")
    parser.add_argument("--file", action="append", default=[], help="a repository file or folder copied as it is")
    parser.add_argument("--license", required=True, help="the license file's path in the repository")
    args = parser.parse_args()

    commit = git(args.git_dir, "rev-parse", f"{args.commit}^{{commit}}").decode().strip()
    blobs = tree_blobs(args.git_dir, commit)
    paths = {args.license}
    for path in args.file:  # a file, or a folder: every file under it
        inside = [blob_path for blob_path in blobs if blob_path.startswith(path.rstrip("/") + "/")]
        paths |= set(inside) if path not in blobs and inside else {path}
    if args.module:
        if not args.package:
            parser.error("--module needs --package")
        paths |= import_closure(args.git_dir, commit, blobs, args.package, args.source_root, args.module)
    missing = sorted(path for path in paths if path not in blobs)
    if missing:
        print(f"not in {commit}: {', '.join(missing)}", file=sys.stderr)
        return 1

    vendor = args.vendor_dir.resolve()
    index_file = vendor / "VENDORED.json"
    target = vendor / args.project
    for path in sorted(paths):
        destination = target / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(git(args.git_dir, "cat-file", "blob", blobs[path]))

    index = json.loads(index_file.read_text(encoding="utf-8")) if index_file.is_file() else {"projects": []}
    entry = {
        "project": args.project,
        "repository": args.repository,
        "commit": commit,
        "ref": args.commit if args.commit != commit else None,
        "license": args.license,
        "files": [{"path": path, "blob": blobs[path]} for path in sorted(paths)],
    }
    projects = [project for project in index["projects"] if project["project"] != args.project] + [entry]
    index["projects"] = sorted(projects, key=lambda project: project["project"])
    index_file.write_text(json.dumps(index, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{args.project}: {len(paths)} files at {commit} -> {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
