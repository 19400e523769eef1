// Each level's measured strength, shown beside the level on the play page. The figures
// are docs/difficulty.md's ladder (scripts/ladder.py: each level against the one below
// it, chained from level 0): chess on Stockfish's UCI_Elo scale, the other variants in
// Elo above level 0 of the same variant. Three-check's ladder is not measured yet.
// test/node.test.mjs checks these numbers against the table in docs/difficulty.md.

/** Per variant, the measured Elo of levels 0..20 (chess: UCI_Elo scale; else above level 0). */
export const LADDER = {
  chess: [911, 985, 1026, 1087, 1106, 1150, 1185, 1201, 1206, 1209, 1241, 1293, 1358, 1393, 1461, 1510, 1569, 1656, 1748, 1863, 2063],
  atomic: [0, 280, 376, 405, 376, 427, 413, 525, 654, 782, 879, 915, 1012, 1193, 1266, 1340, 1460, 1581, 1771, 1962, 2163],
  kingofthehill: [0, 201, 355, 428, 406, 450, 524, 582, 626, 771, 908, 974, 1111, 1231, 1422, 1535, 1689, 1740, 1961, 2090, 2244],
  minesweeper: [0, 147, 316, 386, 421, 350, 498, 738, 686, 703, 721, 738, 885, 1126, 1179, 1393, 1393, 1541, 1611, 1780, 1970],
};

/** The level select's text for `level` (0..20) in `variant`. */
export function levelLabel(variant, level) {
  const elo = LADDER[variant]?.[level];
  const name = level === 20 ? '20 (full strength)' : String(level);
  if (elo === undefined) return name;
  return variant === 'chess' ? `${name}, about ${elo} Elo` : `${name}, +${elo} over level 0`;
}
