//! Measuring the reading chain on the simulated camera: random cubes photographed in a given light (a random rotation per face), read with the camera's nominal grid and classified, the faces in doubt photographed again if asked.

use super::camera::sim::{SimCamera, SimLighting};
use super::camera::{CaptureRequest, Exposure};
use super::classify::ClassifyOptions;
use super::evaluate::Tally;
use super::evaluate_recapture::{PhotoShots, Reading, RecaptureTally};
use super::palette::Palette;
use super::recapture::Rounds;
use super::scan::{capture_faces, GridChoice};
use crate::cube::random::random_cube;
use crate::error_chain::error_chain;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random cubes photographed by the simulated camera, sampled with the camera's nominal grid
/// and classified. Each cube has its own camera seed.
pub fn tally_sim_cubes(
    cubes: usize,
    seed: u64,
    lighting: &SimLighting,
    palette: &Palette,
    options: &ClassifyOptions,
) -> Tally {
    let once = Rounds::new(0);
    tally_sim_recaptures(cubes, (seed, lighting), &once, palette, options).first
}

/// `tally_sim_cubes` with the faces of doubtful stickers photographed again by the camera as
/// `rounds` says (each cube's own camera seed: two ways of re-capturing see the same
/// first takes).
pub fn tally_sim_recaptures(
    cubes: usize,
    (seed, lighting): (u64, &SimLighting),
    rounds: &Rounds,
    palette: &Palette,
    options: &ClassifyOptions,
) -> RecaptureTally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let grid = GridChoice::Fixed(SimCamera::nominal_grid());
    let reading = Reading { palette, options };
    let mut tally = RecaptureTally::default();
    for n in 0..cubes {
        let truth = random_cube(&mut rng).to_facelets();
        let rotations: [u8; 6] = std::array::from_fn(|_| rng.random_range(0..4));
        let camera_seed = seed ^ (n as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut camera = SimCamera::new(camera_seed, *lighting);
        if let Ok(mut scene) = camera.scene().lock() {
            scene.cube = truth;
        }
        let take = |again: &[(crate::cube::Face, Exposure)]| {
            let plan: Vec<CaptureRequest> = (again.iter())
                .map(|&(face, exposure)| CaptureRequest {
                    camera: 0,
                    face,
                    image_rotation: rotations[face.index()],
                    exposure,
                })
                .collect();
            capture_faces(&mut camera, &plan).map_err(|e| error_chain(&e))
        };
        let mut shots = PhotoShots::new(take, &grid);
        let name = format!("sim cube {n}");
        tally.read_cube((&name, &truth), (&reading, rounds), &mut shots);
    }
    tally
}
