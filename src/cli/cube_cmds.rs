//! `cubed check`: cube validation from the command line.

use super::EXIT_INVALID;
use clap::{Args, ValueEnum};
use cubed::cube::{parse_cube, FaceOrder};
use cubed::error_chain::error_chain;
use std::process::ExitCode;

/// Face order of facelet input.
#[derive(Clone, Copy, Debug, ValueEnum, Default)]
#[value(rename_all = "UPPER")]
pub enum OrderArg {
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

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// 54 colour symbols; the centres say which colour is which face.
    pub facelets: String,
    /// Order of the faces in the input.
    #[arg(long, value_enum, default_value_t = OrderArg::Urfdlb)]
    pub order: OrderArg,
    /// Cube size: 3, or 2 for the pocket cube (24 stickers).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub size: u8,
}

/// Prints `ok` or the reason the cube cannot exist (exit 2).
pub fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    if args.size == 2 {
        return Ok(super::pocket_cmds::check(&args.facelets, args.order.into()));
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
