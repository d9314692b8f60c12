//! Measuring the classifier: run it over known scans (optionally with seeded lighting variants) and count right, unsure, wrong and illegal results.

use super::camera::sim::{SimCamera, SimLighting};
use super::camera::CaptureRequest;
use super::classify::{classify, ClassifyError, ClassifyOptions};
use super::colour::Rgb;
use super::palette::Palette;
use super::perturb::Perturbation;
use super::sample::SampleOptions;
use super::scan::{capture_faces, read_photos, GridChoice};
use crate::cube::random::random_cube;
use crate::cube::{Face, FaceletCube};
use crate::error_chain::error_chain;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Readings with the true cube they show.
#[derive(Clone, Debug)]
pub struct LabelledScan {
    pub name: String,
    pub readings: [Rgb; 54],
    pub truth: FaceletCube,
}

/// Counts of outcomes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub right: usize,
    /// Refused as unsure (the daemon re-captures).
    pub unsure: usize,
    /// A legal cube that is not the true one.
    pub wrong: usize,
    /// An output that is not a legal cube (must stay 0).
    pub illegal: usize,
    /// Names of the scans (and variants) that were not right.
    pub failures: Vec<String>,
}

impl Tally {
    pub fn total(&self) -> usize {
        self.right + self.unsure + self.wrong + self.illegal
    }

    /// Percentage exactly right.
    pub fn percent_right(&self) -> f64 {
        100.0 * self.right as f64 / self.total().max(1) as f64
    }

    /// Classifies one scan and counts the outcome.
    pub fn record(
        &mut self,
        name: String,
        readings: &[Rgb; 54],
        truth: &FaceletCube,
        palette: &Palette,
        options: &ClassifyOptions,
    ) {
        match classify(readings, palette, options) {
            Ok(c) if c.cubies.check().is_err() => {
                self.illegal += 1;
                self.failures.push(format!("{name}: illegal"));
            }
            Ok(c) if c.facelets == *truth => self.right += 1,
            Ok(c) => {
                self.wrong += 1;
                self.failures
                    .push(format!("{name}: wrong, read {}", c.facelets));
            }
            Err(ClassifyError::Unsure {
                stickers,
                best_guess,
                ..
            }) => {
                self.unsure += 1;
                let guess = if best_guess.facelets == *truth {
                    "guess right"
                } else {
                    "guess wrong"
                };
                self.failures
                    .push(format!("{name}: unsure of {stickers:?} ({guess})"));
            }
        }
    }
}

/// Every scan as it is.
pub fn tally_scans(scans: &[LabelledScan], palette: &Palette, options: &ClassifyOptions) -> Tally {
    let mut tally = Tally::default();
    for scan in scans {
        tally.record(
            scan.name.clone(),
            &scan.readings,
            &scan.truth,
            palette,
            options,
        );
    }
    tally
}

/// `variants` seeded lighting variants of every scan.
pub fn tally_variants(
    scans: &[LabelledScan],
    variants: usize,
    seed: u64,
    perturbation: &Perturbation,
    palette: &Palette,
    options: &ClassifyOptions,
) -> Tally {
    let mut tally = Tally::default();
    for (i, scan) in scans.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(i as u64));
        for v in 0..variants {
            let varied = perturbation.apply(&scan.readings, &mut rng);
            tally.record(
                format!("{} variant {v}", scan.name),
                &varied,
                &scan.truth,
                palette,
                options,
            );
        }
    }
    tally
}

/// Random cubes photographed by the simulated camera (random rotation per
/// face), sampled with the camera's nominal grid and classified.
pub fn tally_sim_cubes(
    cubes: usize,
    seed: u64,
    lighting: &SimLighting,
    palette: &Palette,
    options: &ClassifyOptions,
) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut camera = SimCamera::new(seed, *lighting);
    let scene = camera.scene();
    let grid = GridChoice::Fixed(SimCamera::nominal_grid());
    let mut tally = Tally::default();
    for n in 0..cubes {
        let truth = random_cube(&mut rng).to_facelets();
        if let Ok(mut s) = scene.lock() {
            s.cube = truth;
        }
        let plan: Vec<CaptureRequest> = Face::ALL
            .iter()
            .map(|&face| CaptureRequest {
                camera: 0,
                face,
                image_rotation: rng.random_range(0..4),
            })
            .collect();
        let readings = capture_faces(&mut camera, &plan)
            .and_then(|photos| read_photos(&photos, &grid, &SampleOptions::default()));
        match readings {
            Ok(r) => tally.record(format!("sim cube {n}"), &r, &truth, palette, options),
            Err(e) => {
                tally.unsure += 1;
                tally
                    .failures
                    .push(format!("sim cube {n}: {e}", e = error_chain(&e)));
            }
        }
    }
    tally
}
