//! Measuring the reading chain on the simulated camera, for either cube size: random cubes photographed in a given light (a random rotation per face), read with the camera's nominal grid (or each photo's grid found) and classified, the faces in doubt photographed again if asked.

use crate::measure::evaluate::Tally;
use crate::measure::pocket::{PocketReading, PocketTally};
use crate::measure::recapture::{
    PhotoShots, ReadPhotos, Reader, Reading, RecaptureTally, ShotsError,
};
use cubed::cube::random::random_cube;
use cubed::cube::{Face, FaceletCube};
use cubed::pocket::{random_pocket, PocketFacelets};
use cubed::vision::camera::sim::{SimCamera, SimLighting, BLACK_BODY};
use cubed::vision::camera::{CaptureRequest, Exposure};
use cubed::vision::grid::sample::SampleOptions;
use cubed::vision::light::colour::Rgb;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::ClassifyOptions;
use cubed::vision::recapture::Rounds;
use cubed::vision::scan::pocket::read_pocket_photos;
use cubed::vision::scan::{capture_faces, read_photos, GridChoice};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What the simulated camera needs of a cube size's reader.
trait SimSize: Reader {
    /// A random cube of this size.
    fn random(rng: &mut ChaCha8Rng) -> Self::Truth;
    /// The simulator's 3x3 carrying `truth` (a 2x2 rides in the corners).
    fn on_the_robot(truth: &Self::Truth) -> FaceletCube;
    /// Whether the camera draws 2x2 faces.
    const POCKET: bool;
    const READ: ReadPhotos<Self::Readings>;
}

impl SimSize for Reading<'_> {
    fn random(rng: &mut ChaCha8Rng) -> FaceletCube {
        random_cube(rng).to_facelets()
    }
    fn on_the_robot(truth: &FaceletCube) -> FaceletCube {
        *truth
    }
    const POCKET: bool = false;
    const READ: ReadPhotos<[Rgb; 54]> = read_photos;
}

impl SimSize for PocketReading<'_> {
    fn random(rng: &mut ChaCha8Rng) -> PocketFacelets {
        random_pocket(rng).to_facelets()
    }
    fn on_the_robot(truth: &PocketFacelets) -> FaceletCube {
        truth.to_3x3()
    }
    const POCKET: bool = true;
    const READ: ReadPhotos<[Rgb; cubed::pocket::stickers::STICKERS]> = read_pocket_photos;
}

/// How the simulated camera photographs the random cubes: its seed, its light and the cube's
/// plastic between the stickers.
#[derive(Clone, Copy, Debug)]
pub struct SimPhotos {
    pub seed: u64,
    pub lighting: SimLighting,
    /// sRGB of the cube's body ([`BLACK_BODY`] unless said).
    pub body: Rgb,
    /// The grid found in each photo (`grid = "auto"`), not given as the camera's nominal one.
    pub grids_found: bool,
}

impl SimPhotos {
    /// Photos of black-body cubes under `lighting`.
    pub fn new(seed: u64, lighting: SimLighting) -> SimPhotos {
        SimPhotos {
            seed,
            lighting,
            body: BLACK_BODY,
            grids_found: false,
        }
    }

    /// The same photos, each read on the grid found in it.
    pub fn with_grids_found(self) -> SimPhotos {
        SimPhotos {
            grids_found: true,
            ..self
        }
    }

    /// The same photos of cubes whose plastic is `body`.
    pub fn on_body(self, body: Rgb) -> SimPhotos {
        SimPhotos { body, ..self }
    }
}

/// Random cubes photographed by the simulated camera, sampled with the camera's nominal grid
/// and classified. Each cube has its own camera seed.
pub fn tally_sim_cubes(
    cubes: usize,
    photos: &SimPhotos,
    palette: &Palette,
    options: &ClassifyOptions,
) -> Tally {
    let once = Rounds::new(0);
    tally_sim_recaptures(cubes, photos, &once, palette, options).first
}

/// `tally_sim_cubes` with the faces of doubtful stickers photographed again by the camera as
/// `rounds` says (each cube's own camera seed: two ways of re-capturing see the same
/// first takes).
pub fn tally_sim_recaptures(
    cubes: usize,
    photos: &SimPhotos,
    rounds: &Rounds,
    palette: &Palette,
    options: &ClassifyOptions,
) -> RecaptureTally {
    let reading = Reading { palette, options };
    let sampling = SampleOptions::default();
    tally_sim(cubes, (photos, sampling), (&reading, rounds))
}

/// `tally_sim_cubes` with the photos read as photos that cannot be taken again (clipped
/// stickers read from their rims, `SampleOptions::for_kept_photos`).
pub fn tally_sim_kept_photos(
    cubes: usize,
    photos: &SimPhotos,
    palette: &Palette,
    options: &ClassifyOptions,
) -> Tally {
    let reading = Reading { palette, options };
    let sampling = SampleOptions::for_kept_photos();
    tally_sim(cubes, (photos, sampling), (&reading, &Rounds::new(0))).first
}

/// `tally_sim_recaptures` for random 2x2s.
pub fn tally_sim_pocket_recaptures(
    cubes: usize,
    photos: &SimPhotos,
    rounds: &Rounds,
    palette: &Palette,
    options: &ClassifyOptions,
) -> RecaptureTally<PocketTally> {
    let reading = PocketReading { palette, options };
    let sampling = SampleOptions::default();
    tally_sim(cubes, (photos, sampling), (&reading, rounds))
}

fn tally_sim<R: SimSize>(
    cubes: usize,
    (photos, sampling): (&SimPhotos, SampleOptions),
    (reader, rounds): (&R, &Rounds),
) -> RecaptureTally<R::Tally> {
    let seed = photos.seed;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let grid = match photos.grids_found {
        true => GridChoice::Auto,
        false => GridChoice::Fixed(SimCamera::nominal_grid()),
    };
    let mut tally = RecaptureTally::<R::Tally>::default();
    for n in 0..cubes {
        let truth = R::random(&mut rng);
        let rotations: [u8; 6] = std::array::from_fn(|_| rng.random_range(0..4));
        let camera_seed = seed ^ (n as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut camera = SimCamera::new(camera_seed, photos.lighting);
        if let Ok(mut scene) = camera.scene().lock() {
            scene.cube = R::on_the_robot(&truth);
            scene.pocket = R::POCKET;
            scene.body = photos.body;
        }
        let take = |again: &[(Face, Exposure)]| {
            let plan: Vec<CaptureRequest> = (again.iter())
                .map(|&(face, exposure)| CaptureRequest {
                    camera: 0,
                    face,
                    image_rotation: rotations[face.index()],
                    exposure,
                })
                .collect();
            capture_faces(&mut camera, &plan).map_err(ShotsError::from)
        };
        let mut shots = PhotoShots::read_by(take, &grid, R::READ).sampled(sampling);
        let name = format!("sim cube {n}");
        tally.read_cube((&name, &truth), (reader, rounds), &mut shots);
    }
    tally
}
