//! The live progress line of `sapper analyze` on a terminal.
//!
//! Iterations of a deep search can be minutes apart. Between them a line is redrawn
//! in place (`\r`, no newline) with the depth being searched, the nodes, the speed
//! and the time; it is erased before the next finished line, so only finished lines
//! remain on the screen. The ticker only reads the search's shared node counter, so
//! the search itself is unchanged (same nodes, same moves). The caller decides
//! whether to draw at all: piped output must stay free of `\r` lines.

use crate::search::SearchShared;
use sapper_rules::moves::Move;
use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How often the progress line is redrawn.
pub const TICK: Duration = Duration::from_millis(250);

/// The analysis output, shared by the search thread (finished lines) and the ticker
/// (the progress line), so the two never write into each other's line.
pub struct Console<'w> {
    out: &'w mut (dyn Write + Send),
    /// Characters of the progress line now on the screen; 0 when none is.
    shown: usize,
}

impl<'w> Console<'w> {
    /// A console writing to `out`, with no progress line shown.
    pub fn new(out: &'w mut (dyn Write + Send)) -> Console<'w> {
        Console { out, shown: 0 }
    }

    /// Writes a finished line (the newline is added), erasing the progress line first.
    ///
    /// # Errors
    /// I/O errors of the output.
    pub fn line(&mut self, text: fmt::Arguments) -> io::Result<()> {
        self.erase()?;
        self.out.write_fmt(text)?;
        writeln!(self.out)
    }

    /// Shows `text` as the progress line in place of the previous one (padded with
    /// spaces over a longer previous text).
    ///
    /// # Errors
    /// I/O errors of the output.
    pub fn progress(&mut self, text: &str) -> io::Result<()> {
        write!(self.out, "\r{text:<width$}", width = self.shown)?;
        self.shown = self.shown.max(text.chars().count());
        self.out.flush()
    }

    /// Erases the progress line, if one is shown, leaving the cursor at the start of
    /// the line. Spaces rather than a terminal escape, which not every console reads.
    ///
    /// # Errors
    /// I/O errors of the output.
    pub fn erase(&mut self) -> io::Result<()> {
        if self.shown > 0 {
            write!(self.out, "\r{:width$}\r", "", width = self.shown)?;
            self.shown = 0;
            self.out.flush()?;
        }
        Ok(())
    }

    /// Erases the progress line and hands the output back.
    ///
    /// # Errors
    /// I/O errors of the output.
    pub fn finish(mut self) -> io::Result<&'w mut (dyn Write + Send)> {
        self.erase()?;
        Ok(self.out)
    }
}

/// The progress text: depth being searched, the root move being searched with its
/// number among the root's moves (UCI notation), nodes so far, nodes per second and
/// elapsed time, e.g. `... depth 9, move 3/20 g1f3: 1234567 nodes, 823 knps, 1.5s`.
pub fn progress_text(
    depth: i32,
    current: Option<(Move, usize)>,
    moves: usize,
    nodes: u64,
    elapsed: Duration,
) -> String {
    let knps = nodes as f64 / elapsed.as_secs_f64().max(1e-3) / 1000.0;
    let current = current.map_or(String::new(), |(m, n)| format!(", move {n}/{moves} {m}"));
    format!(
        "... depth {depth}{current}: {nodes} nodes, {knps:.0} knps, {:.1}s",
        elapsed.as_secs_f64()
    )
}

/// Redraws the progress line every [`TICK`] until `done` receives a message or its
/// sender is dropped (the search ended). `shared` is the search's shared state (node
/// counter, current root move), `moves` the number of root moves, `depth` the depth
/// being searched; `start` is when the search started.
pub fn tick(
    console: &Mutex<Console>,
    shared: &SearchShared,
    moves: usize,
    depth: &AtomicI32,
    start: Instant,
    done: Receiver<()>,
) {
    while let Err(RecvTimeoutError::Timeout) = done.recv_timeout(TICK) {
        let text = progress_text(
            depth.load(Ordering::Relaxed),
            shared.current_move(),
            moves,
            shared.nodes.load(Ordering::Relaxed),
            start.elapsed(),
        );
        let mut console = console.lock().unwrap_or_else(PoisonError::into_inner);
        // A terminal that went away is not worth stopping the analysis for.
        let _ = console.progress(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_is_erased_before_the_next_finished_line() {
        let mut buf = Vec::new();
        let mut console = Console::new(&mut buf);
        console.line(format_args!("first")).unwrap();
        console.progress("... depth 2: 1000 nodes").unwrap();
        console.progress("... depth 2: 99").unwrap();
        console.line(format_args!("second")).unwrap();
        console.finish().unwrap();
        let text = String::from_utf8(buf).unwrap();
        let blank = " ".repeat("... depth 2: 1000 nodes".len());
        assert_eq!(
            text,
            format!(
                "first\n\r... depth 2: 1000 nodes\r{:<23}\r{blank}\rsecond\n",
                "... depth 2: 99"
            )
        );
    }

    #[test]
    fn finish_erases_a_progress_line_still_shown() {
        let mut buf = Vec::new();
        let mut console = Console::new(&mut buf);
        console.progress("abc").unwrap();
        console.finish().unwrap();
        assert_eq!(buf, b"\rabc\r   \r");
    }

    #[test]
    fn no_progress_means_plain_lines() {
        let mut buf = Vec::new();
        let mut console = Console::new(&mut buf);
        console.line(format_args!("a {}", 1)).unwrap();
        console.finish().unwrap();
        assert_eq!(buf, b"a 1\n");
    }

    #[test]
    fn progress_text_names_depth_nodes_speed_and_time() {
        let text = progress_text(9, None, 20, 2_000_000, Duration::from_secs(2));
        assert_eq!(text, "... depth 9: 2000000 nodes, 1000 knps, 2.0s");
    }

    #[test]
    fn progress_text_names_the_root_move_being_searched() {
        use sapper_rules::moves::MoveKind;
        use sapper_rules::types::Square;
        let e2e4 = Move::new(Square::new(4, 1), Square::new(4, 3), MoveKind::Normal);
        let text = progress_text(9, Some((e2e4, 3)), 20, 2_000_000, Duration::from_secs(2));
        assert_eq!(
            text,
            "... depth 9, move 3/20 e2e4: 2000000 nodes, 1000 knps, 2.0s"
        );
    }

    #[test]
    fn the_shared_state_reports_the_current_root_move() {
        use crate::search::tt::TranspositionTable;
        use sapper_rules::moves::MoveKind;
        use sapper_rules::types::Square;
        let shared = SearchShared::new(std::sync::Arc::new(TranspositionTable::new(1)));
        assert_eq!(shared.current_move(), None);
        let m = Move::new(Square::new(6, 0), Square::new(5, 2), MoveKind::Normal);
        shared.set_current_move(m, 7);
        assert_eq!(shared.current_move(), Some((m, 7)));
    }
}
