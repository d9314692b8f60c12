//! How a 2x2 is found and read in cluttered 1920x1080 frames (`frames`), one set at a time: the grids found and their corners' distance from the truth (a grid found away from the face counted apart, as a false grid), the cubes read right, refused or wrong from the frames as they are and under the seeded drift (each face's whole frame under its own brightness and channel gains), and the finder's time per frame.

use crate::measure::frames::{clutter_only, frame_scan, FrameScan, FrameSet};
use crate::measure::perturb::Perturbation;
use crate::measure::perturb_photo::scale_channels;
use crate::measure::pocket::PocketTally;
use cubed::error_chain::error_chain;
use cubed::vision::grid::face_grid::FaceGrid;
use cubed::vision::grid::pocket::find_pocket_grid;
use cubed::vision::grid::sample::SampleOptions;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::ClassifyOptions;
use cubed::vision::scan::pocket::read_pocket_photos;
use cubed::vision::scan::{FacePhoto, GridChoice};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Where the grids were found, frame by frame.
#[derive(Clone, Debug, Default)]
pub struct Finding {
    pub frames: usize,
    /// Frames where a grid was found on the face (every corner within half a sticker cell).
    pub found: usize,
    /// Frames where a grid was found away from the face: a false grid.
    pub false_grids: usize,
    /// The farthest corner's distance from the truth, pixels, per grid found on the face.
    pub corner_errors: Vec<f32>,
    /// The finder's time per frame, ms.
    pub find_ms: Vec<f64>,
    /// Frames of the scenes with no cube in them (one a cube's scene).
    pub clutter_frames: usize,
    /// Grids found in those: each a false grid.
    pub clutter_grids: usize,
    /// Frames where no grid, a false grid or an imprecise one was found, and why.
    pub failures: Vec<String>,
}

/// One set's figures.
#[derive(Clone, Debug, Default)]
pub struct FrameFigures {
    pub finding: Finding,
    /// The cubes read from the frames as they are.
    pub clean: PocketTally,
    /// The cubes read under the seeded drift.
    pub drift: PocketTally,
}

/// How the frames are read.
pub struct FrameReading<'a> {
    pub palette: &'a Palette,
    pub options: &'a ClassifyOptions,
    /// The drift, and the seed of its draws.
    pub drift: (&'a Perturbation, u64),
}

/// `cubes` cubes of `set` (six frames each) found and read.
pub fn measure_frames(set: FrameSet, cubes: usize, reading: &FrameReading) -> FrameFigures {
    let mut figures = FrameFigures::default();
    for index in 0..cubes {
        let scan = frame_scan(set, index);
        find_in(&scan, &mut figures.finding);
        find_in_clutter(set, index, &mut figures.finding);
        read_into(&mut figures.clean, &scan, &scan.photos(), reading);
        let drifted = drifted_photos(&scan, index, reading.drift);
        read_into(&mut figures.drift, &scan, &drifted, reading);
    }
    figures
}

/// Finds the grid in each of the scan's frames, timed, and judges it against the truth.
fn find_in(scan: &FrameScan, finding: &mut Finding) {
    for frame in &scan.frames {
        finding.frames += 1;
        let start = Instant::now();
        let found = find_pocket_grid(&frame.image);
        finding.find_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        let at = format!("{} face {}", scan.name, frame.face);
        match found {
            Ok(grid) => {
                let error = corner_error(&grid, &frame.grid);
                let cell = frame.grid.cell_size() * 1.5;
                if error <= cell / 2.0 {
                    finding.found += 1;
                    finding.corner_errors.push(error);
                    if error > cell / 20.0 {
                        finding.failures.push(format!(
                            "{at}: found {error:.0} px off: {:?}, the face is at {:?}",
                            grid.corners, frame.grid.corners
                        ));
                    }
                } else {
                    finding.false_grids += 1;
                    finding.failures.push(format!(
                        "{at}: a grid {error:.0} px off: {:?}, the face is at {:?}",
                        grid.corners, frame.grid.corners
                    ));
                }
            }
            Err(e) => finding.failures.push(format!("{at}: {e}")),
        }
    }
}

/// Looks for a grid in the scene of `set`'s `index`th cube with no cube in it.
fn find_in_clutter(set: FrameSet, index: usize, finding: &mut Finding) {
    finding.clutter_frames += 1;
    if let Ok(grid) = find_pocket_grid(&clutter_only(set, index)) {
        finding.clutter_grids += 1;
        let at = format!("{} {index} with no cube", set.label());
        (finding.failures).push(format!("{at}: a false grid at {:?}", grid.corners));
    }
}

/// The farthest of the four corners of `found` from those of `truth`, pixels.
pub fn corner_error(found: &FaceGrid, truth: &FaceGrid) -> f32 {
    (found.corners.iter().zip(truth.corners))
        .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
        .fold(0.0, f32::max)
}

/// The scan's photos, each face's whole frame under its own draw of the drift (the draws
/// seeded by `seed` and the cube's index).
fn drifted_photos(
    scan: &FrameScan,
    index: usize,
    (drift, seed): (&Perturbation, u64),
) -> Vec<FacePhoto> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003) + index as u64);
    let light = drift.draw(&mut rng);
    (scan.photos().into_iter())
        .map(|mut photo| {
            photo.image = scale_channels(&photo.image, light.face_gains(photo.face.index(), 1.0));
            photo
        })
        .collect()
}

/// Reads the cube from `photos` as `cubed scan --size 2 --images` does (the grid found in
/// each, clipped stickers read from their rims) and counts the outcome against the truth.
fn read_into(
    tally: &mut PocketTally,
    scan: &FrameScan,
    photos: &[FacePhoto],
    reading: &FrameReading,
) {
    let sampling = SampleOptions::for_kept_photos();
    match read_pocket_photos(photos, &GridChoice::Auto, &sampling) {
        Ok(readings) => tally.record(
            scan.name.clone(),
            &readings,
            &scan.truth,
            reading.palette,
            reading.options,
        ),
        Err(e) => {
            tally.unsure += 1;
            tally
                .failures
                .push(format!("{}: {}", scan.name, error_chain(&e)));
        }
    }
}
