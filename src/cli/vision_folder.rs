//! Where `scan` and `calibrate` find a folder's stickers: the grid the arguments ask for (found, `--corners`, a grid file), the six photos read (a seventh frame refused, a photo not named after a face said), and the grids said back as `--corners` takes them.

use anyhow::Context;
use clap::{Args, ValueEnum};
use cubed_core::cube::Face;
use cubed_vision::camera::image_dir::ImageDirCamera;
use cubed_vision::grid::face_grid::FaceGrid;
use cubed_vision::grid::file::{load_grid, parse_corners};
use cubed_vision::grid::sample::SampleOptions;
use cubed_vision::scan::{
    capture_faces, plain_plan, read_photos_with_tops, FacePhoto, GridChoice, PhotoReadings,
};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, ValueEnum, Default, PartialEq)]
pub(crate) enum GridMode {
    /// Find the sticker grid in each photo.
    #[default]
    Auto,
    /// Use the configured grid (`--corners` or `--grid-file`, else `grid.toml` in the folder).
    Config,
}

/// How photos are located in a folder of images.
#[derive(Args, Debug, Clone)]
pub(crate) struct GridArgs {
    /// Where the stickers are: found in each photo (`auto`, the default), or configured.
    #[arg(long, value_enum)]
    pub(crate) grid: Option<GridMode>,
    /// Face corners, the same in every photo: "x,y x,y x,y x,y" (top-left, top-right, bottom-right, bottom-left); implies `--grid config`.
    #[arg(long)]
    pub(crate) corners: Option<String>,
    /// A grid file (`corners = [[x, y] x 4]`); implies `--grid config`.
    #[arg(long)]
    pub(crate) grid_file: Option<PathBuf>,
}

/// The grid the arguments ask for in `dir`.
/// `--corners` or `--grid-file` mean the configured grid even without `--grid config`.
pub(super) fn grid_choice(args: &GridArgs, dir: &Path) -> anyhow::Result<GridChoice> {
    if let (Some(_), Some(_)) = (&args.corners, &args.grid_file) {
        anyhow::bail!("give --corners or --grid-file, not both");
    }
    let configured = args.corners.is_some() || args.grid_file.is_some();
    if configured && args.grid == Some(GridMode::Auto) {
        anyhow::bail!("--grid auto finds the grid in each photo: give it without --corners or --grid-file, or give those without it");
    }
    if let Some(text) = &args.corners {
        return parse_corners_arg(text).map(GridChoice::Fixed);
    }
    if let Some(path) = &args.grid_file {
        return Ok(GridChoice::Fixed(load_grid(path)?));
    }
    if args.grid.unwrap_or_default() == GridMode::Auto {
        return Ok(GridChoice::Auto);
    }
    let path = dir.join("grid.toml");
    let grid = load_grid(&path).with_context(|| {
        format!(
            "--grid config without --corners or --grid-file reads {}",
            path.display()
        )
    })?;
    Ok(GridChoice::Fixed(grid))
}

fn parse_corners_arg(text: &str) -> anyhow::Result<cubed_vision::grid::face_grid::FaceGrid> {
    let numbers: Vec<f64> = text
        .split(|c: char| c == ',' || c.is_whitespace() || c == ';')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<f64>()
                .with_context(|| format!("--corners: {s:?} is not a number"))
        })
        .collect::<anyhow::Result<_>>()?;
    anyhow::ensure!(
        numbers.len() == 8,
        "--corners needs 4 points \"x,y x,y x,y x,y\", got {} number(s), {}",
        numbers.len(),
        match numbers.len() % 2 {
            0 => format!("{} point(s)", numbers.len() / 2),
            _ => "an x without its y".to_string(),
        }
    );
    let corners = std::array::from_fn(|i| [numbers[2 * i], numbers[2 * i + 1]]);
    parse_corners(corners).map_err(|p| anyhow::anyhow!("--corners: {p}"))
}

/// Reads the six photos of a folder, and names the faces whose tops are in doubt.
pub(super) fn read_folder(dir: &Path, choice: &GridChoice) -> anyhow::Result<PhotoReadings> {
    let photos = folder_photos(dir)?;
    let sampling = SampleOptions::for_kept_photos();
    Ok(read_photos_with_tops(&photos, choice, &sampling)?)
}

/// The folder's six photos, one a face (named after it, or six frames in URFDLB order).
pub(super) fn folder_photos(dir: &Path) -> anyhow::Result<Vec<FacePhoto>> {
    let mut camera = ImageDirCamera::open(dir)?;
    let left_over = camera.left_over_by_one_scan();
    let names = || {
        let names: Vec<String> = (left_over.iter())
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        names.join(", ")
    };
    if !left_over.is_empty() && !camera.named_by_face() {
        anyhow::bail!(
            "{} holds {} frames and a scan reads six, one per face in URFDLB order: remove the \
             others ({}), or name the six photos U.png … B.png",
            dir.display(),
            6 + left_over.len(),
            names()
        );
    }
    if !left_over.is_empty() {
        eprintln!("not read (not named after a face): {}", names());
    }
    if !camera.named_by_face() && camera.photo_count() == 6 {
        let taken: Vec<String> = (camera.frames().iter().zip(Face::ALL))
            .map(|(path, face)| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                format!("{name} as {face}")
            })
            .collect();
        eprintln!(
            "no photo is named after a face (U.png, front.jpg…): read in name order, {}",
            taken.join(", ")
        );
    }
    Ok(capture_faces(&mut camera, &plain_plan())?)
}

/// Each photo's grid on stderr, as `--corners` takes it (to fix a grid found automatically).
pub(super) fn say_grids(grids: &[FaceGrid]) {
    for (face, grid) in Face::ALL.iter().zip(grids) {
        say_grid(*face, grid);
    }
}

fn say_grid(face: Face, grid: &FaceGrid) {
    let corners: Vec<String> = (grid.corners.iter())
        .map(|[x, y]| format!("{x:.0},{y:.0}"))
        .collect();
    let points: Vec<String> = (grid.corners.iter())
        .map(|[x, y]| format!("[{x:.0}, {y:.0}]"))
        .collect();
    eprintln!(
        "grid of face {face}: --corners \"{}\" ([camera] grid = [{}])",
        corners.join(" "),
        points.join(", ")
    );
}

/// After a refusal, each photo's grid as far as one is found (`--show-grids`: to see which
/// face's grid went wrong), or why none is.
pub(super) fn say_grids_after_refusal(dir: &Path, choice: &GridChoice) {
    let Ok(photos) = folder_photos(dir) else {
        return;
    };
    for photo in &photos {
        let found = match choice {
            GridChoice::Fixed(grid) => Ok(*grid),
            GridChoice::Auto => cubed_vision::grid::finder::find_grid(&photo.image),
        };
        match found {
            Ok(grid) => say_grid(photo.face, &grid),
            Err(e) => eprintln!("grid of face {}: none ({e})", photo.face),
        }
    }
}
