#!/usr/bin/env python3
"""The import graph of Sapper's crates and their top-level modules.

Reads every `.rs` file under `crates/*/src`, and records an edge from a module to
each module it names by path (`use crate::eval::...`, `sapper_rules::position::...`,
`super::` is the module itself). A module is a crate's top-level module
(`sapper_engine::search`, all of `search/` included). Prints the graph as Graphviz
DOT (`--dot`), one cluster per crate, or checks it (`--check`): exit status 1 when
the graph has a circle, naming the modules on it.

    python3 scripts/module_graph.py --dot | tred | dot -Tsvg > docs/img/modules.svg

(`tred`, Graphviz's transitive reduction, drops the arrows another path implies.)
    python3 scripts/module_graph.py --check

The crates' own dependencies already forbid a lower crate from importing a higher
one (cargo refuses it); the check keeps the modules inside each crate layered too:
rules below evaluation below search below the front ends. One circle is allowed,
[`CORE`]: the rules' core, where `Position<V: Variant>` is generic over the rule set
and the rule set's hooks take a `Position<Self>` (movegen is `impl Position`).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = {"rules": "sapper_rules", "engine": "sapper_engine", "tools": "sapper_tools"}
PATH = re.compile(r"\b(crate|sapper_rules|sapper_engine|sapper_tools)::(?:\{\s*)?([a-z_][a-z0-9_]*)")
# Comments and string literals name paths without importing them.
COMMENT = re.compile(r"//.*$", re.MULTILINE)
# The one circle allowed (see the module documentation).
CORE = ["rules::movegen", "rules::position", "rules::variant"]
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def modules(crate_dir: Path) -> dict[str, list[Path]]:
    """Top-level module name -> its files (the crate root under its crate's name)."""
    src = crate_dir / "src"
    out: dict[str, list[Path]] = {}
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src)
        name = rel.parts[0].removesuffix(".rs")
        if name in ("lib", "main"):
            continue
        out.setdefault(name, []).append(path)
    return out


def strip_tests(text: str) -> str:
    """The text before a file's `#[cfg(test)]` module: tests may import anything."""
    cut = text.find("#[cfg(test)]")
    return text if cut < 0 else text[:cut]


def graph(root: Path = ROOT) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """(node -> crate, edges) with nodes written `crate::module`."""
    nodes: dict[str, str] = {}
    edges: set[tuple[str, str]] = set()
    crate_modules = {c: modules(root / "crates" / c) for c in CRATES}
    for crate, mods in crate_modules.items():
        for mod in mods:
            nodes[f"{crate}::{mod}"] = crate
    by_name = {v: k for k, v in CRATES.items()}
    for crate, mods in crate_modules.items():
        for mod, files in mods.items():
            here = f"{crate}::{mod}"
            for path in files:
                text = STRING.sub('""', COMMENT.sub("", strip_tests(path.read_text())))
                for root_name, target in PATH.findall(text):
                    target_crate = crate if root_name == "crate" else by_name[root_name]
                    node = f"{target_crate}::{target}"
                    if node in nodes and node != here:
                        edges.add((here, node))
    return nodes, edges


def cycles(nodes: dict[str, str], edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        succ[a].append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def forbidden_cycles(root: Path = ROOT) -> list[list[str]]:
    """The import circles of the tree at `root` other than the rules' [`CORE`]."""
    nodes, edges = graph(root)
    return [c for c in cycles(nodes, edges) if c != CORE]


def dot(nodes: dict[str, str], edges: set[tuple[str, str]]) -> str:
    """Graphviz text: a cluster per crate, bottom (rules) to top (tools)."""
    lines = [
        "digraph sapper {",
        '  rankdir=BT; newrank=true; ranksep=0.45; node [shape=box, fontname="DejaVu Sans", fontsize=11];',
        '  edge [color="#777777", arrowsize=0.6];',
        '  label="Sapper: crates and their top-level modules; an arrow points to what a module imports";',
        '  fontname="DejaVu Sans";',
    ]
    colours = {"rules": "#e8f0fe", "engine": "#e6f4ea", "tools": "#fef7e0"}
    for crate, name in CRATES.items():
        lines.append(f'  subgraph cluster_{crate} {{ label="{name.replace("_", "-")}"; style=filled; color="{colours[crate]}";')
        for n in sorted(k for k, c in nodes.items() if c == crate):
            lines.append(f'    "{n}" [label="{n.split("::")[1]}"];')
        lines.append("  }")
    for a, b in sorted(edges):
        lines.append(f'  "{a}" -> "{b}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dot", action="store_true", help="print the graph as Graphviz DOT")
    parser.add_argument("--check", action="store_true", help="exit 1 if the graph has a circle")
    args = parser.parse_args()
    nodes, edges = graph()
    if args.dot:
        sys.stdout.write(dot(nodes, edges))
    if args.check or not args.dot:
        found = forbidden_cycles()
        for comp in found:
            print("import circle: " + " <-> ".join(comp), file=sys.stderr)
        if not found:
            print(f"{len(nodes)} modules, {len(edges)} imports, no circle")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
