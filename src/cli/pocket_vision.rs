//! `cubed classify --size 2` and `cubed scan --size 2`: a 2x2's 24 readings (four a face, row by row) or six photos read as the daemon reads a pocket cube, with the same output, refusals and options as the 3x3.

use super::vision_cmds::{refuse, ClassifyFlags, OutputFormat, ScanArgs};
use cubed_core::cube::{sticker_names, Face};
use cubed_core::error_chain::error_chain;
use cubed_vision::light::colour::Rgb;
use cubed_vision::read::pocket::{classify_pocket, PocketClassification, PocketClassifyError};
use cubed_vision::scan_file::{load_pocket_scan, save_scan, ScanFile};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// Stickers on a face of a 2x2.
const PER_FACE: usize = 4;

/// `cubed classify --size 2 --scan FILE`.
pub(crate) fn classify_pocket_cmd(scan: &Path, flags: &ClassifyFlags) -> anyhow::Result<ExitCode> {
    match load_pocket_scan(scan) {
        Ok((file, readings)) => classify_and_print(&readings, flags, file.id.clone()),
        Err(e) => Ok(refuse(flags.format, "invalid_scan", &error_chain(&e), &[])),
    }
}

/// `cubed scan --size 2 --images DIR`.
pub(crate) fn scan_pocket_cmd(args: &ScanArgs) -> anyhow::Result<ExitCode> {
    let format = args.flags.format;
    let choice = match super::vision_folder::grid_choice(&args.grid, &args.images) {
        Ok(choice) => choice,
        Err(e) => return Ok(refuse(format, "invalid_argument", &format!("{e:#}"), &[])),
    };
    let (readings, grids) = match super::vision_folder::read_pocket_folder(&args.images, &choice) {
        Ok(read) => read,
        Err(e) => return Ok(refuse(format, "unreadable_photos", &format!("{e:#}"), &[])),
    };
    if args.show_grids {
        super::vision_folder::say_grids(&grids);
    }
    let id = (args.images.file_name()).map(|n| n.to_string_lossy().into_owned());
    classify_and_print(&readings, &args.flags, id)
}

/// Classifies a 2x2's readings and prints the cube (or the refusal, naming the stickers);
/// `--dump` writes the readings first.
fn classify_and_print(
    readings: &[Rgb; 24],
    flags: &ClassifyFlags,
    id: Option<String>,
) -> anyhow::Result<ExitCode> {
    if let Some(path) = &flags.dump {
        if let Err(e) = save_scan(path, &ScanFile::from_readings(id, readings)) {
            return Ok(refuse(
                flags.format,
                "invalid_argument",
                &error_chain(&e),
                &[],
            ));
        }
    }
    let (palette, options) = match flags.reading_setup() {
        Ok(setup) => setup,
        Err(refused) => return Ok(refused),
    };
    match classify_pocket(readings, &palette, &options) {
        Ok(cube) => {
            print_cube(flags.format, &cube);
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Ok(refuse_unsure(flags.format, &e)),
    }
}

fn print_cube(format: OutputFormat, cube: &PocketClassification) {
    let confidence: Vec<f64> = (cube.sticker_confidence().iter())
        .map(|&c| (f64::from(c) * 1e6).round() / 1e6)
        .collect();
    match format {
        OutputFormat::Json => println!(
            "{}",
            json!({"facelets": cube.symbols(), "confidence": confidence,
                   "error_probability": cube.error_probability()})
        ),
        OutputFormat::Text => {
            let symbols: Vec<char> = cube.symbols().chars().collect();
            println!("{}", symbols.iter().collect::<String>());
            for (face, four) in symbols.chunks(PER_FACE).enumerate() {
                let rows: Vec<String> = four.chunks(2).map(|r| r.iter().collect()).collect();
                eprintln!("  {} {}", Face::from_index(face), rows.join(" "));
            }
            eprintln!(
                "chance of being wrong: {:.4} %",
                100.0 * cube.error_probability()
            );
        }
    }
}

/// An unsure 2x2 refused, exit status 2: the stickers in doubt by name, and the best guess
/// (not to be acted on: a person may check it against the cube).
fn refuse_unsure(format: OutputFormat, e: &PocketClassifyError) -> ExitCode {
    let names: Vec<String> = (e.stickers.iter())
        .map(|&s| sticker_names(&[s], PER_FACE))
        .collect();
    match format {
        OutputFormat::Json => println!(
            "{}",
            json!({"error": {"kind": e.kind(), "message": error_chain(e)}, "unsure": e.stickers,
                   "unsure_names": names, "best_guess": e.best_guess.symbols(),
                   "error_probability": e.best_guess.error_probability()})
        ),
        OutputFormat::Text => {
            eprintln!("refused: {}", error_chain(e));
            eprintln!(
                "best guess, not given: {} (stickers in doubt: {})",
                e.best_guess.symbols(),
                names.join(", ")
            );
        }
    }
    ExitCode::from(super::EXIT_INVALID)
}
