//! `cubed check`: cube validation from the command line, of cubes given as arguments or one
//! a line on standard input.

use super::cube_args::{each_cube, moves_hint, no_cube_given, print_json, FormatArg, OrderArg};
use clap::Args;
use cubed_core::cube::parse_cube;
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::{parse_pocket, PocketFormat};
use serde_json::json;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// Cubes as 54 colour symbols each; the centres say which colour is which face.
    pub(crate) facelets: Vec<String>,
    /// Read one cube per line from standard input (blank lines and comments, `#` followed by
    /// a space or alone, are skipped: `#` may be a colour). Text output has one line per cube
    /// in order: `ok`, or `invalid: line N: ` and the reason; --format json gives
    /// `{"facelets", "ok": true}` or an `error` with `kind` and `message`, each with its
    /// `line`.
    #[arg(long)]
    pub(crate) stdin: bool,
    /// Order of the faces in the input (--legacy has its own: T F R P L B).
    #[arg(long, value_enum, default_value_t = OrderArg::Urfdlb, conflicts_with = "legacy")]
    pub(crate) order: OrderArg,
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub(crate) format: FormatArg,
    /// Cube size: 3, or 2 for the pocket cube (24 stickers).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: u8,
    /// With --size 2: the cube in the old 2x2 solver's format, 24 letters y g w b r o in the
    /// face order T F R P L B (instead of the URFDLB order).
    #[arg(long)]
    pub(crate) legacy: bool,
}

/// Prints `ok` or the reason each cube cannot exist; exit 2 if any cannot.
pub(crate) fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    if args.legacy && args.size == 3 {
        return super::refuse("--legacy applies to --size 2 only");
    }
    if let Some(refused) = no_cube_given(&args.facelets, args.stdin) {
        return refused;
    }
    each_cube(&args.facelets, args.stdin, |text, line| {
        Ok(check_one(&args, text, line))
    })
}

/// Prints one cube's verdict; false if it cannot exist.
fn check_one(args: &CheckArgs, text: &str, line: Option<usize>) -> bool {
    let verdict = match args.size {
        2 => check_pocket(text, pocket_format(args)),
        _ => parse_cube(text, args.order.into(), None)
            .map(|_| ())
            .map_err(|e| {
                let message = error_chain(&e);
                (e.kind().to_string(), message)
            }),
    };
    let in_1988 = args.legacy || matches!(args.order, OrderArg::Tfrplb);
    let verdict = verdict.map_err(|(kind, message)| {
        let note = super::cube_args::letters_note(in_1988, args.legacy, &kind);
        (kind, message + &moves_hint(text) + note)
    });
    match (args.format, &verdict) {
        (FormatArg::Text, Ok(())) => println!("ok"),
        (FormatArg::Text, Err((_, message))) => match line {
            Some(n) => println!("invalid: line {n}: {message}"),
            None => println!("invalid: {message}"),
        },
        (FormatArg::Json, Ok(())) => print_json(json!({"facelets": text, "ok": true}), line),
        (FormatArg::Json, Err((kind, message))) => print_json(
            json!({"facelets": text, "ok": false, "error": {"kind": kind, "message": message}}),
            line,
        ),
    }
    verdict.is_ok()
}

fn pocket_format(args: &CheckArgs) -> PocketFormat {
    match args.legacy {
        true => PocketFormat::Legacy,
        false => PocketFormat::Facelets(args.order.into()),
    }
}

/// A 2x2's verdict: Err with the kind of fault and the reason, in the input's terms.
fn check_pocket(text: &str, format: PocketFormat) -> Result<(), (String, String)> {
    parse_pocket(text, format, None)
        .map(|_| ())
        .map_err(|e| (e.kind().to_string(), format.in_input_terms(&e.to_string())))
}
