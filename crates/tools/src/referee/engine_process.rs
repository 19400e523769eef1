//! A UCI engine running as a subprocess, driven with timeouts.
//!
//! A reader thread turns the engine's stdout into lines on a channel, each stamped
//! with the instant it arrived, so the referee can wait for an answer with a
//! deadline and tell a hung engine (no line before the deadline) from a crashed one
//! (stdout closed). The engine's stderr is discarded. Dropping an
//! [`EngineProcess`] kills the process.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Start(String),
    /// The process exited, closed its output or stopped reading its input.
    Crashed(String),
    /// No expected answer before the deadline.
    Timeout(String),
    /// The engine answered something the protocol does not allow here.
    Protocol(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Start(s) => write!(f, "cannot start engine: {s}"),
            EngineError::Crashed(s) => write!(f, "engine crashed: {s}"),
            EngineError::Timeout(s) => write!(f, "engine timed out: {s}"),
            EngineError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// An option the engine announced in answer to `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnouncedOption {
    /// The option's name.
    pub name: String,
    /// The `var` values of a combo option (empty otherwise).
    pub vars: Vec<String>,
}

/// Parses an `option name <name> type <type> ... [var <v>]...` line.
pub fn parse_option_line(line: &str) -> Option<AnnouncedOption> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"option") || tokens.get(1) != Some(&"name") {
        return None;
    }
    let type_at = tokens.iter().position(|t| *t == "type")?;
    let name = tokens[2..type_at].join(" ");
    let mut vars = Vec::new();
    let mut i = type_at;
    while i < tokens.len() {
        if tokens[i] == "var" {
            let end = tokens[i + 1..]
                .iter()
                .position(|t| matches!(*t, "var" | "default" | "min" | "max"))
                .map_or(tokens.len(), |p| i + 1 + p);
            vars.push(tokens[i + 1..end].join(" "));
            i = end;
        } else {
            i += 1;
        }
    }
    Some(AnnouncedOption { name, vars })
}

/// The answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move token after `bestmove` (`(none)` and `0000` included).
    pub text: String,
    /// Time from writing `go` to the arrival of the `bestmove` line.
    pub elapsed: Duration,
    /// `info string` lines the engine printed since the `position` command.
    pub info_strings: Vec<String>,
}

/// A running engine.
pub struct EngineProcess {
    /// The name used in messages.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    /// Options announced in answer to `uci` (after [`EngineProcess::handshake`]).
    pub options: Vec<AnnouncedOption>,
}

impl EngineProcess {
    /// Starts `command` (program and arguments).
    ///
    /// # Errors
    /// [`EngineError::Start`] when the program cannot be run.
    pub fn start(command: &[String], name: &str) -> Result<EngineProcess, EngineError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| EngineError::Start("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Start(format!("{}: {e}", command.join(" "))))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name(format!("{name} reader"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
                            if tx.send((Instant::now(), line)).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| EngineError::Start(format!("reader thread: {e}")))?;
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            options: Vec::new(),
        })
    }

    /// Writes one command line.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] when the engine no longer reads its input.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| EngineError::Crashed(format!("writing '{line}': {e}")))
    }

    /// The next line, waiting until `deadline` at most.
    ///
    /// # Errors
    /// [`EngineError::Timeout`] at the deadline, [`EngineError::Crashed`] when the
    /// engine's output is closed.
    pub fn recv_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<(Instant, String), EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!("no {waiting_for}"))),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.try_wait().ok().flatten();
                Err(EngineError::Crashed(match status {
                    Some(s) => format!("exited ({s}) while the referee waited for {waiting_for}"),
                    None => format!("closed its output while the referee waited for {waiting_for}"),
                }))
            }
        }
    }

    /// Sends `uci` and reads the announced options until `uciok`.
    ///
    /// # Errors
    /// Any [`EngineError`]; a timeout after `timeout`.
    pub fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.recv_line(deadline, "uciok")?;
            if line.trim() == "uciok" {
                return Ok(());
            }
            if let Some(opt) = parse_option_line(&line) {
                self.options.push(opt);
            }
        }
    }

    /// The announced option named `name` (case-insensitive, as UCI option names match).
    pub fn option(&self, name: &str) -> Option<&AnnouncedOption> {
        self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Sends `isready` and waits for `readyok`; returns the lines seen before it.
    ///
    /// # Errors
    /// Any [`EngineError`]; a timeout after `timeout`.
    pub fn sync(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let (_, line) = self.recv_line(deadline, "readyok")?;
            if line.trim() == "readyok" {
                return Ok(seen);
            }
            seen.push(line);
        }
    }

    /// Sends `position <position>` and `go <limits>`, then waits for `bestmove` until
    /// `deadline` at most (measured from the `go`: `deadline_after`).
    ///
    /// # Errors
    /// [`EngineError::Timeout`] (the engine is still thinking: it should be killed),
    /// [`EngineError::Crashed`], or [`EngineError::Protocol`] for `bestmove` without
    /// a move.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline_after: Duration,
    ) -> Result<BestMove, EngineError> {
        // Lines left over from earlier commands (a late `info`) are not part of this answer.
        while self.lines.try_recv().is_ok() {}
        self.send(&format!("position {position}"))?;
        self.send(&format!("go {go}"))?;
        let start = Instant::now();
        let deadline = start + deadline_after;
        let mut info_strings = Vec::new();
        loop {
            let (at, line) = self.recv_line(deadline, "bestmove")?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    let text = tokens
                        .next()
                        .ok_or_else(|| EngineError::Protocol("'bestmove' without a move".into()))?;
                    return Ok(BestMove {
                        text: text.to_string(),
                        elapsed: at.saturating_duration_since(start),
                        info_strings,
                    });
                }
                Some("info") if line.split_whitespace().nth(1) == Some("string") => info_strings.push(line),
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, giving it `grace` to exit before it is killed.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines() {
        let o = parse_option_line("option name Move Overhead type spin default 10 min 0 max 5000").unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert!(o.vars.is_empty());
        let o = parse_option_line(
            "option name UCI_Variant type combo default chess var chess var atomic var minesweeper",
        )
        .unwrap();
        assert_eq!(o.name, "UCI_Variant");
        assert_eq!(o.vars, ["chess", "atomic", "minesweeper"]);
        assert!(parse_option_line("id name X").is_none());
    }

    #[test]
    fn a_missing_program_fails_to_start() {
        let err = EngineProcess::start(&["/nonexistent/engine".to_string()], "x")
            .err()
            .unwrap();
        assert!(matches!(err, EngineError::Start(_)));
    }

    #[test]
    fn a_silent_process_times_out_and_a_dead_one_crashes() {
        // `cat` echoes "uci" back but never says `uciok`.
        let Ok(mut cat) = EngineProcess::start(&["cat".to_string()], "cat") else {
            return;
        };
        let err = cat.handshake(Duration::from_millis(200)).unwrap_err();
        assert!(matches!(err, EngineError::Timeout(_)), "{err}");
        let Ok(mut t) = EngineProcess::start(&["true".to_string()], "true") else {
            return;
        };
        let err = t.sync(Duration::from_secs(10)).unwrap_err();
        assert!(matches!(err, EngineError::Crashed(_)), "{err}");
    }
}
