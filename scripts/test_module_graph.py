"""The layers of the workspace have no import circle (scripts/module_graph.py)."""

from __future__ import annotations

from pathlib import Path

import module_graph


def test_the_tree_has_no_import_circle_but_the_rules_core() -> None:
    assert module_graph.forbidden_cycles() == []


def test_a_circle_is_found(tmp_path: Path) -> None:
    src = tmp_path / "crates" / "engine" / "src"
    (src / "search").mkdir(parents=True)
    (src / "eval.rs").write_text("use crate::search::Searcher;\n")
    (src / "search" / "mod.rs").write_text("use crate::eval::evaluate;\n")
    for crate in ("rules", "tools"):
        (tmp_path / "crates" / crate / "src").mkdir(parents=True)
    assert module_graph.forbidden_cycles(tmp_path) == [["engine::eval", "engine::search"]]


def test_imports_in_tests_and_comments_do_not_count(tmp_path: Path) -> None:
    src = tmp_path / "crates" / "engine" / "src"
    src.mkdir(parents=True)
    (src / "eval.rs").write_text("// crate::search::x\n#[cfg(test)]\nmod tests { use crate::search::y; }\n")
    (src / "search.rs").write_text("use crate::eval::evaluate;\n")
    for crate in ("rules", "tools"):
        (tmp_path / "crates" / crate / "src").mkdir(parents=True)
    assert module_graph.forbidden_cycles(tmp_path) == []
