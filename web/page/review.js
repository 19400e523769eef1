// The review's pictures on the play page: White's winning chances as lichess
// computes them (the engine crate's review/lichess.rs) and the evaluation graph, as
// `sapper review --svg` draws it (review/graph.rs), here clickable.

/** lichess's slope of winning chances per centipawn (review/lichess.rs). */
const SLOPE = 0.00368208;

/** White's winning chances in [-1, 1] of a score {cp} or {mate} (a mate counts as 1000 cp). */
export function winningChances(score) {
  const cp = score.mate !== undefined ? (score.mate > 0 ? 1000 : -1000) : Math.max(-1000, Math.min(1000, score.cp));
  return 2 / (1 + Math.exp(-SLOPE * cp)) - 1;
}

const COLOURS = { inaccuracy: '#56b4e9', mistake: '#e69f00', blunder: '#db3031' };
const W = 640;
const H = 160;
const LEFT = 8;
const TOP = 8;
const BOTTOM = 8;

/**
 * The graph of `review` (engine.d.ts `Review`) as SVG text: White's winning chances
 * after each move (White's area light, Black's dark), the marked moves as dots in
 * lichess's colours, the position shown (`view`, a ply) as a vertical line. The
 * <svg> carries data-left and data-plot-width, so a click maps to a ply.
 */
export function reviewGraph(review, view) {
  const n = Math.max(1, review.positions.length - 1);
  const width = W + 2 * LEFT;
  const height = H + TOP + BOTTOM;
  const x = (i) => LEFT + (W * i) / n;
  const y = (c) => TOP + (H * (1 - c)) / 2;
  const pts = review.positions.map((p, i) => [x(i), y(p.chances)]);
  const area = [`${LEFT},${TOP + H}`, ...pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`), `${x(n).toFixed(1)},${TOP + H}`].join(' ');
  let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" data-left="${LEFT}" data-plot-width="${W}" role="img" aria-label="Evaluation graph: White's winning chances after each move">`;
  s += `<rect x="${LEFT}" y="${TOP}" width="${W}" height="${H}" fill="#404040"/>`;
  s += `<polygon class="white-area" points="${area}" fill="#f0f0f0"/>`;
  s += `<line x1="${LEFT}" x2="${LEFT + W}" y1="${y(0)}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 3"/>`;
  s += `<polyline points="${pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ')}" fill="none" stroke="#d85000" stroke-width="1.5"/>`;
  if (view !== null && view !== undefined) {
    s += `<line class="cursor" x1="${x(view)}" x2="${x(view)}" y1="${TOP}" y2="${TOP + H}" stroke="#2060c0" stroke-width="2"/>`;
  }
  for (const m of review.moves) {
    if (!m.judgement) continue;
    const [cx, cy] = pts[m.ply + 1];
    s += `<circle class="dot ${m.judgement}" data-ply="${m.ply + 1}" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="5" fill="${COLOURS[m.judgement]}" stroke="#fff" stroke-width="1.5"><title>${m.number} ${m.san}: ${m.advice}</title></circle>`;
  }
  s += '</svg>';
  return s;
}
