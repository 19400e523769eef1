#!/usr/bin/env python3
"""Writes Sapper's hand-set starting evaluation parameters to nets/<variant>-<hash>.eval.

These are the hand-set starting values of format 2 (the linear evaluation of issue 5):
simple formulas (pawn advancement, centralisation, a castled king) and rough values
for the other terms, not tuned. Later versions come from the tuner; nets/README.md records each file.
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

def mobility(center, mg_step, eg_step, n):
    return ([mg_step * (i - center) for i in range(n)], [eg_step * (i - center) for i in range(n)])


# Terms every variant has (format 2 blocks after the piece-square tables), (mg, eg).
COMMON = {
    "bishop_pair": ([30], [50]),
    "tempo": ([10], [10]),
    "pawn_doubled": ([-10], [-20]),
    "pawn_isolated": ([-10], [-10]),
    "pawn_supported": ([5], [5]),
    "pawn_passed": ([0, 0, 0, 5, 15, 30, 50, 0], [0, 5, 10, 20, 35, 60, 90, 0]),
    "mobility_knight": mobility(4, 4, 4, 9),
    "mobility_bishop": mobility(6, 4, 5, 14),
    "mobility_rook": mobility(7, 2, 4, 15),
    "mobility_queen": mobility(13, 1, 2, 28),
    "king_shield": ([10, 5], [0, 0]),
    "king_danger": ([-round(1.5 * b * b) for b in range(16)], [-2 * b for b in range(16)]),
    "rook_file": ([10, 20], [5, 10]),
    "threats": ([30, 25], [20, 15]),
}

ZERO_VARIANT_TERMS = {
    "atomic_king_blast": 2,
    "atomic_blast_gain": 16,
    "atomic_king_neighbours": 5,
    "atomic_kings_touch": 1,
    "hill_distance": 8,
    "hill_race": 9,
    "hill_control": 1,
    "hill_blockers": 2,
    "hill_safe": 1,
    "mine_risk": 4,
}

VARIANT_TERMS = {
    "chess": {},
    "atomic": {
        # [side to move, other side]
        "atomic_king_blast": ([150, 80], [150, 80]),
        # best blast's net value in buckets of 100 cp: side to move, then the other
        "atomic_blast_gain": (
            [20, 40, 80, 120, 160, 200, 240, 280] + [10, 20, 30, 40, 50, 60, 70, 80],
            [20, 40, 80, 120, 160, 200, 240, 280] + [10, 20, 30, 40, 50, 60, 70, 80],
        ),
        "atomic_king_neighbours": ([-10] * 5, [-10] * 5),
        "atomic_kings_touch": ([30], [30]),
    },
    "kingofthehill": {
        # per hill square, by weighted steps (format 3): steep, as one safe step from
        # the hill is nearly a win
        "hill_distance": ([0, 400, 150, 60, 25, 10, 0, 0], [0, 450, 180, 70, 30, 12, 0, 0]),
        "hill_race": ([-60, -40, -20, -10, 0, 10, 20, 40, 60], [-120, -80, -40, -20, 0, 20, 40, 80, 120]),
        "hill_control": ([5], [10]),
        "hill_blockers": ([-10, -5], [-20, -10]),
        "hill_safe": ([20], [20]),
    },
    # Minesweeper: chess values on a board squeezed from 10 ranks onto 8, plus about
    # half the expected loss (value x density) of pieces that must still cross the fog.
    "minesweeper": {"mine_risk": ([-2, -2, -2, -5], [-2, -2, -3, -5])},
}


def render(variant: str) -> str:
    lines = [f"sapper-eval 3 {variant}", "# v2 initial: hand-set by scripts/initial_eval_params.py (not tuned)"]

    def put(name, values, width):
        lines.append(name)
        for i in range(0, len(values), width):
            lines.append("  " + " ".join(f"{v:5}" for v in values[i : i + width]))

    def block(name, mg, eg, width=10):
        put(f"{name}_mg", mg, width)
        put(f"{name}_eg", eg, width)

    mg, eg = MATERIAL[variant]
    block("material", mg, eg)
    for role in ROLES:
        fmg, feg = PST[role]
        block(f"pst_{role}", table(fmg), table(feg), 8)
    for name, (bmg, beg) in COMMON.items():
        block(name, bmg, beg)
    for name, n in ZERO_VARIANT_TERMS.items():
        bmg, beg = VARIANT_TERMS[variant].get(name, ([0] * n, [0] * n))
        assert len(bmg) == n and len(beg) == n, name
        block(name, bmg, beg)
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
