//! `cubed check`: cube validation from the command line.

use super::cube_args::OrderArg;
use super::EXIT_INVALID;
use clap::Args;
use cubed_core::cube::parse_cube;
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::{parse_pocket, PocketFormat};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// 54 colour symbols; the centres say which colour is which face.
    pub(crate) facelets: String,
    /// Order of the faces in the input.
    #[arg(long, value_enum, default_value_t = OrderArg::Urfdlb)]
    pub(crate) order: OrderArg,
    /// Cube size: 3, or 2 for the pocket cube (24 stickers).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: u8,
    /// With --size 2: the cube in the old 2x2 solver's format, 24 letters y g w b r o in the
    /// face order T F R P L B (instead of the URFDLB order).
    #[arg(long)]
    pub(crate) legacy: bool,
}

/// Prints `ok` or the reason the cube cannot exist (exit 2).
pub(crate) fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    if args.size == 2 {
        let format = match args.legacy {
            true => PocketFormat::Legacy,
            false => PocketFormat::Facelets(args.order.into()),
        };
        return Ok(check_pocket(&args.facelets, format));
    }
    if args.legacy {
        return super::refuse("--legacy applies to --size 2 only");
    }
    match parse_cube(&args.facelets, args.order.into(), None) {
        Ok(_) => {
            println!("ok");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("invalid: {}", error_chain(&e));
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}

/// `cubed check --size 2`: prints `ok` or the reason (exit 2).
pub(crate) fn check_pocket(text: &str, format: PocketFormat) -> ExitCode {
    match parse_pocket(text, format, None) {
        Ok(_) => {
            println!("ok");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("invalid: {}", format.in_input_terms(&e.to_string()));
            ExitCode::from(EXIT_INVALID)
        }
    }
}
