//! The simulated camera: renders one face of the simulated cube as a webcam would see it (perspective, lighting gradient, exposure and white-balance drift, noise, blur, glare spots), seeded.
//!
//! The simulator shares a [`SimScene`] with the camera (`Arc<Mutex<…>>`): it
//! updates the cube as the robot turns it, and each `capture` renders the
//! requested face at the requested rotation. `render_face` draws any nine
//! sticker colours directly, `render_pocket_face` the four of a 2x2 (a scene
//! holding a 2x2 shows the corner stickers of its cube on a 2x2 grid).

mod lighting;
mod shot;
#[cfg(test)]
mod tests;

pub use lighting::SimLighting;
pub(crate) use lighting::{rolled_off, srgb_gain};

use super::{Camera, CameraError, CaptureRequest};
use crate::cube::{Face, FaceletCube};
use crate::grid::face_grid::FaceGrid;
use crate::grid::pocket_sample::rotate_pocket;
use crate::grid::sample::rotate;
use crate::light::colour::Rgb;
use image::RgbImage;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shot::{box_blur, draw_hand, gaussian, Shot};
use std::sync::{Arc, Mutex};

/// Image size of the simulated webcam.
pub(crate) const WIDTH: u32 = 640;
pub(crate) const HEIGHT: u32 = 480;
/// Side of the face in the image at its nominal place, pixels.
const FACE_SIDE: f32 = 300.0;

/// What the camera looks at: a cube and the physical colour of each face's stickers.
#[derive(Clone, Debug, PartialEq)]
pub struct SimScene {
    pub cube: FaceletCube,
    /// sRGB of the stickers whose colour belongs to each face (URFDLB).
    pub colours: [Rgb; 6],
    /// What each camera sees now, `(face, image_rotation)` by camera index, when a
    /// simulated robot holds the cube; empty = the camera sees what it is asked for.
    pub in_view: Vec<(Face, u8)>,
    /// The cube is a 2x2 riding in `cube`'s corners: faces are drawn as 2x2 grids.
    pub pocket: bool,
    /// How many of the next photos have a hand in them (over the lower left of the face).
    pub hand_in_photos: u32,
    /// sRGB of the cube's plastic, seen between the stickers ([`BLACK_BODY`] on most cubes).
    pub body: Rgb,
}

/// Physical sticker colours of a standard cube (white U, red R, green F, yellow D, orange L, blue B).
pub const STANDARD_STICKERS: [Rgb; 6] = [
    [240, 240, 232],
    [200, 22, 32],
    [20, 165, 75],
    [245, 222, 25],
    [255, 115, 10],
    [10, 70, 200],
];

/// The plastic of most stickered cubes: near black.
pub const BLACK_BODY: Rgb = [18, 18, 20];

/// The plastic of a white-body cube (stickers on white, as the original cube was sold).
pub const WHITE_BODY: Rgb = [232, 232, 226];

impl Default for SimScene {
    fn default() -> Self {
        SimScene {
            cube: FaceletCube::default(),
            colours: STANDARD_STICKERS,
            in_view: Vec::new(),
            pocket: false,
            hand_in_photos: 0,
            body: BLACK_BODY,
        }
    }
}

impl SimScene {
    /// The nine sticker colours of `face`, in net order.
    pub fn face_colours(&self, face: Face) -> [Rgb; 9] {
        std::array::from_fn(|i| self.colours[self.cube.stickers[face.index() * 9 + i].index()])
    }

    /// The four corner sticker colours of `face`, in net order (what a 2x2 shows).
    pub fn pocket_face_colours(&self, face: Face) -> [Rgb; 4] {
        let nine = self.face_colours(face);
        [nine[0], nine[2], nine[6], nine[8]]
    }
}

/// A scene shared between the simulated robot (which moves the cube) and the camera.
pub type SharedScene = Arc<Mutex<SimScene>>;

/// The simulated webcam.
#[derive(Debug)]
pub struct SimCamera {
    rng: ChaCha8Rng,
    seed: u64,
    lighting: SimLighting,
    scene: SharedScene,
    /// The requested exposure of the photo being taken (a factor on the light).
    exposure_factor: f32,
}

impl SimCamera {
    /// A camera looking at a solved standard cube.
    pub fn new(seed: u64, lighting: SimLighting) -> SimCamera {
        SimCamera {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
            lighting,
            scene: Arc::new(Mutex::new(SimScene::default())),
            exposure_factor: 1.0,
        }
    }

    /// The scene, to share with the simulated robot.
    pub fn scene(&self) -> SharedScene {
        Arc::clone(&self.scene)
    }

    /// Looks at another scene.
    pub fn with_scene(mut self, scene: SharedScene) -> SimCamera {
        self.scene = scene;
        self
    }

    /// Where the face is drawn before perspective jitter: the grid to configure for this camera.
    pub fn nominal_grid() -> FaceGrid {
        FaceGrid::square(
            (WIDTH as f32 - FACE_SIDE) / 2.0,
            (HEIGHT as f32 - FACE_SIDE) / 2.0,
            FACE_SIDE,
        )
    }

    /// Renders a face showing `stickers` (net order) in a photo rotated `image_rotation` clockwise quarter turns.
    pub fn render_face(&mut self, stickers: &[Rgb; 9], image_rotation: u8) -> RgbImage {
        let shown = rotate(stickers, image_rotation);
        self.render_grid(&shown, 3).0
    }

    /// Renders a 2x2 face showing `stickers` (net order) in a photo rotated `image_rotation`
    /// clockwise quarter turns: the same face outline, two stickers a side.
    pub fn render_pocket_face(&mut self, stickers: &[Rgb; 4], image_rotation: u8) -> RgbImage {
        self.render_pocket_face_and_grid(stickers, image_rotation).0
    }

    /// [`Self::render_pocket_face`], with where the face's outer corners fell in the photo (its
    /// nominal grid moved by this photo's perspective jitter): the truth a grid finder is
    /// measured against.
    pub fn render_pocket_face_and_grid(
        &mut self,
        stickers: &[Rgb; 4],
        image_rotation: u8,
    ) -> (RgbImage, FaceGrid) {
        let shown = rotate_pocket(stickers, image_rotation);
        self.render_grid(&shown, 2)
    }

    /// Renders `side` x `side` stickers (image order) in the face outline; with the face's corners.
    fn render_grid(&mut self, shown: &[Rgb], side: usize) -> (RgbImage, FaceGrid) {
        let body = self.scene.lock().map_or(BLACK_BODY, |scene| scene.body);
        let mut shot = Shot::draw(&mut self.rng, &self.lighting);
        // The factor is on the light (linear); the drawing is in sRGB units.
        shot.exposure *= srgb_gain(self.exposure_factor);
        let mut pixels = vec![[0f32; 3]; (WIDTH * HEIGHT) as usize];
        for (i, p) in pixels.iter_mut().enumerate() {
            let (x, y) = (
                (i as u32 % WIDTH) as f32 + 0.5,
                (i as u32 / WIDTH) as f32 + 0.5,
            );
            *p = shot.light(x, y, shot.surface(x, y, (shown, side), body));
        }
        let pixels = box_blur(&pixels, self.lighting.blur);
        let mut image = RgbImage::new(WIDTH, HEIGHT);
        for (i, p) in image.pixels_mut().enumerate() {
            let noisy: [f32; 3] = std::array::from_fn(|c| {
                pixels[i][c] + self.lighting.noise * gaussian(&mut self.rng)
            });
            p.0 = noisy.map(|v| v.round().clamp(0.0, 255.0) as u8);
        }
        (
            image,
            FaceGrid {
                corners: shot.corners,
            },
        )
    }
}

impl Camera for SimCamera {
    fn capture(&mut self, request: &CaptureRequest) -> Result<RgbImage, CameraError> {
        let (stickers, pocket, rotation, hand) = {
            let mut scene = self
                .scene
                .lock()
                .map_err(|_| CameraError::SceneUnavailable)?;
            let (face, rotation) = scene
                .in_view
                .get(request.camera)
                .copied()
                .unwrap_or((request.face, request.image_rotation));
            let pocket = scene.pocket.then(|| scene.pocket_face_colours(face));
            let hand = scene.hand_in_photos > 0;
            scene.hand_in_photos = scene.hand_in_photos.saturating_sub(1);
            (scene.face_colours(face), pocket, rotation, hand)
        };
        self.exposure_factor = request.exposure.factor();
        let mut photo = match pocket {
            Some(four) => self.render_pocket_face(&four, rotation),
            None => self.render_face(&stickers, rotation),
        };
        self.exposure_factor = 1.0;
        if hand {
            // Half way into the second column of a 3x3, or the first of a 2x2.
            draw_hand(&mut photo, if pocket.is_some() { 0.25 } else { 0.5 });
        }
        Ok(photo)
    }

    fn describe(&self) -> String {
        format!("simulated camera (seed {})", self.seed)
    }
}
