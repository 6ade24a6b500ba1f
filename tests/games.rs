//! The games format end to end, through the real binary: datagen's games convert to the
//! records datagen writes for the same seed, a resumed run leaves the file one run would
//! have written, a damaged or cut chunk costs only its games, PGN converts to games, and
//! the manifest check passes on the committed sample and fails on a changed or missing
//! file (naming the command that remakes a missing one).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{BINARY, cutoff, ok, read_records, scratch};
use cutoff_engine::games::{GameReader, HEADER_BYTES, RawChunk};

/// Runs a command that must fail; returns its stderr.
fn fails(args: &[&str]) -> String {
    let out = cutoff(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `games` self-play games at a small budget into `output` in `format`.
fn datagen(output: &Path, format: &str, games: &str, seed: &str) -> String {
    ok(&[
        "datagen",
        "--output",
        s(output),
        "--format",
        format,
        "--games",
        games,
        "--nodes",
        "400",
        "--threads",
        "2",
        "--seed",
        seed,
    ])
}

fn chunks(path: &Path) -> Vec<RawChunk> {
    let bytes = std::fs::read(path).unwrap();
    GameReader::new(&bytes[..])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn convert(input: &Path, output: &Path) -> Output {
    cutoff(&["data", "convert", s(input), "--output", s(output)])
}

/// The same seed gives the same games in both formats, so converting the games gives
/// the records file byte for byte.
#[test]
fn games_convert_to_the_records_datagen_writes() {
    let scratch = scratch("games", "round-trip");
    let dir = scratch.path();
    let (records, games, converted) = (dir.join("r.bin"), dir.join("g.bin"), dir.join("c.bin"));
    datagen(&records, "records", "10", "7");
    datagen(&games, "games", "10", "7");
    assert!(convert(&games, &converted).status.success());
    assert_eq!(
        std::fs::read(&converted).unwrap(),
        std::fs::read(&records).unwrap()
    );
    // 10 games in chunks of 8: two chunks.
    let found = chunks(&games);
    assert_eq!(found.iter().map(|c| c.games).collect::<Vec<_>>(), [8, 2]);
    let positions: u64 = found.iter().map(|c| u64::from(c.positions)).sum();
    assert_eq!(positions, read_records(&records).len() as u64);
    // The layout docs/data.md gives, in its own numbers (not the module's constants,
    // which the reader shares): a 32-byte file header, 20 bytes a chunk, and a game's
    // 31-byte start and 4 bytes a ply, kept or not. What a kept position then costs
    // depends on the games; `cutoff data stats` measures it on real data.
    let plies: usize = found
        .iter()
        .flat_map(|c| c.decode().unwrap())
        .map(|g| g.plies.len())
        .sum();
    let bytes = std::fs::metadata(&games).unwrap().len() as usize;
    assert_eq!(bytes, 32 + 20 * found.len() + 31 * 10 + 4 * plies);

    // Records cannot become games; a file in one format is not appended to in the other.
    let e = String::from_utf8_lossy(&convert(&records, &dir.join("x.bin")).stderr).into_owned();
    assert!(e.contains("cannot become games"), "{e}");
    let e = fails(&[
        "datagen",
        "--output",
        s(&records),
        "--format",
        "games",
        "--games",
        "1",
    ]);
    assert!(e.contains("holds records, not games"), "{e}");
}

/// A run stopped and resumed with the same seed, however often, leaves the file one run
/// of all the games writes: the numbering goes on where the file stops, and a last chunk
/// written short (here 5 games, then 2) is gathered again and completed.
#[test]
fn a_resumed_run_writes_what_one_run_writes() {
    let scratch = scratch("games", "resumed");
    let dir = scratch.path();
    let (once, resumed) = (dir.join("once.bin"), dir.join("resumed.bin"));
    datagen(&once, "games", "12", "7");
    for games in ["5", "5", "2"] {
        datagen(&resumed, "games", games, "7");
    }
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&once).unwrap()
    );
    assert_eq!(
        chunks(&resumed).iter().map(|c| c.games).collect::<Vec<_>>(),
        [8, 4]
    );
}

/// A kill inside a chunk's write leaves a partial chunk: the next run cuts it off and
/// goes on from the whole chunks before it.
#[test]
fn a_partial_last_chunk_is_cut_off_on_resume() {
    let scratch = scratch("games", "resume");
    let dir = scratch.path();
    let games = dir.join("g.bin");
    datagen(&games, "games", "2", "9");
    let whole = std::fs::metadata(&games).unwrap().len();
    let first = chunks(&games)[0].bytes.clone();
    let mut bytes = std::fs::read(&games).unwrap();
    bytes.extend_from_slice(&first[..first.len() / 2]);
    std::fs::write(&games, &bytes).unwrap();
    let out = cutoff(&[
        "datagen",
        "--output",
        s(&games),
        "--games",
        "1",
        "--nodes",
        "400",
        "--seed",
        "9",
    ]);
    assert!(out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("cutting off a partial chunk"), "{e}");
    // The 2 games' chunk, reopened, now holds the third game too.
    let found = chunks(&games);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].offset, found[0].games), (HEADER_BYTES as u64, 3));
    assert!(std::fs::metadata(&games).unwrap().len() > whole);
}

/// A kill at any moment leaves whole chunks: the file reads without damage, and a run
/// appends to it.
#[test]
fn a_killed_run_leaves_whole_chunks() {
    let scratch = scratch("games", "kill");
    let dir = scratch.path();
    let games = dir.join("g.bin");
    let mut child = Command::new(BINARY)
        .args(["datagen", "--output", s(&games), "--format", "games"])
        .args(["--nodes", "300", "--threads", "2", "--seed", "6"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    // Past the first chunk, so that the kill lands while games are gathered or written.
    while std::fs::metadata(&games).map_or(0, |m| m.len()) <= HEADER_BYTES as u64 {
        assert!(start.elapsed() < common::LONG, "no chunk written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    let before = chunks(&games);
    assert!(!before.is_empty());
    ok(&["data", "stats", s(&games)]);
    // A kill writes no short chunk: the run goes on in a new one, and the file is the one
    // a single run of all its games writes.
    let run = |path: &Path, games: u32| {
        ok(&[
            "datagen",
            "--output",
            s(path),
            "--format",
            "games",
            "--games",
            &games.to_string(),
            "--nodes",
            "300",
            "--threads",
            "2",
            "--seed",
            "6",
        ])
    };
    run(&games, 1);
    assert_eq!(chunks(&games).len(), before.len() + 1);
    let once = dir.join("once.bin");
    run(&once, before.iter().map(|c| c.games).sum::<u32>() + 1);
    assert_eq!(
        std::fs::read(&once).unwrap(),
        std::fs::read(&games).unwrap()
    );
}

/// A byte of each chunk's first game, flipped in turn, and a cut inside the last
/// chunk: the tools report the damaged chunk's offset, skip it, keep the other chunks'
/// games and fail.
#[test]
fn a_damaged_chunk_costs_only_its_games() {
    let scratch = scratch("games", "damage");
    let dir = scratch.path();
    let games = dir.join("g.bin");
    datagen(&games, "games", "20", "4");
    let found = chunks(&games);
    assert_eq!(found.len(), 3);
    let all = dir.join("all.bin");
    assert!(convert(&games, &all).status.success());
    let all = read_records(&all);
    let bytes = std::fs::read(&games).unwrap();
    let damaged_path = dir.join("damaged.bin");
    let out_path = dir.join("out.bin");
    for (i, chunk) in found.iter().enumerate() {
        let mut damaged = bytes.clone();
        damaged[chunk.offset as usize + 30] ^= 0x40;
        std::fs::write(&damaged_path, &damaged).unwrap();
        let out = convert(&damaged_path, &out_path);
        assert!(!out.status.success());
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(
            e.contains(&format!("at byte {}: damaged chunk", chunk.offset)),
            "{e}"
        );
        // The other chunks' records, in order.
        let before: usize = found[..i].iter().map(|c| c.positions as usize).sum();
        let expected: Vec<_> = all[..before]
            .iter()
            .chain(&all[before + chunk.positions as usize..])
            .copied()
            .collect();
        assert_eq!(read_records(&out_path), expected, "chunk {i}");
    }
    // Cut inside the last chunk.
    let last = &found[2];
    std::fs::write(&damaged_path, &bytes[..bytes.len() - 7]).unwrap();
    let e = fails(&["data", "stats", s(&damaged_path)]);
    assert!(
        e.contains(&format!("at byte {}", last.offset)) && e.contains("truncated"),
        "{e}"
    );
    // Only a header, or not even that: no panic, a clear message.
    std::fs::write(&damaged_path, &bytes[..HEADER_BYTES - 1]).unwrap();
    let e = fails(&["data", "stats", s(&damaged_path)]);
    assert!(e.contains("header"), "{e}");
}

/// PGN (as fastchess and `datagen --pgn` write it) converts to games whose records are
/// the ones the PGN converts to directly, and merging games files copies their chunks.
#[test]
fn pgn_converts_to_games() {
    let scratch = scratch("games", "pgn");
    let dir = scratch.path();
    let pgn = "tests/data/fastchess-sample.pgn";
    let (records, games, converted, merged) = (
        dir.join("r.bin"),
        dir.join("g.bin"),
        dir.join("c.bin"),
        dir.join("m.bin"),
    );
    ok(&["data", "from-pgn", pgn, "--output", s(&records)]);
    ok(&[
        "data",
        "from-pgn",
        pgn,
        "--output",
        s(&games),
        "--format",
        "games",
    ]);
    assert!(convert(&games, &converted).status.success());
    assert_eq!(read_records(&converted), read_records(&records));
    ok(&[
        "data",
        "merge",
        s(&games),
        s(&games),
        "--output",
        s(&merged),
    ]);
    assert_eq!(chunks(&merged).len(), 2 * chunks(&games).len());
    let text = ok(&["data", "stats", s(&merged)]);
    assert!(text.contains("bytes a kept position"), "{text}");
}

/// The committed sample matches its manifest; a changed byte or a missing file fails
/// the check and is named.
#[test]
fn manifest_verify_passes_and_fails() {
    let out = ok(&["data", "verify", "tests/data/games-sample.toml"]);
    assert!(out.contains("games-sample.bin: ok"), "{out}");
    let scratch = scratch("games", "manifest");
    let dir = scratch.path();
    let copy: PathBuf = dir.join("games-sample.bin");
    let mut bytes = std::fs::read("tests/data/games-sample.bin").unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&copy, &bytes).unwrap();
    let args = [
        "data",
        "verify",
        "tests/data/games-sample.toml",
        "--dir",
        s(dir),
    ];
    let e = fails(&args);
    assert!(
        e.contains("games-sample.bin: MISMATCH") && e.contains("sha256"),
        "{e}"
    );
    std::fs::remove_file(&copy).unwrap();
    let e = fails(&args);
    assert!(
        e.contains(
            "games-sample.bin: MISSING (remade by: cutoff datagen --output games-sample.bin"
        ),
        "{e}"
    );

    // An entry written by manifest-entry verifies.
    let entry = entry_for(Path::new("tests/data/games-sample.bin"), "cutoff \"q\"");
    std::fs::copy("tests/data/games-sample.bin", &copy).unwrap();
    let manifest = dir.join("data.toml");
    std::fs::write(&manifest, entry).unwrap();
    ok(&["data", "verify", s(&manifest)]);
    std::fs::write(&manifest, "[[file]]\nname = 3\n").unwrap();
    let e = fails(&["data", "verify", s(&manifest)]);
    assert!(e.contains("should be a string"), "{e}");

    // A records file cut inside a record has no entry (its size alone would give one).
    let bytes = std::fs::read("tests/data/games-sample.bin").unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let out = manifest_entry(&cut, "cutoff x");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("truncated"), "{e}");
}

/// `data manifest-entry` of `file` with `command` as the command that remakes it.
fn manifest_entry(file: &Path, command: &str) -> Output {
    cutoff(&[
        "data",
        "manifest-entry",
        s(file),
        "--commit",
        "this",
        "--network",
        "embedded",
        "--nodes",
        "400",
        "--seeds",
        "17",
        "--command",
        command,
    ])
}

/// The entry of `file` with `command` as the command that remakes it.
fn entry_for(file: &Path, command: &str) -> String {
    let out = manifest_entry(file, command);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `data remake` makes a missing file again by its entry's command, byte for byte
/// (datagen's games do not depend on the thread count: the file was made with two
/// threads, the command uses one), in the manifest's order so that a file converted
/// from another follows it; it leaves present files alone, refuses by name a command
/// that is not plain `cutoff` arguments and a file the manifest does not list, and keeps
/// aside a remade file whose counts are not its entry's.
#[test]
fn manifest_remake_makes_missing_files_again() {
    let scratch = scratch("games", "remake");
    let dir = scratch.path();
    let games = dir.join("r.games");
    let records = dir.join("r.bin");
    datagen(&games, "games", "2", "17");
    assert!(convert(&games, &records).status.success());
    let manifest = dir.join("data.toml");
    let command = "cutoff datagen --output r.games --format games --games 2 --nodes 400 --threads 1 --seed 17";
    let text = format!(
        "{}\n\n{}\n",
        entry_for(&games, command),
        entry_for(&records, "cutoff data convert r.games --output r.bin")
    );
    let write_manifest = |games_command: &str| {
        std::fs::write(&manifest, text.replace(command, games_command)).unwrap();
    };
    write_manifest(command);
    let (games_bytes, records_bytes) = (
        std::fs::read(&games).unwrap(),
        std::fs::read(&records).unwrap(),
    );
    std::fs::remove_file(&games).unwrap();
    std::fs::remove_file(&records).unwrap();

    let out = ok(&["data", "remake", s(&manifest)]);
    assert!(
        out.contains("r.games: remade, ok") && out.contains("r.bin: remade, ok"),
        "{out}"
    );
    assert_eq!(std::fs::read(&games).unwrap(), games_bytes);
    assert_eq!(std::fs::read(&records).unwrap(), records_bytes);
    let out = ok(&["data", "remake", s(&manifest), "r.bin"]);
    assert!(out.contains("r.bin: present, left as it is"), "{out}");
    assert!(!out.contains("r.games"), "{out}");

    let e = fails(&["data", "remake", s(&manifest), "other.bin"]);
    assert!(e.contains("other.bin: not in"), "{e}");
    write_manifest("cutoff datagen --output r.games --seed 17, stopped by SIGTERM after 2 games");
    std::fs::remove_file(&games).unwrap();
    let e = fails(&["data", "remake", s(&manifest), "r.games"]);
    assert!(
        e.contains("r.games: NOT REMADE: its command is not plain arguments"),
        "{e}"
    );
    assert!(!games.exists());

    // A run that writes fewer games than the entry's (as a stopped one would) is kept
    // aside, not taken for the file.
    write_manifest(
        "cutoff datagen --output r.games --format games --games 1 --nodes 400 --threads 1 --seed 17",
    );
    let e = fails(&["data", "remake", s(&manifest), "r.games"]);
    assert!(
        e.contains("r.games: NOT REMADE: the remade file differs") && e.contains("r.games.remake"),
        "{e}"
    );
    assert!(!games.exists());
    // The next remake goes on with that file where it stops (as with one a killed remake
    // left) and completes it into the file one run writes.
    write_manifest(command);
    let out = cutoff(&["data", "remake", s(&manifest), "r.games"]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{e}");
    assert!(e.contains("going on with r.games.remake"), "{e}");
    // Each verdict is said on stderr when it is known, not only in the final list.
    assert!(e.contains("cutoff data remake: r.games: remade, ok"), "{e}");
    assert_eq!(std::fs::read(&games).unwrap(), games_bytes);

    // A remake stopped after its last write left the whole file: only the check is left
    // (its command would be asked for 0 more games). The manifest is named as it is in
    // its own folder.
    std::fs::rename(&games, dir.join("r.games.remake")).unwrap();
    let out = Command::new(BINARY)
        .args(["data", "remake", "data.toml", "r.games"])
        .current_dir(dir)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{e}");
    assert!(
        e.contains("r.games: remade, ok") && !e.contains("datagen"),
        "{e}"
    );
    assert_eq!(std::fs::read(&games).unwrap(), games_bytes);
}
