//! `cubed calibrate`: a solved cube's readings (a scan file, a folder of photos, a USB camera) made into a palette file, with how far each colour moved.

use super::vision_cmds::PaletteArgs;
use super::vision_folder::GridArgs;
use crate::command_line::refuse_reading;
use clap::{ArgGroup, Args};
use cubed_vision::light::colour::Rgb;
use cubed_vision::light::palette::{save_palette, PaletteError};
use cubed_vision::read::calibrate::calibrate;
use cubed_vision::scan::pocket::solved_pocket_as_nine;
use cubed_vision::scan_file::{load_pocket_scan, load_scan};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("source").required(true).args(["camera", "images", "scan"])))]
pub(crate) struct CalibrateArgs {
    /// A USB camera (index or name); needs the `camera` feature. Shows one face per capture, URFDLB.
    #[arg(long)]
    pub(crate) camera: Option<String>,
    /// Photos of a solved cube (`U.png … B.png`).
    #[arg(long)]
    pub(crate) images: Option<PathBuf>,
    /// Readings of a solved cube in the scan JSON format.
    #[arg(long)]
    pub(crate) scan: Option<PathBuf>,
    /// The palette to start from (names, symbols, faces are kept): as the daemon reads with it,
    /// unless `--palette` gives one.
    #[command(flatten)]
    pub(crate) palette: PaletteArgs,
    /// Where to write the calibrated palette.
    #[arg(long)]
    pub(crate) output: PathBuf,
    #[command(flatten)]
    pub(crate) grid: GridArgs,
    /// With --images: also say on stderr the grid each photo was read on, as `--corners`
    /// takes it for that face (to fix one found wrong).
    #[arg(long)]
    pub(crate) show_grids: bool,
    /// Cube size: 3, or 2 for the pocket cube (four stickers a face) [default: the
    /// configuration's `[run] cube_size`].
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: Option<u8>,
}

/// A refusal already said, as the command's result.
type Refused = anyhow::Result<ExitCode>;

/// `cubed calibrate`: a solved cube → palette file, with distances before and after.
pub(crate) fn calibrate_cmd(args: CalibrateArgs) -> anyhow::Result<ExitCode> {
    // What the person gave (palette, scan file, photos) is refused with exit 2; a camera
    // that fails is a runtime failure (exit 1).
    let palette = match args.palette.load() {
        Ok(p) => p,
        Err(e) => return super::refuse(format!("{e:#}")),
    };
    let grid_given = !args.grid.corners.is_empty() || args.grid.grid_file.is_some();
    if args.scan.is_some() && (grid_given || args.grid.grid.is_some() || args.show_grids) {
        return super::refuse("--corners, --grid-file, --grid and --show-grids are about where the stickers are in photos; a scan file (--scan) holds their readings already: give them with --images or --camera");
    }
    let edge = args.palette.cube_edge(args.size);
    // What to check first of a grid given by hand, when the photos do not calibrate.
    let mut check_the_grid = None;
    let readings = match solved_readings(&args, edge, &mut check_the_grid) {
        Ok(readings) => readings,
        Err(refused) => return refused,
    };
    let washed = cubed_vision::read::calibrate::washed_out_faces(&readings, &palette);
    if !washed.is_empty() {
        let faces: Vec<String> = washed.iter().map(|f| f.to_string()).collect();
        return refuse_reading(format!("the light washed out faces {} (colours pressed together near full scale, or recorded blank), so their colours would be calibrated wrong: take the photos again with less light or a shorter exposure, then calibrate again (nothing was written)", faces.join(", ")));
    }
    let cal = match calibrate(&readings, &palette) {
        Ok(c) => c,
        Err(e) => {
            if let Some(words) = check_the_grid {
                eprintln!("note: {words}");
            }
            return refuse_reading(cubed_core::error_chain::error_chain(&e));
        }
    };
    // Written whole or not at all (an old palette there is kept if the write fails), before
    // anything is printed as done.
    match save_palette(&args.output, &cal.palette) {
        Err(e @ PaletteError::Unwritable { .. }) => return super::refuse_error(&e),
        written => written?,
    }
    println!(
        "{:<10} {:>6} {:>10} {:>12} {:>12}",
        "colour", "symbol", "scanned on", "ΔE00 before", "ΔE00 after"
    );
    for c in &cal.colours {
        println!(
            "{:<10} {:>6} {:>10} {:>12.2} {:>12.2}",
            c.name, c.symbol, c.face, c.before, c.after
        );
    }
    // A cube scanned held another way: the table says where each colour was, the palette
    // keeps where it belongs.
    let home = |c: &cubed_vision::read::calibrate::CalibratedColour| {
        (cal.palette.colours.iter())
            .find(|p| p.symbol == c.symbol)
            .map(|p| p.home.letter())
    };
    if cal.colours.iter().any(|c| home(c) != Some(c.face)) {
        let homes: Vec<String> = (cal.palette.colours.iter())
            .map(|p| format!("{} on {}", p.name, p.home.letter()))
            .collect();
        println!(
            "the cube was scanned held another way; the palette keeps each colour's home face ({})",
            homes.join(", ")
        );
    }
    let stickers = if edge == 2 { "four" } else { "nine" };
    println!("ΔE00: how far each colour's {stickers} stickers are, on average, from the old and the new reference colour (about 1 is just noticeable; under 3 is a close match)");
    println!("wrote {}", args.output.display());
    if let Some(note) = args.palette.not_the_daemons(&args.output) {
        eprintln!("{note}");
    }
    for wide in cal.wide_spreads() {
        eprintln!("warning: {wide}: light the cube evenly, without glare, and calibrate again");
    }
    if let Some(looks) = &cal.mirrored {
        eprintln!("warning: the colours sit as on no cube that can be held ({looks}): a camera that mirrors its picture, or two opposite faces' photos swapped, would do that (and this palette would have those colours' references swapped); so would a cube whose colour scheme is the palette's mirror image. If it is the picture, fix it and calibrate again");
    }
    Ok(ExitCode::SUCCESS)
}

/// The solved cube's readings from the scan file, photos or camera the arguments give (a 2x2's
/// four a face spread over a 3x3's nine places, as calibration reads them); `check_the_grid`:
/// what to check first of a grid given by hand, should they not calibrate.
fn solved_readings(
    args: &CalibrateArgs,
    edge: u8,
    check_the_grid: &mut Option<String>,
) -> Result<[Rgb; 54], Refused> {
    if let Some(path) = &args.scan {
        let loaded = match edge {
            2 => load_pocket_scan(path).map(|(_, four)| solved_pocket_as_nine(&four)),
            _ => load_scan(path).map(|(_, readings)| readings),
        };
        return loaded.map_err(|e| super::refuse_error(&e));
    }
    let Some(dir) = &args.images else {
        return match cfg!(feature = "camera") {
            true => {
                read_camera(args.camera.as_deref().unwrap_or("0"), &args.grid, edge).map_err(Err)
            }
            // A build choice the person can change: a usage error, not a failure.
            false => Err(super::refuse(NO_CAMERA_SUPPORT)),
        };
    };
    let choice = super::vision_folder::grid_choice(&args.grid, dir)
        .map_err(|e| super::refuse(format!("{e:#}")))?;
    let shown = args.show_grids;
    *check_the_grid = super::vision_cmds::given_grid_words(&choice, shown);
    let read = match edge {
        2 => super::vision_folder::read_pocket_folder(dir, &choice)
            .map(|(four, grids)| (solved_pocket_as_nine(&four), grids)),
        _ => super::vision_folder::read_folder(dir, &choice).map(|r| (r.readings, r.grids)),
    };
    match read {
        Ok((readings, grids)) => {
            if shown {
                super::vision_folder::say_grids(&grids);
            }
            Ok(readings)
        }
        Err(e) => {
            if shown {
                super::vision_folder::say_grids_after_refusal(dir, &choice);
            }
            if let Some(words) = super::vision_cmds::off_a_given_grid(&e, &choice, shown) {
                eprintln!("note: {words}");
            }
            Err(refuse_reading(format!("{e:#}")))
        }
    }
}

#[cfg(feature = "camera")]
fn read_camera(device: &str, grid: &GridArgs, edge: u8) -> anyhow::Result<[Rgb; 54]> {
    use super::vision_folder::grid_choice;
    use cubed_vision::camera::nokhwa::{UsbCamera, UsbCameraConfig};
    use cubed_vision::camera::Camera;
    use cubed_vision::grid::sample::SampleOptions;
    use cubed_vision::scan::{capture_faces, plain_plan};
    use std::path::Path;
    let mut camera = UsbCamera::open(&UsbCameraConfig {
        device: device.into(),
        ..UsbCameraConfig::default()
    })?;
    eprintln!("{}: {}", camera.describe(), camera.lock_report.summary());
    eprintln!("show the faces U R F D L B in turn, each in net orientation; press Enter for each");
    let choice = grid_choice(grid, Path::new("."))?;
    let mut photos = Vec::new();
    for request in plain_plan() {
        eprintln!("face {} then Enter", request.face);
        let mut line = String::new();
        std::io::stdin().read_line(&mut line)?;
        photos.extend(capture_faces(&mut camera, &[request])?);
    }
    let sampling = SampleOptions::default();
    Ok(match edge {
        2 => solved_pocket_as_nine(&cubed_vision::scan::pocket::read_pocket_photos(
            &photos, &choice, &sampling,
        )?),
        _ => cubed_vision::scan::read_photos(&photos, &choice, &sampling)?,
    })
}

/// Why a build without the `camera` feature cannot use a webcam.
const NO_CAMERA_SUPPORT: &str = "this cubed was built without USB cameras: rebuild with `--features camera` (needs the Debian package libclang1-14)";

#[cfg(not(feature = "camera"))]
fn read_camera(_device: &str, _grid: &GridArgs, _edge: u8) -> anyhow::Result<[Rgb; 54]> {
    anyhow::bail!(NO_CAMERA_SUPPORT)
}
