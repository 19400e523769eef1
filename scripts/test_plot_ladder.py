"""Unit tests for scripts/plot_ladder.py's pure parts (table parsing, sums, series) and one
drawing of a small ladder; run with ``python3 -m pytest scripts/``."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ladder
import plot_ladder

ROOT = Path(__file__).resolve().parent.parent


def small_readme(steps: dict[int, str], chess_elo: dict[int, str] | None = None) -> str:
    """A page with a ladder table for chess and atomic, levels 0..20; `steps` gives
    some levels' step cells (others "+10 +/- 20")."""
    lines = ["Text before. level 8 vs `UCI_Elo` 1350: -168 +/- 193 (W-D-L 5-1-14); level 14",
             "vs 1700: -241 +/- 275 (4-0-16). A line (Elo = 900 + 0.500 x ladder Elo).", "",
             "| level | nodes/move | chess step | chess Elo | atomic step | atomic Elo |",
             "|---|---|---|---|---|---|"]
    for lv in range(21):
        step = "" if lv == 0 else steps.get(lv, "+10 +/- 20")
        elo = (chess_elo or {}).get(lv, "")
        lines.append(f"| {lv} | 50 | {step} | {elo} | {step} | {lv * 10} +/- 0 |")
    lines += ["", "After the table."]
    return "\n".join(lines)


def test_values_parse_and_bad_cells_are_refused() -> None:
    assert plot_ladder.parse_value("+161 +/- 85") == (161.0, 85.0)
    assert plot_ladder.parse_value("-29 +/- 99") == (-29.0, 99.0)
    assert plot_ladder.parse_value(" ") is None
    with pytest.raises(ValueError):
        plot_ladder.parse_value("161")


def test_cumulative_elo_adds_steps_and_variances_and_stops_at_a_gap() -> None:
    out = plot_ladder.cumulate([(100.0, 30.0), (-20.0, 40.0), None, (50.0, 10.0)])
    assert out[0] == (100.0, 30.0)
    assert out[1] == (80.0, pytest.approx(50.0))  # sqrt(30^2 + 40^2)
    assert out[2] is None and out[3] is None


def test_a_markdown_table_becomes_ladder_json() -> None:
    data = plot_ladder.from_readme(small_readme({3: "-40 +/- 60"}))
    assert set(data) == {"chess", "atomic"}
    rows = data["atomic"]["rows"]
    assert [r["level"] for r in rows] == list(range(21))
    assert rows[0]["step"] is None and rows[0]["elo"] == 0.0
    assert rows[3]["step"] == -40.0 and rows[3]["step_error"] == 60.0
    assert rows[3]["elo"] == pytest.approx(10 + 10 - 40)
    assert rows[3]["error"] == pytest.approx(math.sqrt(2 * 20**2 + 60**2))
    assert rows[5]["table_elo"] == 50.0 and all(r["wdl"] is None for r in rows)
    assert data["atomic"]["offset"] is None and data["atomic"]["anchors"] == []
    chess = data["chess"]
    assert (chess["offset"], chess["scale"]) == (900.0, 0.5)
    assert [(a["level"], a["stockfish_elo"], a["wdl"]) for a in chess["anchors"]] == \
        [(8, 1350, [5, 1, 14]), (14, 1700, [4, 0, 16])]
    assert "reconstructed" in chess["source"]


def test_a_table_missing_a_level_is_refused() -> None:
    text = "\n".join(line for line in small_readme({}).splitlines() if not line.startswith("| 7 |"))
    with pytest.raises(ValueError, match="levels"):
        plot_ladder.from_readme(text)


def test_the_committed_ladder_json_is_the_difficulty_table() -> None:
    # docs/data/ladder.json was rebuilt from docs/difficulty.md's table; the table's own Elo
    # column (chess: mapped through the fitted line) agrees with the cumulative steps
    # to within the table's rounding, and the anchors reproduce the fitted line.
    data = json.loads((ROOT / "docs/data/ladder.json").read_text())
    assert data == plot_ladder.from_readme((ROOT / "docs/difficulty.md").read_text()), \
        "docs/difficulty.md's ladder table changed: rerun plot_ladder.py --from-readme docs/difficulty.md --write-json ..."
    for variant, v in data.items():
        offset, scale = v["offset"] or 0.0, v["scale"]
        for r in v["rows"]:
            assert abs(offset + scale * r["elo"] - r["table_elo"]) <= 3, (variant, r)
            assert abs(scale * r["error"] - r["table_error"]) <= 2, (variant, r)
    offset, scale = ladder.fit_anchors(data["chess"]["rows"], data["chess"]["anchors"])
    assert (round(offset), round(scale, 2)) == (round(data["chess"]["offset"]), round(data["chess"]["scale"], 2))


def test_series_skip_open_levels_and_keep_variant_order() -> None:
    data = plot_ladder.from_readme(small_readme({}))
    data["atomic"]["rows"][5]["elo"] = None
    data["note"] = "not a ladder"
    lines = plot_ladder.series({"atomic": data["atomic"], "chess": data["chess"], "note": "x"})
    assert [s["variant"] for s in lines] == ["chess", "atomic"]
    assert 5 not in lines[1]["levels"] and len(lines[1]["levels"]) == 20
    assert lines[1]["step_levels"] == list(range(1, 21))
    with pytest.raises(ValueError):
        plot_ladder.series({"note": "x"})


def test_a_ladder_is_drawn_as_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "ladder.svg"
    plot_ladder.plot(plot_ladder.from_readme(small_readme({})), out)
    text = out.read_text()
    assert text.startswith("<?xml") and "<svg" in text
