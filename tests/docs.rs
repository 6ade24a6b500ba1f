//! The documentation names only what exists. Every source file or script a page names in
//! backticks, a code block or a link is in the repository, and every `cutoff SUBCOMMAND
//! --flag` a code span or block quotes is a flag that `cutoff SUBCOMMAND --help` lists.
//! The pages are the README, `docs/*.md` and `engine/nets/README.md`; CHANGELOG.md is
//! history and names what was true then.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// File endings of the things a page may name as part of the repository: sources,
/// scripts, manifests and pages. Data and outputs (`.bin`, `.json`, `.nnue`, `.epd`) are
/// often examples of files a reader makes, so they are not checked.
const CHECKED_ENDINGS: &[&str] = &[".rs", ".py", ".sh", ".toml", ".md"];

/// Folders a page's paths are read from besides the repository root and its own folder:
/// the engine's modules are usually named from `engine/src/` (`search/vote.rs`).
const SOURCE_ROOTS: &[&str] = &["engine/src", "src"];

/// Flags a page quotes as history, each with the page: commands recorded as they were run
/// at an old commit. docs/data.md's table of the data that exists gives each datagen
/// command as run, and says that `--nnue` was the switch to the network before it became
/// the default.
const HISTORICAL_FLAGS: &[(&str, &str)] = &[("docs/data.md", "--nnue")];

/// A page's path from the repository root, as the failures name it.
fn shown(page: &Path) -> String {
    let relative = page.strip_prefix(ROOT).unwrap_or(page);
    relative.to_string_lossy().into_owned()
}

fn pages() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut pages = vec![root.join("README.md"), root.join("engine/nets/README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("read docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// What a page quotes: its fenced code blocks (one string per logical line, continuation
/// lines joined), its inline code spans, and its link targets.
#[derive(Default)]
struct Quoted {
    block_lines: Vec<String>,
    spans: Vec<String>,
    links: Vec<String>,
}

fn quoted(text: &str) -> Quoted {
    let mut quoted = Quoted::default();
    let mut prose = String::new();
    let mut in_block = false;
    let mut continued = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            prose.push('\n');
            continue;
        }
        // An indented code block: lines indented four spaces or more after a blank line
        // (in a list item too, whose own text is indented two).
        let indented =
            line.starts_with("    ") && (prose.ends_with("\n\n") || !continued.is_empty());
        if in_block || indented {
            let trimmed = line.trim();
            if let Some(start) = trimmed.strip_suffix('\\') {
                continued.push_str(start.trim_end());
                continued.push(' ');
            } else {
                continued.push_str(trimmed);
                quoted.block_lines.push(std::mem::take(&mut continued));
            }
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    // Code spans and links never cross a blank line, so an odd backtick spoils at most
    // one paragraph.
    for paragraph in prose.split("\n\n") {
        let mut parts = paragraph.split('`');
        let mut text_parts = Vec::new();
        while let Some(outside) = parts.next() {
            text_parts.push(outside);
            if let Some(inside) = parts.next() {
                quoted.spans.push(inside.replace('\n', " "));
            }
        }
        for outside in text_parts {
            let mut rest = outside;
            while let Some((_, after)) = rest.split_once("](") {
                if let Some((target, _)) = after.split_once(')') {
                    quoted.links.push(target.to_string());
                }
                rest = after;
            }
        }
    }
    quoted
}

/// Every file name in the repository (outside `target/` and hidden folders), for the
/// names a page gives without a folder (`tt.rs`).
fn file_names(dir: &Path, names: &mut BTreeSet<String>) {
    for entry in fs::read_dir(dir).expect("read a folder") {
        let entry = entry.expect("a folder entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                file_names(&path, names);
            }
        } else {
            names.insert(name);
        }
    }
}

/// The path-looking words of a quote: a file name with a checked ending, with or without
/// folders, and nothing a reader fills in (`<path>`, `NAME.rs`, `{a,b}.rs`).
fn path_words(quote: &str) -> Vec<&str> {
    quote
        .split(|c: char| c.is_whitespace() || "(),;:'\"=[]`".contains(c))
        .map(|word| word.trim_end_matches('.'))
        .filter(|word| {
            CHECKED_ENDINGS
                .iter()
                .any(|e| word.ends_with(e) && word.len() > e.len())
        })
        .filter(|word| {
            word.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_./-".contains(c))
                || word.ends_with("README.md")
                || word.ends_with("Cargo.toml")
                || word.ends_with("CHANGELOG.md")
                || word.ends_with("LICENSE.md")
        })
        .filter(|word| !word.starts_with("http") && !word.starts_with('/'))
        .collect()
}

fn path_exists(page_dir: &Path, word: &str, names: &BTreeSet<String>) -> bool {
    let root = Path::new(ROOT);
    if !word.contains('/') {
        return names.contains(word);
    }
    let word = word.trim_start_matches("./");
    root.join(word).exists()
        || page_dir.join(word).exists()
        || SOURCE_ROOTS
            .iter()
            .any(|r| root.join(r).join(word).exists())
}

#[test]
fn every_named_file_exists() {
    let mut names = BTreeSet::new();
    file_names(Path::new(ROOT), &mut names);
    let mut missing = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).expect("read a page");
        let dir = page.parent().expect("a page's folder");
        let quoted = quoted(&text);
        let quotes = quoted.spans.iter().chain(&quoted.block_lines);
        for word in quotes.flat_map(|q| path_words(q)) {
            if !path_exists(dir, word, &names) {
                missing.push(format!("{}: `{word}`", shown(&page)));
            }
        }
        for link in &quoted.links {
            let target = link.split('#').next().unwrap_or_default();
            let external = target.contains("://") || target.starts_with("mailto:");
            if !target.is_empty() && !external && !dir.join(target).exists() {
                missing.push(format!("{}: link ({link})", shown(&page)));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named but not in the repository:\n{}",
        missing.join("\n")
    );
}

/// `cutoff ARGS --help`: the help text, or None when clap refuses the words. Each is run
/// once and kept.
fn help(args: &[&str]) -> Option<String> {
    static SEEN: Mutex<BTreeMap<String, Option<String>>> = Mutex::new(BTreeMap::new());
    let mut seen = SEEN.lock().expect("the help cache");
    seen.entry(args.join(" "))
        .or_insert_with(|| {
            let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
                .args(args)
                .arg("--help")
                .output()
                .expect("run cutoff --help");
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .clone()
}

/// The subcommands a help text lists under "Commands:".
fn subcommands(help: &str) -> BTreeSet<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Whether a help text lists `--flag` (as itself, not as the start of a longer flag).
fn lists_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        let before = help.get(..at).and_then(|h| h.chars().next_back());
        let after = help.get(at + flag.len()..).and_then(|h| h.chars().next());
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// The commands of a quote that run `cutoff`: for each, the words after `cutoff`, up to
/// a comment, a redirection, `&&`, `;` or a pipe into another program. A `cutoff` that is
/// another program's argument (`--engine target/release/cutoff`, `cmd=…/cutoff`) is not
/// a command.
fn cutoff_commands(quote: &str) -> Vec<Vec<&str>> {
    let mut commands = Vec::new();
    let words: Vec<&str> = quote.split_whitespace().collect();
    let mut start = 0;
    while start < words.len() {
        let mut end = start;
        while end < words.len() {
            let word = words[end];
            let pipe_out = word == "|" && !words.get(end + 1).is_some_and(|w| w.starts_with('-'));
            if word.starts_with('#')
                || word.starts_with('>')
                || word == "&&"
                || word == ";"
                || pipe_out
            {
                break;
            }
            end += 1;
        }
        let command: Vec<&str> = words[start..end]
            .iter()
            .copied()
            .skip_while(|w| *w == "$" || (w.contains('=') && !w.starts_with('-')))
            .collect();
        if let Some(first) = command.first()
            && (*first == "cutoff" || first.ends_with("/cutoff"))
        {
            commands.push(command[1..].to_vec());
        }
        // After a comment nothing on the line is a command.
        if words.get(end).is_some_and(|w| w.starts_with('#')) {
            break;
        }
        start = end + 1;
    }
    commands
}

/// The words of a command outside double-quoted values: a flag inside `--command "cutoff
/// datagen --output …"` belongs to the quoted command, not to this one.
fn unquoted<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let mut inside = false;
    let mut outside = Vec::new();
    for &word in words {
        let quotes = word.matches('"').count();
        if !inside && quotes == 0 {
            outside.push(word);
        }
        inside ^= quotes % 2 == 1;
    }
    outside
}

/// `--flag` as a command writes it in a usage line: `[--hce`, `--games=N`, `--depths`.
fn flag_name(word: &str) -> Option<&str> {
    let word = word.trim_start_matches(['[', '(']);
    let name = word
        .split(['=', ']', ')', ','])
        .next()?
        .trim_end_matches('.');
    let rest = name.strip_prefix("--")?;
    let well_formed = rest.starts_with(|c: char| c.is_ascii_lowercase())
        && rest
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    well_formed.then_some(name)
}

#[test]
fn every_quoted_flag_is_one_cutoff_takes() {
    let top = help(&[]).expect("cutoff --help");
    let commands = subcommands(&top);
    assert!(
        commands.contains("bench") && commands.contains("texel"),
        "cutoff --help:\n{top}"
    );
    let mut checked = 0;
    let mut unknown = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).expect("read a page");
        let quoted = quoted(&text);
        for quote in quoted.spans.iter().chain(&quoted.block_lines) {
            for words in cutoff_commands(quote) {
                let mut path: Vec<&str> = Vec::new();
                if let Some(sub) = words.first().filter(|w| commands.contains(**w)) {
                    path.push(sub);
                    let nested = help(&path).map(|h| subcommands(&h)).unwrap_or_default();
                    if let Some(inner) = words.get(1).filter(|w| nested.contains(**w)) {
                        path.push(inner);
                    }
                } else if !words.first().is_some_and(|w| w.starts_with("--")) {
                    continue; // not a subcommand this binary has (a quoted placeholder)
                }
                let listed = help(&path).unwrap_or_else(|| panic!("cutoff {path:?} --help failed"));
                let page_name = shown(&page);
                for flag in unquoted(&words).into_iter().filter_map(flag_name) {
                    checked += 1;
                    let historical = HISTORICAL_FLAGS.contains(&(page_name.as_str(), flag));
                    if !historical && !lists_flag(&listed, flag) {
                        unknown.push(format!("{page_name}: cutoff {} {flag}", path.join(" ")));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} flags found: is the parser still reading the pages?"
    );
    assert!(
        unknown.is_empty(),
        "flags cutoff does not take:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn the_parsers_read_commands_and_paths_as_a_reader_would() {
    let page = "Run `cutoff bench 9 --hce` and\n\n```sh\ncutoff data dedup in.bin \\\n    --output out.bin  # dedup\n```\n\nsee [x](testing.md#a), `search/vote.rs`, `tt.rs`.\n";
    let q = quoted(page);
    assert_eq!(
        q.block_lines,
        ["cutoff data dedup in.bin --output out.bin  # dedup"]
    );
    assert_eq!(q.links, ["testing.md#a"]);
    assert_eq!(q.spans, ["cutoff bench 9 --hce", "search/vote.rs", "tt.rs"]);
    assert_eq!(
        cutoff_commands(&q.block_lines[0]),
        [vec!["data", "dedup", "in.bin", "--output", "out.bin"]]
    );
    let pipeline = "target/spsa/release/cutoff spsa-params | grep -v '^TIME_' > search.spsa";
    assert_eq!(cutoff_commands(pipeline), [vec!["spsa-params"]]);
    assert!(cutoff_commands("scripts/spsa.py --engine target/release/cutoff --nodes 5").is_empty());
    assert!(cutoff_commands("fastchess -engine cmd=target/release/cutoff name=a").is_empty());
    let usage = cutoff_commands("cutoff bench [DEPTH] [--hce | --eval-file NET]");
    assert_eq!(
        usage[0]
            .iter()
            .filter_map(|w| flag_name(w))
            .collect::<Vec<_>>(),
        ["--hce", "--eval-file"]
    );
    let entry = cutoff_commands(
        r#"cutoff data manifest-entry f --command "cutoff datagen --seed 1" --note x"#,
    );
    assert_eq!(
        unquoted(&entry[0]),
        ["data", "manifest-entry", "f", "--command", "--note", "x"]
    );
    assert_eq!(
        path_words("see `engine/src/tt.rs`, <path>.rs and NAME.rs"),
        ["engine/src/tt.rs"]
    );
    assert!(
        lists_flag("  --eval-file <NET>\n", "--eval-file")
            && !lists_flag("  --eval-file\n", "--eval")
    );
}
