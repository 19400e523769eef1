//! Exact mine inference (docs/rules.md minesweeper 15): how many mine layouts agree with
//! what both players see, and in how many of them each fogged square holds a mine.
//!
//! Only fogged squares next to a revealed number (the *frontier*) are constrained;
//! the rest (the *free* squares) are interchangeable. So the frontier is enumerated
//! by backtracking with constraint pruning, and each frontier assignment with `m`
//! mines stands for `C(free, k - m)` layouts, `k` being the undiscovered mines. This
//! is the standard decomposition of minesweeper probability solvers; with at most 4
//! mines the enumeration stays small (at most 35,960 leaves).

use super::{ZONE_NEIGHBOURS, ZONE_SIZE};

/// What both players see of the minefield, as fog-zone masks (bit `i` is fog-zone
/// square `i`: a4 = 0, h4 = 7, a5 = 8, ... h7 = 31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicField {
    /// Fogged squares not swept: where undiscovered mines may be.
    pub unknown: u32,
    /// Revealed mines.
    pub discovered: u32,
    /// Revealed squares showing a number.
    pub revealed: u32,
    /// The number shown on each revealed square.
    pub numbers: [u8; ZONE_SIZE],
    /// Mines on the board (the counter).
    pub counter: u8,
}

/// The result of inference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inference {
    /// Number of consistent layouts of the undiscovered mines; 0 when the public
    /// information is contradictory.
    pub layouts: u64,
    /// For each fog-zone square, the number of consistent layouts with a mine on it
    /// (discovered mines count in every layout).
    pub mine_layouts: [u64; ZONE_SIZE],
}

impl Inference {
    /// The probability that fog-zone square `i` holds a mine (1 for a discovered
    /// mine, 0 for revealed and swept squares); 0 when no layout is consistent.
    pub fn probability(&self, i: usize) -> f64 {
        if self.layouts == 0 {
            0.0
        } else {
            self.mine_layouts[i] as f64 / self.layouts as f64
        }
    }

    /// Squares that hold a mine in at least one consistent layout.
    pub fn possible(&self) -> u32 {
        (0..ZONE_SIZE)
            .filter(|&i| self.mine_layouts[i] > 0)
            .fold(0, |m, i| m | 1 << i)
    }
}

/// `C(n, r)` for `n <= 32`.
pub fn binomial(n: u32, r: u32) -> u64 {
    if r > n {
        return 0;
    }
    let r = r.min(n - r);
    (0..r).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

struct Constraint {
    need: i32,
    open: i32,
}

struct Solver<'a> {
    order: Vec<usize>,
    /// For each position in `order`, the constraints its square takes part in.
    members: Vec<Vec<usize>>,
    constraints: Vec<Constraint>,
    mines_left: u32,
    free: u32,
    on_leaf: &'a mut dyn FnMut(u32, u32),
}

impl Solver<'_> {
    fn run(&mut self, idx: usize, assignment: u32, used: u32) {
        if idx == self.order.len() {
            // Pruning kept every need within [0, open]; with open = 0 all are met.
            let rest = self.mines_left - used;
            if rest <= self.free.count_ones() {
                (self.on_leaf)(assignment, rest);
            }
            return;
        }
        let square = self.order[idx];
        // No mine on `square`.
        let mut ok = true;
        for &c in &self.members[idx] {
            let con = &mut self.constraints[c];
            con.open -= 1;
            ok &= con.need <= con.open;
        }
        if ok {
            self.run(idx + 1, assignment, used);
        }
        for &c in &self.members[idx] {
            self.constraints[c].open += 1;
        }
        // A mine on `square`.
        if used < self.mines_left {
            let mut ok = true;
            for &c in &self.members[idx] {
                let con = &mut self.constraints[c];
                con.open -= 1;
                con.need -= 1;
                ok &= con.need >= 0;
            }
            if ok {
                self.run(idx + 1, assignment | 1 << square, used + 1);
            }
            for &c in &self.members[idx] {
                let con = &mut self.constraints[c];
                con.open += 1;
                con.need += 1;
            }
        }
    }
}

/// Runs the frontier enumeration and calls `on_leaf(frontier_mines, rest)` for each
/// consistent frontier assignment, `rest` being the mines left for the free squares
/// (never more than there are). `None` when the numbers contradict themselves.
fn solve(field: &PublicField, on_leaf: &mut dyn FnMut(u32, u32)) -> Option<()> {
    let discovered = field.discovered.count_ones();
    let mines_left = (field.counter as u32).checked_sub(discovered)?;
    let mut constraints = Vec::new();
    let mut masks = Vec::new();
    let mut frontier = 0u32;
    let mut revealed = field.revealed;
    while revealed != 0 {
        let i = revealed.trailing_zeros() as usize;
        revealed &= revealed - 1;
        let need = field.numbers[i] as i32 - (ZONE_NEIGHBOURS[i] & field.discovered).count_ones() as i32;
        let mask = ZONE_NEIGHBOURS[i] & field.unknown;
        let open = mask.count_ones() as i32;
        if need < 0 || need > open {
            return None;
        }
        if mask != 0 {
            constraints.push(Constraint { need, open });
            masks.push(mask);
            frontier |= mask;
        }
    }
    // Order the frontier constraint by constraint, so each closes early.
    let mut order = Vec::with_capacity(frontier.count_ones() as usize);
    let mut placed = 0u32;
    for &mask in &masks {
        let mut m = mask & !placed;
        placed |= mask;
        while m != 0 {
            order.push(m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
    let members = order
        .iter()
        .map(|&sq| (0..masks.len()).filter(|&c| masks[c] & (1 << sq) != 0).collect())
        .collect();
    let free = field.unknown & !frontier;
    let mut solver = Solver {
        order,
        members,
        constraints,
        mines_left,
        free,
        on_leaf,
    };
    solver.run(0, 0, 0);
    Some(())
}

/// Fogged unswept squares next to no revealed number: unconstrained but by the count.
fn free_squares(field: &PublicField) -> u32 {
    let mut frontier = 0u32;
    let mut revealed = field.revealed;
    while revealed != 0 {
        frontier |= ZONE_NEIGHBOURS[revealed.trailing_zeros() as usize];
        revealed &= revealed - 1;
    }
    field.unknown & !frontier
}

/// Counts the consistent layouts and, per square, those with a mine there.
pub fn infer(field: &PublicField) -> Inference {
    let mut result = Inference {
        layouts: 0,
        mine_layouts: [0; ZONE_SIZE],
    };
    let free = free_squares(field);
    let free_count = free.count_ones();
    let mut per_free_square = 0u64;
    let mut frontier_counts = [0u64; ZONE_SIZE];
    let mut layouts = 0u64;
    let consistent = solve(field, &mut |assignment, rest| {
        let ways = binomial(free_count, rest);
        layouts += ways;
        let mut m = assignment;
        while m != 0 {
            frontier_counts[m.trailing_zeros() as usize] += ways;
            m &= m - 1;
        }
        if rest >= 1 {
            per_free_square += binomial(free_count - 1, rest - 1);
        }
    });
    if consistent.is_none() {
        return result;
    }
    result.layouts = layouts;
    for (i, count) in result.mine_layouts.iter_mut().enumerate() {
        let bit = 1u32 << i;
        *count = if field.discovered & bit != 0 {
            layouts
        } else if free & bit != 0 {
            per_free_square
        } else {
            frontier_counts[i]
        };
    }
    result
}

/// The layouts in factored form: the consistent frontier assignments, each as
/// `(frontier mines, mines left for the free squares)`, and the free squares (any
/// `rest`-subset of them completes an assignment to a layout). Empty when the
/// public information is contradictory.
pub fn factored_layouts(field: &PublicField) -> (Vec<(u32, u32)>, u32) {
    let mut leaves = Vec::new();
    if solve(field, &mut |assignment, rest| leaves.push((assignment, rest))).is_none() {
        leaves.clear();
    }
    (leaves, free_squares(field))
}

/// Every consistent layout of the undiscovered mines, as masks (at most 35,960).
pub fn layouts(field: &PublicField) -> Vec<u32> {
    let free = free_squares(field);
    let free_list: Vec<usize> = (0..ZONE_SIZE).filter(|i| free & (1 << i) != 0).collect();
    let mut out = Vec::new();
    let mut frontier_leaves: Vec<(u32, u32)> = Vec::new();
    if solve(field, &mut |assignment, rest| {
        frontier_leaves.push((assignment, rest))
    })
    .is_none()
    {
        return out;
    }
    for (assignment, rest) in frontier_leaves {
        for_each_combination(&free_list, rest as usize, &mut |combo| {
            out.push(assignment | combo)
        });
    }
    out
}

/// Calls `f` with the mask of every `r`-subset of `squares`.
fn for_each_combination(squares: &[usize], r: usize, f: &mut dyn FnMut(u32)) {
    fn go(squares: &[usize], start: usize, r: usize, acc: u32, f: &mut dyn FnMut(u32)) {
        if r == 0 {
            f(acc);
            return;
        }
        for i in start..squares.len() {
            if squares.len() - i < r {
                break;
            }
            go(squares, i + 1, r - 1, acc | 1 << squares[i], f);
        }
    }
    go(squares, 0, r, 0, f);
}
