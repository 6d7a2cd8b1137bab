"""docs/exporters.md's SFT table and the suite's ``families.SFT_RECIPES`` are one table: each family's row in
the docs names the same export, the same template TRL renders with, and the same loss switch that the
suite trains with (test_sft.py, test_sft_prompt_completion.py, test_mistral.py)."""

from __future__ import annotations

import re

from conftest import ROOT, trl_templates
from families import SFT_RECIPES

DOCS = (ROOT / "docs" / "exporters.md").read_text(encoding="utf-8")


def sft_table():
    section = DOCS.split("### Which export for which family: the SFT recipe", 1)[1]
    table = next(part for part in section.split("\n\n") if part.startswith("|"))
    rows = table.splitlines()[2:]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_every_recipe_is_one_docs_row_and_the_docs_nothing_else():
    rows = sft_table()
    seen = set()
    for template_name, recipe in SFT_RECIPES.items():
        stem = template_name.removesuffix(".jinja")
        if recipe["renders_with"] == "mistral-common":
            (row,) = [row for row in rows if f"(`{stem}`)" in row[0]]
            family, renders_with, export, config = row
            assert f"`{recipe['export']}`" in export.split(" (")[0], (template_name, export)
            assert config == "`completion_only_loss=True`", (template_name, config)
            assert "mistral-common" in renders_with and "no chat template" in renders_with
            seen.add(stem)
            continue
        (row,) = [row for row in rows if f"(`{stem}`)" in row[0]]
        family, renders_with, export, config = row
        assert f"`{recipe['export']}`" in export.split(" (")[0], (template_name, export)
        loss = "assistant_only_loss=True" if recipe["layout"] == "messages" else "completion_only_loss=True"
        assert config == f"`{loss}`", (template_name, config)
        if recipe["renders_with"] == template_name:
            assert "own" in renders_with
        else:
            training = recipe["renders_with"].removesuffix(".jinja")
            assert f"`{training}`" in renders_with or "its `*_training`" in renders_with, (template_name, renders_with)
        assert recipe["renders_with"] in trl_templates()
        seen.add(stem)
    documented = {stem for row in rows for stem in re.findall(r"\(`(\w+)`\)", row[0])}
    assert documented == seen, documented ^ seen
