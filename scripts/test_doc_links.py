"""The documentation's references resolve: every relative Markdown link (and image) in
the repository's .md files names an existing file, its #fragment (if any) a heading of
that file, and every repository path written as code (`crates/engine/src/uci/mod.rs`)
exists. Run with ``python3 -m pytest scripts/``."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Inline links and images: [text](target) or ![alt](target "title").
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: Paths written as code that start at the repository's root.
_CODE_PATH = re.compile(r"`((?:crates|docs|scripts|web|nets|engine-tests|fuzz)/[^`\s]*)`")
#: Build outputs and other paths a checkout does not hold.
_GENERATED = ("web/dist/", "web/node_modules/", "target/")


def markdown_files() -> list[Path]:
    """The tracked and untracked-but-not-ignored .md files (no target/, node_modules/)."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
        files = [ROOT / line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in ROOT.rglob("*.md") if not {"target", "node_modules", ".git"} & set(p.parts)]
    return sorted(p for p in files if p.exists())


def without_code_blocks(text: str) -> str:
    """The text with fenced and indented code blocks blanked (their lines kept, so line
    numbers stay right): links are not links there."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        elif fenced or line.startswith("    ") or line.startswith("\t"):
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*?)\s*#*$", path.read_text(), re.M)}


def links(path: Path) -> list[tuple[int, str]]:
    """(line, target) of each relative link in `path`."""
    found = []
    for number, line in enumerate(without_code_blocks(path.read_text()).splitlines(), 1):
        for m in _LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            found.append((number, target))
    return found


def shown(path: Path) -> str:
    """`path` relative to the repository when it is inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def broken_links(path: Path) -> list[str]:
    problems = []
    for number, target in links(path):
        file_part, _, fragment = target.partition("#")
        dest = path if not file_part else (path.parent / file_part).resolve()
        where = f"{shown(path)}:{number}: {target}"
        if not dest.exists():
            problems.append(f"{where} (no such file)")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            problems.append(f"{where} (no heading #{fragment})")
    return problems


def missing_code_paths(path: Path) -> list[str]:
    problems = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        for m in _CODE_PATH.finditer(line):
            ref = m.group(1).rstrip(".,:;)")
            if any(c in ref for c in "<>*{}$") or ref.startswith(_GENERATED) or "..." in ref:
                continue  # a pattern (nets/<variant>-<hash>.eval), not a path
            if not (ROOT / ref).exists():
                problems.append(f"{shown(path)}:{number}: `{ref}`")
    return problems


FILES = markdown_files()


def test_markdown_files_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert {"README.md", "CHANGELOG.md", "docs/rules.md", "web/README.md"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(path: Path) -> None:
    assert broken_links(path) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_repository_paths_in_code_exist(path: Path) -> None:
    assert missing_code_paths(path) == []


def test_the_checks_catch_what_they_should(tmp_path: Path) -> None:
    assert slug("The `go` command, in full") == "the-go-command-in-full"
    text = "See [a](a.md) and ![b](img/b.svg), [web](https://example.org).\n\n    [code](no.md)\n"
    assert without_code_blocks(text).count("no.md") == 0
    page = tmp_path / "page.md"
    page.write_text(text)
    assert [t for _, t in links(page)] == ["a.md", "img/b.svg"]
    assert len(broken_links(page)) == 2
    (tmp_path / "a.md").write_text("# A heading\n")
    (tmp_path / "img").mkdir()
    (tmp_path / "img/b.svg").write_text("<svg/>")
    assert broken_links(page) == []
    page.write_text("[ok](a.md#a-heading) [bad](a.md#nowhere) `crates/no/such.rs` `nets/<v>.eval`\n")
    assert [p.split(": ")[1] for p in broken_links(page)] == ["a.md#nowhere (no heading #nowhere)"]
    assert len(missing_code_paths(page)) == 1
