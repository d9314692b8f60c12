//! How well 2x2s are read: random 2x2 cubes photographed by the simulated camera (a random rotation per face), sampled on the configured or found 2x2 grid and classified; right, wrong and refused counted against the truth.

use super::camera::sim::{SimCamera, SimLighting};
use super::camera::CaptureRequest;
use super::classify::ClassifyOptions;
use super::palette::Palette;
use super::pocket_classify::{classify_pocket, PocketClassifyError};
use super::pocket_sample::read_pocket_photos;
use super::sample::SampleOptions;
use super::scan::{capture_faces, GridChoice};
use crate::cube::Face;
use crate::error_chain::error_chain;
use crate::pocket::random_pocket;
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
}

impl PocketTally {
    pub fn total(&self) -> usize {
        self.right + self.wrong + self.unsure
    }
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
                exposure: crate::vision::camera::Exposure::Normal,
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
        match classify_pocket(&readings, palette, options) {
            Ok(c) if c.facelets == truth => tally.right += 1,
            Ok(c) => {
                tally.wrong += 1;
                tally.failures.push(format!(
                    "sim 2x2 {n}: read {} but it is {truth}",
                    c.facelets
                ));
            }
            Err(e @ PocketClassifyError::Unsure { .. }) => {
                tally.unsure += 1;
                tally.failures.push(format!("sim 2x2 {n}: {e}"));
            }
        }
    }
    tally
}
