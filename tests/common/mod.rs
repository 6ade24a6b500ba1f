//! Drives the `cutoff` binary over pipes for the integration tests: a reader thread feeds
//! every stdout line (with the instant it arrived) into a channel, so that every wait has
//! a timeout and no test can hang; dropping an `Engine` kills the process.

#![allow(
    dead_code,
    reason = "each test file uses its own subset of these helpers"
)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// The engine binary Cargo built for these tests.
pub const BINARY: &str = env!("CARGO_BIN_EXE_cutoff");

/// Runs `cutoff` with `args` to the end.
pub fn cutoff(args: &[&str]) -> Output {
    Command::new(BINARY).args(args).output().unwrap()
}

/// Runs a command that must succeed; returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = cutoff(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A new empty folder for one test of `suite`, named after both; it is removed with
/// everything in it when the returned value is dropped, whether the test passed or not.
pub fn scratch(suite: &str, name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cutoff-{suite}-{name}-"))
        .tempdir()
        .expect("scratch folder")
}

/// Every record of a training data file, each checked.
pub fn read_records(path: &Path) -> Vec<cutoff_engine::data::PackedPosition> {
    let bytes = std::fs::read(path).unwrap();
    cutoff_engine::data::Reader::new(&bytes[..])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A wait that should never be reached unless the engine is broken.
pub const LONG: Duration = Duration::from_secs(20);

/// How many lines sent and received are kept for failure messages.
const TRANSCRIPT: usize = 40;

/// The one serial group of a test binary: every test with a wall-clock bound takes it, and
/// so does every test that runs several search threads, so that no bound is measured while
/// another test of the binary loads both cores of a 2-core machine (the harness runs a
/// binary's tests on parallel threads; Cargo runs the binaries one at a time). Poisoning
/// (a failed test) does not stop the others.
pub fn timing_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// `e2e4: 20`, `a7a8q: 1`: one line of `go perft`'s divide.
pub fn is_perft_line(line: &str) -> bool {
    let Some((mv, count)) = line.split_once(": ") else {
        return false;
    };
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
        && count.parse::<u64>().is_ok()
}

enum Event {
    Line(String, Instant),
    Eof,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    stderr: Arc<Mutex<String>>,
    /// The last lines exchanged, `> ` sent and `< ` received, for failure messages.
    transcript: VecDeque<String>,
    /// Set once stdout has closed.
    eof: bool,
    /// When the last line was sent.
    last_sent: Instant,
}

impl Engine {
    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts the engine.
    pub fn spawn() -> Engine {
        Engine::spawn_command(Command::new(BINARY))
    }

    /// Starts the engine through `/bin/sh` with its address space limited to `kib` KiB, so
    /// that huge allocations fail at once instead of exhausting the machine.
    #[cfg(unix)]
    pub fn spawn_with_memory_limit(kib: u64) -> Engine {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(BINARY);
        Engine::spawn_command(command)
    }

    pub fn spawn_command(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BINARY}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Event::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Event::Eof);
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let err_buf = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&chunk[..n]).into_owned();
                err_buf
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push_str(&text);
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            rx,
            stderr,
            transcript: VecDeque::new(),
            eof: false,
            last_sent: Instant::now(),
        }
    }

    fn note(&mut self, entry: String) {
        if self.transcript.len() == TRANSCRIPT {
            self.transcript.pop_front();
        }
        self.transcript.push_back(entry);
    }

    /// The recent exchange and the engine's stderr, for failure messages.
    pub fn context(&self) -> String {
        let mut text = String::from("recent exchange:\n");
        for entry in &self.transcript {
            text.push_str("  ");
            text.push_str(entry);
            text.push('\n');
        }
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if !stderr.is_empty() {
            text.push_str("stderr:\n");
            text.push_str(&stderr);
        }
        text
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// Sends raw bytes as they are (add the `\n` yourself).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.note(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
            panic!(
                "cannot write to the engine ({e}); it has died?\n{}",
                self.context()
            );
        }
        self.last_sent = Instant::now();
    }

    /// When the last line was sent: latencies are measured from here.
    pub fn last_sent(&self) -> Instant {
        self.last_sent
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.note("> <end of input>".to_string());
        self.stdin = None;
    }

    /// The next line and when it arrived, or None if nothing came within `timeout`.
    /// Panics if the engine closed its output.
    pub fn recv_timed(&mut self, timeout: Duration) -> Option<(String, Instant)> {
        if self.eof {
            panic!("the engine's output is closed\n{}", self.context());
        }
        match self.rx.recv_timeout(timeout) {
            Ok(Event::Line(line, at)) => {
                self.note(format!("< {line}"));
                Some((line, at))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                let status = self.wait_exit(Duration::from_millis(500));
                panic!(
                    "the engine closed its output (exit status {status:?})\n{}",
                    self.context()
                );
            }
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    /// The next line, or None if nothing came within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        self.recv_timed(timeout).map(|(line, _)| line)
    }

    /// Collects lines until one starts with `prefix`; returns them all, that one last.
    /// Panics if it does not come within `timeout`.
    pub fn lines_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.lines_until_timed(prefix, timeout).0
    }

    /// As `lines_until`, also returning when the last line arrived.
    pub fn lines_until_timed(&mut self, prefix: &str, timeout: Duration) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv_timed(left) {
                Some((line, at)) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return (lines, at);
                    }
                }
                None => panic!(
                    "no line starting with {prefix:?} within {timeout:?}\n{}",
                    self.context()
                ),
            }
        }
    }

    /// The first line starting with `prefix` (earlier lines are dropped).
    pub fn expect_line(&mut self, prefix: &str, timeout: Duration) -> String {
        self.lines_until(prefix, timeout)
            .pop()
            .expect("at least one line")
    }

    /// `isready` as a barrier: returns every line the engine sent before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.lines_until("readyok", LONG);
        lines.pop();
        lines
    }

    /// Asserts that the engine answers nothing but `readyok` to a barrier.
    pub fn expect_silent(&mut self, what: &str) {
        let lines = self.sync();
        assert!(
            lines.is_empty(),
            "{what}: expected no output, got {lines:?}\n{}",
            self.context()
        );
    }

    /// Asserts that the engine answers exactly one `info string error: …` line before the
    /// barrier, and returns it.
    pub fn expect_error(&mut self, what: &str) -> String {
        let lines = self.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string error: "),
            "{what}: expected exactly one 'info string error: …' line, got {lines:?}\n{}",
            self.context()
        );
        lines[0].clone()
    }

    /// Every line that arrives within `duration` (waits the whole time).
    pub fn lines_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            if let Some(line) = self.recv(left) {
                lines.push(line);
            }
        }
    }

    /// Sends `go …` and returns every line up to and including `bestmove`.
    pub fn go(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.lines_until("bestmove", LONG)
    }

    /// The `Fen: ` field of `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let line = self.expect_line("Fen: ", LONG);
        // Drain the rest of the display.
        self.sync();
        line.strip_prefix("Fen: ").expect("a Fen: line").to_string()
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Sends `quit` and checks that the engine exits successfully.
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit(LONG);
        assert!(
            status.is_some_and(|s| s.success()),
            "quit: exit status {status:?}\n{}",
            self.context()
        );
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A small fixed-seed generator, the engine's SplitMix64 stream: property and fuzz tests
/// see the same input on every run.
pub struct Rng(cutoff_engine::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(cutoff_engine::rng::Rng::new(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, n).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in [lo, hi].
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
}
