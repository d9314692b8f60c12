//! How well 2x2s are read: the corners of the real scans (a 2x2 is a 3x3's corners) under the bench's lighting conditions, and random 2x2 cubes photographed by the simulated camera (a random rotation per face), sampled on the configured or found 2x2 grid; right, wrong and refused counted against the truth, with each best guess's least gap for the calibration.

use super::camera::sim::{SimCamera, SimLighting};
use super::camera::CaptureRequest;
use super::classify::ClassifyOptions;
use super::colour::Rgb;
use super::evaluate::{name_hash, LabelledScan, Sample};
use super::palette::Palette;
use super::perturb::Perturbation;
use super::pocket_classify::{classify_pocket, PocketClassifyError};
use super::pocket_sample::read_pocket_photos;
use super::sample::SampleOptions;
use super::scan::{capture_faces, GridChoice};
use crate::cube::Face;
use crate::error_chain::error_chain;
use crate::pocket::stickers::{PocketSticker, STICKERS};
use crate::pocket::{random_pocket, PocketFacelets};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Outcomes of reading many 2x2s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PocketTally {
    /// Read as the cube it is.
    pub right: usize,
    /// Read confidently as another cube (the worst outcome).
    pub wrong: usize,
    /// Refused (unsure, or no grid found): a re-capture cures it.
    pub unsure: usize,
    /// What went wrong, one line per cube.
    pub failures: Vec<String>,
    /// Per classified cube: its best guess's least gap, calibrated error
    /// probability and whether it was right (for the calibration fit).
    pub samples: Vec<Sample>,
}

impl PocketTally {
    pub fn total(&self) -> usize {
        self.right + self.wrong + self.unsure
    }

    /// Classifies one 2x2 and counts the outcome.
    pub fn record(
        &mut self,
        name: String,
        readings: &[Rgb; STICKERS],
        truth: &PocketFacelets,
        palette: &Palette,
        options: &ClassifyOptions,
    ) {
        let result = classify_pocket(readings, palette, options);
        let guess = match &result {
            Ok(c) => c,
            Err(
                PocketClassifyError::Unsure { best_guess, .. }
                | PocketClassifyError::Unsettled { best_guess, .. },
            ) => best_guess,
        };
        self.samples.push(Sample {
            gap: guess.least_gap(),
            error_probability: guess.error_probability(),
            right: guess.facelets == *truth,
        });
        match result {
            Ok(c) if c.facelets == *truth => self.right += 1,
            Ok(c) => {
                self.wrong += 1;
                self.failures.push(format!(
                    "{name}: read {} (confidence {:.5}) but it is {truth}",
                    c.facelets,
                    c.confidence()
                ));
            }
            Err(e) => {
                self.unsure += 1;
                self.failures.push(format!("{name}: {e}"));
            }
        }
    }
}

/// The 2x2 a 3x3 scan's corners show: its 24 corner readings, and the truth
/// with its colours named by the fixed corner (as the 2x2 reader names them).
pub fn corners_of(
    readings: &[Rgb; 54],
    truth: &crate::cube::FaceletCube,
) -> ([Rgb; STICKERS], PocketFacelets) {
    (
        std::array::from_fn(|i| readings[PocketSticker(i).on_3x3()]),
        PocketFacelets::from_3x3(truth).relabel_by_fixed_corner(),
    )
}

/// The corners of every real scan, as they are (`perturbation` None) or in
/// `variants` seeded lighting variants (the same draws as the 3x3 rows).
pub fn tally_real_pockets(
    scans: &[LabelledScan],
    (variants, seed): (usize, u64),
    perturbation: Option<&Perturbation>,
    palette: &Palette,
    options: &ClassifyOptions,
) -> PocketTally {
    let mut tally = PocketTally::default();
    for scan in scans {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ name_hash(&scan.name));
        let Some(perturbation) = perturbation else {
            let (readings, truth) = corners_of(&scan.readings, &scan.truth);
            tally.record(scan.name.clone(), &readings, &truth, palette, options);
            continue;
        };
        for v in 0..variants {
            let varied = perturbation.apply(&scan.readings, &mut rng);
            let (readings, truth) = corners_of(&varied, &scan.truth);
            let name = format!("{} variant {v}", scan.name);
            tally.record(name, &readings, &truth, palette, options);
        }
    }
    tally
}

/// Reads `cubes` random 2x2s photographed by the simulated camera under `lighting`.
pub fn tally_sim_pockets(
    cubes: usize,
    seed: u64,
    lighting: &SimLighting,
    grid: &GridChoice,
    palette: &Palette,
    options: &ClassifyOptions,
) -> PocketTally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut camera = SimCamera::new(seed, *lighting);
    let scene = camera.scene();
    let mut tally = PocketTally::default();
    for n in 0..cubes {
        let truth = random_pocket(&mut rng).to_facelets();
        if let Ok(mut s) = scene.lock() {
            s.cube = truth.to_3x3();
            s.pocket = true;
        }
        let plan: Vec<CaptureRequest> = (Face::ALL.iter())
            .map(|&face| CaptureRequest {
                camera: 0,
                face,
                image_rotation: rng.random_range(0..4),
                exposure: crate::vision::camera::Exposure::NORMAL,
            })
            .collect();
        let readings = capture_faces(&mut camera, &plan)
            .and_then(|photos| read_pocket_photos(&photos, grid, &SampleOptions::default()));
        let readings = match readings {
            Ok(r) => r,
            Err(e) => {
                tally.unsure += 1;
                tally
                    .failures
                    .push(format!("sim 2x2 {n}: {}", error_chain(&e)));
                continue;
            }
        };
        tally.record(format!("sim 2x2 {n}"), &readings, &truth, palette, options);
    }
    tally
}
