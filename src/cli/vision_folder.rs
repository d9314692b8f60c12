//! Where `scan` and `calibrate` find a folder's stickers: the grid the arguments ask for (found, `--corners`, a grid file), the six photos read (a seventh frame refused, a photo not named after a face said), and the grids said back as `--corners` takes them.

use anyhow::Context;
use clap::{Args, ValueEnum};
use cubed_core::cube::Face;
use cubed_vision::camera::image_dir::ImageDirCamera;
use cubed_vision::grid::face_grid::FaceGrid;
use cubed_vision::grid::file::{load_grid, parse_corners};
use cubed_vision::grid::sample::SampleOptions;
use cubed_vision::light::colour::Rgb;
use cubed_vision::scan::pocket::read_pocket_photos_and_grids;
use cubed_vision::scan::{
    capture_faces, plain_plan, read_photos_with_tops, FaceGrids, FacePhoto, GridChoice,
    PhotoReadings,
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
    /// Face corners "x,y x,y x,y x,y" (top-left, top-right, bottom-right, bottom-left), the
    /// same in every photo; or one face's, "F=x,y x,y x,y x,y", repeated for each face whose
    /// grid is given (the others' grids are found, or the bare corners, if given too).
    #[arg(long, value_name = "CORNERS")]
    pub(crate) corners: Vec<String>,
    /// A grid file (`corners = [[x, y] x 4]`); implies `--grid config`.
    #[arg(long)]
    pub(crate) grid_file: Option<PathBuf>,
}

/// The grid the arguments ask for in `dir`. `--corners` for every photo or `--grid-file`
/// mean the configured grid even without `--grid config`; `--corners` for some faces mean the
/// others' grids come from those, else are found (or read from `grid.toml` with `--grid config`).
pub(super) fn grid_choice(args: &GridArgs, dir: &Path) -> anyhow::Result<GridChoice> {
    let (every, faces) = corners_given(&args.corners)?;
    if let (Some(_), Some(_)) = (&every, &args.grid_file) {
        anyhow::bail!("give --corners or --grid-file, not both");
    }
    if (every.is_some() || args.grid_file.is_some()) && args.grid == Some(GridMode::Auto) {
        anyhow::bail!("--grid auto finds the grid in each photo: give it without --corners or --grid-file, or give those without it (or give only some faces' corners, \"F=x,y x,y x,y x,y\", and the others' are found)");
    }
    let others = match (every, &args.grid_file) {
        (Some(grid), _) => Some(grid),
        (None, Some(path)) => Some(load_grid(path)?),
        (None, None) if args.grid == Some(GridMode::Config) => {
            Some(folder_grid(dir, faces.iter().any(Option::is_some))?)
        }
        (None, None) => None,
    };
    Ok(match others {
        _ if faces.iter().any(Option::is_some) => GridChoice::PerFace(faces.map(|f| f.or(others))),
        Some(grid) => GridChoice::Fixed(grid),
        None => GridChoice::Auto,
    })
}

/// `grid.toml` in the folder, for `--grid config` without corners for every photo or a grid
/// file (with some faces' corners: for the others).
fn folder_grid(dir: &Path, some_faces_given: bool) -> anyhow::Result<FaceGrid> {
    let path = dir.join("grid.toml");
    load_grid(&path).with_context(|| match some_faces_given {
        true => format!(
            "--grid config reads the grid of the faces --corners does not name from {} (without --grid config, theirs are found)",
            path.display()
        ),
        false => format!(
            "--grid config without --corners or --grid-file reads {}",
            path.display()
        ),
    })
}

/// The `--corners` values: the corners for every photo (a bare value, at most one) and each
/// face's ("F=…", at most one a face), URFDLB.
fn corners_given(values: &[String]) -> anyhow::Result<(Option<FaceGrid>, [Option<FaceGrid>; 6])> {
    let mut every = None;
    let mut faces = [None; 6];
    for value in values {
        let Some((name, corners)) = value.split_once('=') else {
            anyhow::ensure!(
                every.is_none(),
                "--corners {value:?}: the corners for every photo were already given; give one face's as \"F=x,y x,y x,y x,y\""
            );
            every = Some(parse_corners_arg(value)?);
            continue;
        };
        let face = face_of_corners(name)?;
        anyhow::ensure!(
            faces[face.index()].is_none(),
            "--corners {value:?}: face {face}'s corners were already given"
        );
        let grid = parse_corners_arg(corners).with_context(|| format!("face {face}"))?;
        faces[face.index()] = Some(grid);
    }
    Ok((every, faces))
}

/// The face named before `=` in `--corners F=…`: a face letter or word, as photos are named.
fn face_of_corners(name: &str) -> anyhow::Result<Face> {
    cubed_vision::camera::image_dir::face_of_name(name.trim()).with_context(|| format!("--corners: {name:?} before '=' is not a face: give one of U R F D L B (or up, right, front, down, left, back), as in \"F=x,y x,y x,y x,y\""))
}

fn parse_corners_arg(text: &str) -> anyhow::Result<FaceGrid> {
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
        "--corners needs 4 points \"x,y x,y x,y x,y\", got {}, {}",
        crate::words::count(numbers.len(), "number", "numbers"),
        match numbers.len() % 2 {
            0 => crate::words::count(numbers.len() / 2, "point", "points"),
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
    let read = read_photos_with_tops(&photos, choice, &sampling)?;
    say_lent(&read.grids);
    Ok(read)
}

/// A 2x2's 24 readings (URFDLB) from the folder's six photos, with the grids they were read
/// on (the faces lent one said).
pub(super) fn read_pocket_folder(
    dir: &Path,
    choice: &GridChoice,
) -> anyhow::Result<([Rgb; 24], FaceGrids)> {
    let photos = folder_photos(dir)?;
    let sampling = SampleOptions::for_kept_photos();
    let read = read_pocket_photos_and_grids(&photos, choice, &sampling)?;
    say_lent(&read.1);
    Ok(read)
}

/// Which faces were read on a grid lent by the others (none found in their own photo).
pub(super) fn say_lent(grids: &FaceGrids) {
    if let Some(words) = grids.lent_words() {
        eprintln!("{words}");
    }
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

/// Each photo's grid on stderr, as `--corners` takes it for that face (to fix one grid found
/// automatically, and let the others be found).
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
        "grid of face {face}: --corners \"{face}={}\" ([camera] grid = [{}])",
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
        let found = match choice.given(photo.face) {
            Some(grid) => Ok(grid),
            None => cubed_vision::grid::finder::find_grid(&photo.image),
        };
        match found {
            Ok(grid) => say_grid(photo.face, &grid),
            Err(e) => eprintln!("grid of face {}: none ({e})", photo.face),
        }
    }
}
