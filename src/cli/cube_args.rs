//! What the cube commands (check, solve, scramble, test-program, plan, exec) take alike: the cube's size and face order, the notation and output format, cubes read a line at a time, and a seed from the clock.

use anyhow::Context;
use clap::{Args, ValueEnum};
use cubed_core::cube::{parse_moves, FaceOrder, Move, Notation, NotationError};
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::Metric;
use serde_json::json;
use std::io::BufRead;
use std::process::ExitCode;

/// Face order of facelet input.
#[derive(Clone, Copy, Debug, ValueEnum, Default)]
#[value(rename_all = "UPPER")]
pub(crate) enum OrderArg {
    /// Up, right, front, down, left, back.
    #[default]
    Urfdlb,
    /// Up, left, front, right, back, down.
    Ulfrbd,
    /// The 1988 order: top, front, right, posterior, left, bottom.
    Tfrplb,
}

impl From<OrderArg> for FaceOrder {
    fn from(o: OrderArg) -> FaceOrder {
        match o {
            OrderArg::Urfdlb => FaceOrder::Urfdlb,
            OrderArg::Ulfrbd => FaceOrder::Ulfrbd,
            OrderArg::Tfrplb => FaceOrder::Tfrplb,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum NotationArg {
    Singmaster,
    /// The 1988 program's notation (T F R P L B with + - 2; `1988` names it too).
    #[value(alias = "1988")]
    Woolley,
}

impl NotationArg {
    /// As `--notation` spells it (and JSON says which a solution is written in).
    pub(crate) fn name(self) -> &'static str {
        match self {
            NotationArg::Singmaster => "singmaster",
            NotationArg::Woolley => "woolley",
        }
    }
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Singmaster => Notation::Singmaster,
            NotationArg::Woolley => Notation::Woolley,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum FormatArg {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub(crate) enum MetricArg {
    /// Half-turn metric: every face turn counts 1.
    #[default]
    Htm,
    /// Quarter-turn metric: a half turn counts 2.
    Qtm,
}

impl From<MetricArg> for Metric {
    fn from(m: MetricArg) -> Metric {
        match m {
            MetricArg::Htm => Metric::Htm,
            MetricArg::Qtm => Metric::Qtm,
        }
    }
}

/// The cube size and what only the 2x2 has.
#[derive(Args, Debug, Clone)]
pub(crate) struct SizeArgs {
    /// Cube size: 3, or 2 for the pocket cube (24 stickers, always an optimal solution)
    /// [default: 3; `plan` and `exec` on the configuration's design: its `[run] cube_size`].
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: Option<u8>,
    /// With --size 2: the metric the solution is optimal in [default: htm].
    #[arg(long, value_enum)]
    pub(crate) metric: Option<MetricArg>,
    /// The size came from the configuration's `[run] cube_size`, not `--size`.
    #[arg(skip)]
    pub(crate) configured: bool,
    /// With --size 2: cubes in the old 2x2 solver's format, 24 letters y g w b r o
    /// in the face order T F R P L B (instead of the URFDLB order).
    #[arg(long)]
    pub(crate) legacy: bool,
}

impl SizeArgs {
    /// Whether the cube is a 2x2 (`--size 2`, or the configuration's size where it was taken).
    pub(crate) fn is_pocket(&self) -> bool {
        self.size == Some(2)
    }

    /// Takes the configuration's `[run] cube_size` (`configured`) when `--size` is not given.
    pub(crate) fn or_configured(&mut self, configured: Option<crate::daemon::config::CubeSize>) {
        self.configured = self.size.is_none() && configured.is_some();
        self.size = Some(super::design_choice::cube_edge(self.size, configured));
    }

    /// Where the size came from when it was not given: for a refusal of stickers that are not
    /// that size's ("" when `--size` said it).
    pub(crate) fn taken_from(&self) -> String {
        match (self.configured, self.size) {
            (true, Some(edge)) => format!(
                " (the size is the configuration's `[run] cube_size = {edge}`: give --size {} for the other)",
                5 - edge
            ),
            _ => String::new(),
        }
    }

    /// Refuses the 2x2-only options on a 3x3.
    pub(super) fn refuse_on_3x3(&self) -> Option<anyhow::Result<ExitCode>> {
        match (self.size.unwrap_or(3), self.metric, self.legacy) {
            (3, Some(_), _) => Some(super::refuse("--metric applies to --size 2 only")),
            (3, _, true) => Some(super::refuse("--legacy applies to --size 2 only")),
            _ => None,
        }
    }
}

/// Text output's line for a refused cube (the reason goes to stderr), so that standard output
/// has one line per cube, in the input's order.
pub(crate) const INVALID_LINE: &str = "invalid";

/// Prints one JSON row; rows read from standard input say their line number.
pub(crate) fn print_json(mut row: serde_json::Value, line: Option<usize>) {
    if let (Some(n), Some(fields)) = (line, row.as_object_mut()) {
        fields.insert("line".to_string(), json!(n));
    }
    println!("{row}");
}

/// The cubes of standard input, one a line, with their line numbers (from 1), trimmed; blank
/// lines and comments (`#` and a space, or `#` alone) are skipped: `#` is a colour symbol too,
/// so a cube whose first sticker is `#` is read. A line that is not UTF-8 text is kept with its bad
/// bytes shown as U+FFFD, so it is refused by its line number and the lines after it still read.
pub(crate) fn cube_lines() -> impl Iterator<Item = anyhow::Result<(usize, String)>> {
    (std::io::stdin().lock().split(b'\n').enumerate()).filter_map(|(n, line)| {
        let bytes = match line.context("reading standard input") {
            Ok(bytes) => bytes,
            Err(e) => return Some(Err(e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        let text = typed_cube(&text).to_string();
        if is_comment(&text) {
            warn_if_a_cube(n + 1, &text);
            return None;
        }
        (!text.is_empty()).then_some(Ok((n + 1, text)))
    })
}

/// A cube as typed (an argument or a line), trimmed, without the byte-order mark a file saved
/// by some Windows editors starts with (it is no sticker).
fn typed_cube(text: &str) -> &str {
    text.trim().trim_start_matches('\u{feff}').trim()
}

/// A comment line that holds as many symbols as a cube has stickers, `#` counted, is said:
/// a cube whose first sticker is `#` typed with a space after it is skipped as a comment.
fn warn_if_a_cube(line: usize, text: &str) {
    let symbols = text.chars().filter(|c| !c.is_whitespace()).count();
    if symbols == 54 || symbols == 24 {
        eprintln!(
            "line {line}: skipped as a comment ('#' then a space), though it has {symbols} symbols, as a cube has stickers: were it a cube whose first sticker is '#', write that '#' without a space after it"
        );
    }
}

/// A trimmed input line that is a comment: `#` followed by whitespace, or alone.
fn is_comment(line: &str) -> bool {
    (line.strip_prefix('#'))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// The refusal when no cube was given, neither as arguments nor `--stdin`.
pub(crate) fn no_cube_given(facelets: &[String], stdin: bool) -> Option<anyhow::Result<ExitCode>> {
    (facelets.is_empty() && !stdin).then(|| {
        crate::command_line::refuse("no cube given: give cubes as arguments or use --stdin")
    })
}

/// Runs `one` on each cube given, the arguments first (trimmed), then with `stdin` each cube
/// line of standard input with its line number; exit 2 if `one` refused any (false).
pub(crate) fn each_cube(
    facelets: &[String],
    stdin: bool,
    mut one: impl FnMut(&str, Option<usize>) -> anyhow::Result<bool>,
) -> anyhow::Result<ExitCode> {
    if let Some(refused) = faces_as_arguments(facelets) {
        return refused;
    }
    let mut any_invalid = false;
    for cube in facelets {
        any_invalid |= !one(typed_cube(cube), None)?;
    }
    let mut lines_read = 0;
    if stdin {
        for cube in cube_lines() {
            let (n, line) = cube?;
            any_invalid |= !one(&line, Some(n))?;
            lines_read += 1;
        }
    }
    if stdin && facelets.is_empty() && lines_read == 0 {
        return crate::command_line::refuse(
            "--stdin: no cube on standard input (it was empty, or only blank and comment lines)",
        );
    }
    Ok(match any_invalid {
        true => ExitCode::from(crate::command_line::EXIT_INVALID),
        false => ExitCode::SUCCESS,
    })
}

/// The refusal of a cube typed a face at a time without quotes: six arguments of one face's
/// stickers each (9, or 4 for a 2x2), which the shell split into six cubes.
fn faces_as_arguments(facelets: &[String]) -> Option<anyhow::Result<ExitCode>> {
    let stickers = |a: &String| a.chars().filter(|c| !c.is_whitespace()).count();
    let per_face = facelets.first().map(stickers)?;
    let one_face_each = facelets.len() == 6 && facelets.iter().all(|a| stickers(a) == per_face);
    (one_face_each && [9, 4].contains(&per_face)).then(|| {
        crate::command_line::refuse(format!(
            "six arguments of {per_face} stickers each: a cube typed a face at a time is one \
             argument, so quote it (\"{} …\")",
            facelets[..2].join(" ")
        ))
    })
}

/// A seed from the system clock, for runs that did not ask for one.
pub(crate) fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// ` (…)`: a hint for a cube typed as moves (`R U2 F'`, as `cubed scramble --turns` prints,
/// or `T+ R-` in the 1988 notation), which says how to make them a cube; else empty.
pub(crate) fn moves_hint(text: &str) -> String {
    let symbols = text.chars().filter(|c| !c.is_whitespace()).count();
    // A turn's suffix, or too few symbols to be near a cube: `UUUUUUUUU RRRRRRRRR …` one
    // sticker short also reads as moves, but is a cube typed a face at a time.
    let marked = text.contains(['\'', '’', '2', '+', '-']) || symbols < 20;
    if symbols == 24 || symbols == 54 || !marked {
        return String::new();
    }
    let notation = match () {
        _ if parse_moves(text, Notation::Singmaster).is_ok() => "",
        _ if parse_moves(text, Notation::Woolley).is_ok() => " --notation woolley",
        _ => return String::new(),
    };
    format!(" (this reads as moves, not stickers: make them a cube with `cubed scramble{notation} --moves \"...\"` (and --size 2 for a 2x2), and give that)")
}

/// Said after the refusal (of `kind`) of a cube typed in the 1988 face order or the old 2x2
/// format: the message names faces by Singmaster's letters, where B is the back, not the
/// bottom; else empty.
pub(crate) fn letters_note(typed_in_1988: bool, legacy: bool, kind: &str) -> &'static str {
    match (typed_in_1988 && kind != "wrong_length", legacy) {
        (true, false) => " [faces are named by Singmaster's letters here: U is the top (T), D the bottom (B), B the back (P); F, R and L as typed]",
        (true, true) => " [stickers are named as typed (T F R P L B), corners and faces by Singmaster's letters: U is the top, D the bottom, B the back]",
        (false, _) => "",
    }
}

/// The moves of a `--moves` option, or what is wrong with them: none given, or a symbol that
/// is not a move (with a hint when they read as the other notation).
pub(crate) fn moves_argument(text: &str, notation: Notation) -> Result<Vec<Move>, String> {
    if text.trim().is_empty() {
        return Err(format!(
            "--moves '{text}': no moves given; write them as \"R U F'\""
        ));
    }
    parse_moves(text, notation).map_err(|e| {
        let hinted = matches!(&e, NotationError::UnknownMove { hint, .. } if !hint.is_empty());
        let hint = match notation {
            Notation::Singmaster if !hinted && parse_moves(text, Notation::Woolley).is_ok() => {
                " (these read as the 1988 notation: give --notation woolley)"
            }
            _ => "",
        };
        format!("{}{hint}", error_chain(&e))
    })
}
