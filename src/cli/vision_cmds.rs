//! `cubed classify`, `cubed scan`, `cubed calibrate`: reading colours from the command line (readings JSON, photo folders, cameras).

use super::vision_folder::GridArgs;
use super::EXIT_INVALID;
use crate::daemon::config::palette_choice::{
    calibrated_palette_file, choose_palette, PaletteOrigin,
};
use crate::daemon::config::DaemonConfig;
use clap::{Args, ValueEnum};
use cubed_core::cube::Face;
use cubed_core::error_chain::error_chain;
use cubed_files::named_file::is_built_in;
use cubed_vision::camera::Retake;
use cubed_vision::light::colour::Rgb;
use cubed_vision::light::palette::{load_palette, Palette};
use cubed_vision::read::advice::{light_for_advice, what_to_do};
use cubed_vision::read::classify::{classify, Classification, ClassifyError, ClassifyOptions};
use cubed_vision::scan::{GridChoice, PhotoReadings, ScanError};
use cubed_vision::scan_file::{load_scan, save_scan, ScanFile, ScanFileError};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum, Default, PartialEq)]
pub(crate) enum OutputFormat {
    #[default]
    Text,
    Json,
}

/// Which palette reads the colours: as the daemon chooses it, unless one is given.
#[derive(Args, Debug, Clone)]
pub(crate) struct PaletteArgs {
    /// Palette of valid colours (default: as the daemon chooses it: the one calibrated into its
    /// data directory, else its config's `[vision] palette`; said on stderr, as in `cubed config
    /// show`).
    #[arg(long)]
    pub(crate) palette: Option<PathBuf>,
    /// The daemon's configuration, for its palette and data directory (default: found as `cubed
    /// run` finds it).
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// The daemon's data directory (as `cubed run --data-dir`), for a palette calibrated there.
    #[arg(long)]
    pub(crate) data_dir: Option<PathBuf>,
}

impl PaletteArgs {
    /// The palette chosen and loaded; says on stderr which it is ("cubed: palette PATH (why)").
    pub(super) fn load(&self) -> anyhow::Result<Palette> {
        let config = self.config()?;
        let chosen = choose_palette(self.palette.as_deref(), &config);
        eprintln!("cubed: palette {}", chosen.describe(&config));
        load_palette(&chosen.path).map_err(|e| anyhow::anyhow!("{}", error_chain(&e)))
    }

    /// The daemon's configuration as these options see it (its data directory overridden).
    fn config(&self) -> anyhow::Result<DaemonConfig> {
        let (mut config, _) =
            crate::daemon::config::search::discover_config(self.config.as_deref())
                .map_err(|e| anyhow::anyhow!("{}", error_chain(&e)))?;
        if let Some(dir) = &self.data_dir {
            config.data_dir = dir.clone();
        }
        Ok(config)
    }

    /// The cube's edge: `given` (`--size`), else the configuration's `[run] cube_size` (the
    /// daemon's, found as it finds it, or `--config`), as `plan` and `exec` take it.
    pub(super) fn cube_edge(&self, given: Option<u8>) -> u8 {
        let configured = given.is_none().then(|| self.config().ok()).flatten();
        super::design_choice::cube_edge(given, configured.map(|c| c.cube_size))
    }

    /// A note when `written` is not the palette the daemon reads with: which one it reads, and
    /// how to make it this one.
    pub(super) fn not_the_daemons(&self, written: &Path) -> Option<String> {
        let config = self.config().ok()?;
        let daemons = choose_palette(None, &config);
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => a == b,
        };
        if same(&daemons.path, written) {
            return None;
        }
        let how = match daemons.origin {
            PaletteOrigin::Calibrated => format!(
                "a palette calibrated into the data directory wins over [vision] palette: write it there (--output {}) or remove that one",
                daemons.path.display()
            ),
            _ if is_built_in(&config.file) => format!(
                "no configuration file was found (it runs on the built-in one), so to read with it write it into the daemon's data directory (--output {}), where it wins over the built-in palette",
                calibrated_palette_file(&config).display()
            ),
            _ => format!("to read with it, set [vision] palette in {}", config.file.display()),
        };
        Some(format!(
            "note: the daemon reads with {}, not with this file; {how}",
            daemons.describe(&config)
        ))
    }
}

/// Options shared by the commands that classify.
#[derive(Args, Debug, Clone)]
pub(crate) struct ClassifyFlags {
    #[command(flatten)]
    pub(crate) palette: PaletteArgs,
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub(crate) format: OutputFormat,
    /// The least calibrated probability (0 up to, not including, 1) of being read right a sticker must have; less sure stickers make the result "unsure".
    #[arg(long, default_value_t = ClassifyOptions::default().min_confidence)]
    pub(crate) min_confidence: f32,
    /// Also write the readings in the scan JSON format (a regression test for later).
    #[arg(long)]
    pub(crate) dump: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct ClassifyArgs {
    /// Readings: `{"faces": {"U": [[r,g,b] x 9], …}}`, faces URFDLB, each row by row in net
    /// orientation (four a face with --size 2).
    #[arg(long)]
    pub(crate) scan: PathBuf,
    /// Cube size: 3, or 2 for the pocket cube (four readings a face) [default: the
    /// configuration's `[run] cube_size`].
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: Option<u8>,
    #[command(flatten)]
    pub(crate) flags: ClassifyFlags,
}

#[derive(Args, Debug)]
pub(crate) struct ScanArgs {
    /// Folder with `U.png … B.png` (or six frames in URFDLB order), each in net orientation.
    #[arg(long)]
    pub(crate) images: PathBuf,
    /// Cube size: 3, or 2 for the pocket cube (a 2x2 grid found in each photo) [default: the
    /// configuration's `[run] cube_size`].
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: Option<u8>,
    #[command(flatten)]
    pub(crate) grid: GridArgs,
    /// Also say on stderr the grid each photo was read on, as `--corners` takes it (to fix a
    /// grid found automatically, or to check one).
    #[arg(long)]
    pub(crate) show_grids: bool,
    #[command(flatten)]
    pub(crate) flags: ClassifyFlags,
}

/// A refusal in the requested format (JSON on stdout, text on stderr), exit status 2.
pub(super) fn refuse(
    format: OutputFormat,
    kind: &str,
    message: &str,
    unsure: &[usize],
) -> ExitCode {
    match format {
        OutputFormat::Json => {
            println!(
                "{}",
                json!({"error": {"kind": kind, "message": message}, "unsure": unsure,
                       "unsure_names": names_of(unsure)})
            );
        }
        // The kind is for programs (JSON); a person reads the message.
        OutputFormat::Text => eprintln!("refused: {message}"),
    }
    ExitCode::from(EXIT_INVALID)
}

/// Stickers by name as the text output gives them (`U6`), for `unsure`'s 0-based indexes.
fn names_of(stickers: &[usize]) -> Vec<String> {
    stickers
        .iter()
        .map(|&s| cubed_core::cube::sticker_names(&[s], 9))
        .collect()
}

/// An unsure reading refused, exit status 2, with the stickers in doubt by the colour each
/// was read as, what to do about them, and the best guess (not to be acted on: a person may
/// check it against the cube).
fn refuse_unsure(
    (format, grid): (OutputFormat, Option<&str>),
    e: &ClassifyError,
    readings: &[Rgb; 54],
    (palette, min_confidence): (&Palette, f32),
) -> ExitCode {
    let ClassifyError {
        stickers,
        doubt,
        best_guess: guess,
        ..
    } = e;
    // The command line reads photos and readings it is given: taking them again is the
    // person's part, as for a folder of photos.
    let light = light_for_advice(readings, stickers, (&**guess, palette));
    let advice = what_to_do(*doubt, light, Retake::SamePhoto);
    // A photo turned by mistake makes a cube that cannot be read for sure: say which, if one
    // does, first, even where the light would explain the doubt too: turned back, the same
    // pixels in the same light read sure, so the light was enough.
    let options = ClassifyOptions {
        min_confidence,
        ..ClassifyOptions::default()
    };
    let turned = cubed_vision::read::turned::photo_mistake_words(readings, palette, &options);
    match format {
        OutputFormat::Json => println!(
            "{}",
            json!({"error": {"kind": e.kind(), "message": error_chain(e)}, "unsure": stickers,
                   "unsure_names": names_of(stickers), "advice": advice, "turned": turned,
                   "grid_given": grid, "best_guess": guess.symbols(),
                   "error_probability": guess.error_probability()})
        ),
        OutputFormat::Text => {
            eprintln!("refused: {}", error_chain(e));
            eprintln!(
                "in doubt, as the best guess reads them: {}",
                by_colour(stickers, guess, palette)
            );
            // A turned photo explains the refusal better than the light does, and a grid given
            // by hand better than the cube: said first.
            let first = [turned.as_deref(), grid].into_iter().flatten();
            for (n, words) in first.chain([advice]).enumerate() {
                let lead = if n == 0 { "what to do" } else { "otherwise" };
                eprintln!("{lead}: {words}");
            }
            let sure = if guess.least_gap() <= 0.0 {
                // The calibration's floor would read as a real chance: say what it means.
                "no confidence: another reading is as good".to_string()
            } else {
                format!("calibrated confidence {:.3}", guess.confidence())
            };
            eprintln!("best guess (not given; {sure}): {}", guess.symbols());
        }
    }
    ExitCode::from(EXIT_INVALID)
}

/// "white U6, F2; yellow F4": the stickers grouped by the palette colour each was read as.
fn by_colour(stickers: &[usize], guess: &Classification, palette: &Palette) -> String {
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for &s in stickers {
        let colour = guess.names[guess.facelets.stickers[s].index()];
        match groups.iter_mut().find(|(c, _)| *c == colour) {
            Some((_, members)) => members.push(s),
            None => groups.push((colour, vec![s])),
        }
    }
    groups
        .iter()
        .map(|(colour, members)| {
            let name = palette
                .colours
                .get(*colour)
                .map_or("?", |c| c.name.as_str());
            format!("{name} {}", cubed_core::cube::sticker_names(members, 9))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `cubed classify`: readings JSON → facelets.
pub(crate) fn classify_cmd(args: ClassifyArgs) -> anyhow::Result<ExitCode> {
    let (file, readings) = match load_scan(&args.scan) {
        Ok(x) => x,
        Err(e) => {
            return Ok(refuse(
                args.flags.format,
                "invalid_scan",
                &error_chain(&e),
                &[],
            ))
        }
    };
    classify_and_print((&readings, &[]), &args.flags, (file.id.clone(), None))
}

/// Classifies readings and prints the result (or the refusal).
/// Classifies and prints `readings`; faces whose tops were in doubt (`tops`, photos turned by
/// about 45 degrees) are settled by the cube's rules first, and said so on stderr. `--dump`
/// writes the readings (scan `id`) first, and again as settled.
/// `grid` says what to check first of a grid given, if one was (`given_grid_words`).
pub(crate) fn classify_and_print(
    (readings, tops): (&[Rgb; 54], &[(Face, u8)]),
    flags: &ClassifyFlags,
    (id, grid): (Option<String>, Option<&str>),
) -> anyhow::Result<ExitCode> {
    let dump = |readings: &[Rgb; 54]| match &flags.dump {
        Some(path) => save_scan(path, &ScanFile::from_readings(id.clone(), readings)),
        None => Ok(()),
    };
    match dump(readings) {
        Err(e @ ScanFileError::NotAScan { .. }) => {
            return Ok(refuse(
                flags.format,
                "invalid_argument",
                &e.to_string(),
                &[],
            ))
        }
        written => written?,
    }
    let (palette, options) = match flags.reading_setup() {
        Ok(setup) => setup,
        Err(refused) => return Ok(refused),
    };
    let settled = cubed_vision::read::turned::settle_tops(readings, tops, &palette, &options);
    if let Some(settled) = &settled {
        eprintln!("{}", cubed_vision::read::turned::settled_words(tops));
        dump(settled)?;
    }
    let readings = settled.as_ref().unwrap_or(readings);
    match classify(readings, &palette, &options) {
        Ok(c) => {
            let rounded = |v: &[f32; 54], digits: f64| -> Vec<f64> {
                v.iter()
                    .map(|&x| (x as f64 * digits).round() / digits)
                    .collect()
            };
            let confidence = rounded(&c.sticker_confidence(), 1e6);
            let gaps = rounded(&c.gaps.map(|g| g.min(1.0e6)), 100.0);
            match flags.format {
                OutputFormat::Json => println!(
                    "{}",
                    json!({"facelets": c.symbols(), "confidence": confidence, "gaps": gaps,
                           "error_probability": c.error_probability()})
                ),
                OutputFormat::Text => print_text(&c),
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ ClassifyError { .. }) => Ok(refuse_unsure(
            (flags.format, grid),
            &e,
            readings,
            (&palette, flags.min_confidence),
        )),
    }
}

impl ClassifyFlags {
    /// The palette and the classifier's options these flags give, or their refusal (exit 2) in
    /// the requested format: a palette that does not load, a `--min-confidence` outside 0..1.
    pub(super) fn reading_setup(&self) -> Result<(Palette, ClassifyOptions), ExitCode> {
        let palette = (self.palette.load())
            .map_err(|e| refuse(self.format, "invalid_palette", &format!("{e:#}"), &[]))?;
        if !(0.0..1.0).contains(&self.min_confidence) {
            let why = format!(
                "--min-confidence {} is outside 0..1 (a probability of being read right; 1 is never reached, as no reading is certain)",
                self.min_confidence
            );
            return Err(refuse(self.format, "invalid_argument", &why, &[]));
        }
        let options = ClassifyOptions {
            min_confidence: self.min_confidence,
            ..ClassifyOptions::default()
        };
        Ok((palette, options))
    }
}

/// The facelets on standard output (what `| cubed solve --stdin` reads); the faces and how
/// sure the reading is, for the person, on standard error.
fn print_text(c: &Classification) {
    let symbols = c.symbols();
    println!("{symbols}");
    // By characters: a palette's symbols may be any (`é`, `★`), not only ASCII letters.
    let chars: Vec<char> = symbols.chars().collect();
    for (face, row) in chars.chunks(9).enumerate() {
        let rows: Vec<String> = row.chunks(3).map(|r| r.iter().collect()).collect();
        eprintln!("  {} {}", Face::from_index(face), rows.join(" "));
    }
    let mut order: Vec<usize> = (0..54).filter(|s| s % 9 != 4).collect();
    order.sort_by(|a, b| c.gaps[*a].total_cmp(&c.gaps[*b]));
    let least: Vec<String> = order
        .iter()
        .take(4)
        .map(|&s| format!("{}{} {:.2}", Face::from_index(s / 9), s % 9 + 1, c.gaps[s]))
        .collect();
    eprintln!(
        "chance of being wrong: {:.4} %; least sure, by how much worse the nearest other \
         reading fits (colour difference, CIEDE2000 plus chromaticity): {}; naming the colours \
         otherwise: {:.2}",
        100.0 * c.error_probability(),
        least.join(", "),
        c.naming_gap()
    );
}

/// What to check first when photos read with a grid given are refused: that grid, where it
/// was given (a grid off the stickers reads what is not the cube's).
pub(super) fn given_grid_words(choice: &GridChoice, show_grids: bool) -> Option<String> {
    let faces = choice.given_faces();
    let given = match choice {
        GridChoice::Auto => return None,
        GridChoice::Fixed(_) => {
            "the grid given for every photo (--corners or a grid file)".to_string()
        }
        GridChoice::PerFace(_) if faces.len() == 6 => {
            "the grid given for each face (--corners)".to_string()
        }
        GridChoice::PerFace(_) => {
            let names: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
            let noun = if faces.len() == 1 { "face" } else { "faces" };
            format!(
                "the grid given for {noun} {} (--corners; the others' were found)",
                names.join(", ")
            )
        }
    };
    let shown = match show_grids {
        true => "",
        false => " (--show-grids shows each photo's)",
    };
    Some(format!(
        "check {given}: where it is off the stickers, what is read there is not the cube{shown}"
    ))
}

/// What to check of a grid given, when `e` (reading the photos) is a face's stickers not read
/// where its grid was given: likely off them.
pub(super) fn off_a_given_grid(
    e: &anyhow::Error,
    choice: &GridChoice,
    show_grids: bool,
) -> Option<String> {
    match e.downcast_ref::<ScanError>() {
        Some(ScanError::Sample { face, .. }) if choice.given(*face).is_some() => {
            given_grid_words(choice, show_grids)
        }
        _ => None,
    }
}

/// `cubed scan`: six photos → facelets.
pub(crate) fn scan_cmd(args: ScanArgs) -> anyhow::Result<ExitCode> {
    let choice = match super::vision_folder::grid_choice(&args.grid, &args.images) {
        Ok(choice) => choice,
        Err(e) => {
            let why = format!("{e:#}");
            return Ok(refuse(args.flags.format, "invalid_argument", &why, &[]));
        }
    };
    let PhotoReadings {
        readings,
        tops,
        grids,
    } = match super::vision_folder::read_folder(&args.images, &choice) {
        Ok(r) => r,
        Err(e) => {
            let mut why = format!("{e:#}");
            if args.show_grids {
                super::vision_folder::say_grids_after_refusal(&args.images, &choice);
            } else if why.contains("the grid is off") {
                why.push_str(" (`--show-grids` shows the grid each photo is read with)");
            }
            if let Some(words) = off_a_given_grid(&e, &choice, args.show_grids) {
                eprintln!("note: {words}");
            }
            return Ok(refuse(args.flags.format, "unreadable_photos", &why, &[]));
        }
    };
    if args.show_grids {
        super::vision_folder::say_grids(&grids);
    }
    let id = (args.images.file_name()).map(|n| n.to_string_lossy().into_owned());
    let grid = given_grid_words(&choice, args.show_grids);
    classify_and_print((&readings, &tops), &args.flags, (id, grid.as_deref()))
}
