#!/usr/bin/env python3
"""Writes Sapper's hand-set starting evaluation parameters to nets/<variant>-<hash>.eval.

These are the v1 values: simple formulas (pawn advancement, centralisation, a castled
king), not tuned. Later versions come from the tuner; nets/README.md records each file.
The hash in the file name is FNV-1a (32 bits) of the file's text, checked when loaded.
"""

from pathlib import Path

ROLES = ["pawn", "knight", "bishop", "rook", "queen", "king"]


def fnv1a(text: str) -> str:
    h = 0x811C9DC5
    for b in text.encode():
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def centre_distance(f: int, r: int) -> int:
    """0 on d4-e5, 3 on the rim."""
    return int(max(abs(f - 3.5), abs(r - 3.5)) - 0.5)


def table(fn) -> list[int]:
    """A 64-entry table in file order: rank 8 first, a-file first."""
    return [round(fn(f, r)) for r in range(7, -1, -1) for f in range(8)]


def pawn_mg(f, r):
    adv = [0, 0, 5, 10, 20, 35, 60, 0][r]
    centre = {3: 10, 4: 10, 2: 5, 5: 5}.get(f, 0) if r in (3, 4) else 0
    return adv + centre


def pawn_eg(f, r):
    return [0, 0, 10, 20, 35, 60, 100, 0][r]


def king_mg(f, r):
    if r == 0:
        return [20, 30, 10, 0, 0, 10, 30, 20][f]
    if r == 1:
        return [5, 5, -5, -10, -10, -5, 5, 5][f]
    return max(-50, -15 * (r - 1))


PST = {
    "pawn": (pawn_mg, pawn_eg),
    "knight": (lambda f, r: 15 - 10 * centre_distance(f, r), lambda f, r: 10 - 8 * centre_distance(f, r)),
    "bishop": (lambda f, r: 10 - 5 * centre_distance(f, r), lambda f, r: 5 - 5 * centre_distance(f, r)),
    "rook": (lambda f, r: (15 if r == 6 else 0) + (5 if f in (3, 4) else 0), lambda f, r: 10 if r == 6 else 0),
    "queen": (lambda f, r: 5 - 3 * centre_distance(f, r), lambda f, r: 10 - 5 * centre_distance(f, r)),
    "king": (king_mg, lambda f, r: 25 - 15 * centre_distance(f, r)),
}

MATERIAL = {
    "chess": ([100, 320, 330, 480, 950, 0], [120, 300, 320, 520, 950, 0]),
    # Atomic: pieces die in blasts that pawns survive, so pieces are worth less.
    "atomic": ([100, 220, 240, 370, 700, 0], [130, 200, 220, 420, 750, 0]),
    "kingofthehill": ([100, 320, 330, 480, 950, 0], [120, 300, 320, 520, 950, 0]),
    "minesweeper": ([100, 320, 330, 480, 950, 0], [120, 300, 320, 520, 950, 0]),
}

NO_HILL = {"hill_distance_mg": [0] * 8, "hill_distance_eg": [0] * 8}
VARIANT_TERMS = {
    "chess": {"atomic_blast_threat": [0, 0], **NO_HILL, "mine_risk": [0, 0]},
    "atomic": {"atomic_blast_threat": [80, 80], **NO_HILL, "mine_risk": [0, 0]},
    "kingofthehill": {
        "atomic_blast_threat": [0, 0],
        "hill_distance_mg": [0, 60, 30, 15, 5, 0, 0, 0],
        "hill_distance_eg": [0, 200, 120, 70, 35, 15, 5, 0],
        "mine_risk": [0, 0],
    },
    # Minesweeper: chess values on a board squeezed from 10 ranks onto 8, plus half
    # the expected loss of pieces that must still cross the fog.
    "minesweeper": {"atomic_blast_threat": [0, 0], **NO_HILL, "mine_risk": [50, 50]},
}


def render(variant: str) -> str:
    lines = [f"sapper-eval 1 {variant}", "# v1: hand-set by scripts/initial_eval_params.py (not tuned)"]

    def put(name, values, width):
        lines.append(name)
        for i in range(0, len(values), width):
            lines.append("  " + " ".join(f"{v:5}" for v in values[i : i + width]))

    mg, eg = MATERIAL[variant]
    put("material_mg", mg, 6)
    put("material_eg", eg, 6)
    for role in ROLES:
        fmg, feg = PST[role]
        put(f"pst_{role}_mg", table(fmg), 8)
        put(f"pst_{role}_eg", table(feg), 8)
    put("bishop_pair", [30, 50], 2)
    put("tempo", [10], 1)
    for name, values in VARIANT_TERMS[variant].items():
        put(name, values, 8)
    return "\n".join(lines) + "\n"


def main() -> None:
    nets = Path(__file__).resolve().parent.parent / "nets"
    nets.mkdir(exist_ok=True)
    for variant in MATERIAL:
        text = render(variant)
        path = nets / f"{variant}-{fnv1a(text)}.eval"
        path.write_text(text)
        print(path.name)


if __name__ == "__main__":
    main()
