//! The simulated camera: renders one face of the simulated cube as a webcam would see it (perspective, lighting gradient, exposure and white-balance drift, noise, blur, glare spots), seeded.
//!
//! The simulator shares a [`SimScene`] with the camera (`Arc<Mutex<…>>`): it
//! updates the cube as the robot turns it, and each `capture` renders the
//! requested face at the requested rotation. `render_face` draws any nine
//! sticker colours directly, `render_pocket_face` the four of a 2x2 (a scene
//! holding a 2x2 shows the corner stickers of its cube on a 2x2 grid).

use super::{Camera, CameraError, CaptureRequest};
use crate::cube::{Face, FaceletCube};
use crate::grid::face_grid::{square_to_quad, FaceGrid};
use crate::grid::pocket_sample::rotate_pocket;
use crate::grid::sample::rotate;
use crate::light::colour::Rgb;
use image::RgbImage;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};

/// Image size of the simulated webcam.
pub(crate) const WIDTH: u32 = 640;
pub(crate) const HEIGHT: u32 = 480;
/// Side of the face in the image at its nominal place, pixels.
const FACE_SIDE: f32 = 300.0;
const BODY: [f32; 3] = [18.0, 18.0, 20.0];

/// How unkind the simulated light and optics are. Every range is drawn anew per capture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimLighting {
    /// Exposure factor range.
    pub exposure: (f32, f32),
    /// Largest brightness change across the image from a lighting gradient (0.15 = ±15 %).
    pub gradient: f32,
    /// Largest per-channel white-balance drift (0.05 = ±5 %).
    pub white_balance: f32,
    /// Standard deviation of pixel noise, 0..255 units.
    pub noise: f32,
    /// Box-blur radius in pixels (0 = sharp).
    pub blur: u32,
    /// Largest number of glare spots.
    pub glare_spots: usize,
    /// Largest displacement of each face corner from its nominal place, fraction of the face side.
    pub perspective: f32,
    /// How fast a colour whose brightest channel passes full scale fades towards white, as a
    /// webcam's processing desaturates highlights (0 = not at all: each channel clips alone;
    /// 1 = the other channels close the gap in the proportion the brightest one passed full
    /// scale by).
    pub highlight_rolloff: f32,
}

impl Default for SimLighting {
    /// The default lighting noise: an ordinary webcam under an ordinary lamp.
    fn default() -> Self {
        SimLighting {
            exposure: (0.85, 1.15),
            gradient: 0.15,
            white_balance: 0.05,
            noise: 4.0,
            blur: 1,
            glare_spots: 2,
            perspective: 0.03,
            highlight_rolloff: 0.0,
        }
    }
}

impl SimLighting {
    /// A harder light than the default: the lamp's brightness and colour drift more between
    /// captures (exposure x0.65-1.35, white balance ±12 %, gradient ±25 %), a little more noise.
    pub fn drifting() -> SimLighting {
        SimLighting {
            exposure: (0.65, 1.35),
            gradient: 0.25,
            white_balance: 0.12,
            noise: 6.0,
            ..SimLighting::default()
        }
    }

    /// A lamp too bright for a webcam: exposure x1.3-1.7 with full highlight roll-off
    /// (clipping colours fade towards white), the bench's roll-off rows for both cube sizes.
    pub fn too_bright_for_a_webcam() -> SimLighting {
        SimLighting {
            exposure: (1.3, 1.7),
            highlight_rolloff: 1.0,
            ..SimLighting::default()
        }
    }

    /// The same lamp too bright, with the sensor clipping each channel alone (no roll-off): a
    /// sticker's middle clips flat while the lens still blurs its true colour into its rim.
    pub fn too_bright_clipping() -> SimLighting {
        SimLighting {
            highlight_rolloff: 0.0,
            ..SimLighting::too_bright_for_a_webcam()
        }
    }

    /// This lighting with `light` times as much light on the cube (linear, as a camera's
    /// exposure time: 2 is a stop brighter, 0.5 a stop darker). The drawing is in sRGB units,
    /// so its exposure range scales by `srgb_gain(light)`.
    pub fn under_light(self, light: f32) -> SimLighting {
        let gain = srgb_gain(light);
        SimLighting {
            exposure: (self.exposure.0 * gain, self.exposure.1 * gain),
            ..self
        }
    }
}

/// The factor on sRGB codes (below clipping) of `light` times as much linear light: the
/// encoding's gamma, 2.2.
pub(crate) fn srgb_gain(light: f32) -> f32 {
    light.max(0.0).powf(1.0 / 2.2)
}

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

impl Default for SimScene {
    fn default() -> Self {
        SimScene {
            cube: FaceletCube::default(),
            colours: STANDARD_STICKERS,
            in_view: Vec::new(),
            pocket: false,
            hand_in_photos: 0,
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
        let mut shot = Shot::draw(&mut self.rng, &self.lighting);
        // The factor is on the light (linear); the drawing is in sRGB units.
        shot.exposure *= srgb_gain(self.exposure_factor);
        let mut pixels = vec![[0f32; 3]; (WIDTH * HEIGHT) as usize];
        for (i, p) in pixels.iter_mut().enumerate() {
            let (x, y) = (
                (i as u32 % WIDTH) as f32 + 0.5,
                (i as u32 / WIDTH) as f32 + 0.5,
            );
            *p = shot.light(x, y, shot.surface(x, y, shown, side));
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

/// Everything random about one photo.
struct Shot {
    /// The face's outer corners in the image (TL, TR, BR, BL).
    corners: [[f32; 2]; 4],
    /// Image point → face coordinates (inverse homography).
    to_face: [[f32; 3]; 3],
    exposure: f32,
    gradient: [f32; 2],
    white_balance: [f32; 3],
    glare: Vec<([f32; 2], f32)>,
    highlight_rolloff: f32,
}

impl Shot {
    fn draw(rng: &mut ChaCha8Rng, l: &SimLighting) -> Shot {
        let nominal = SimCamera::nominal_grid().corners;
        let jitter = l.perspective * FACE_SIDE;
        let mut spread = |r: f32| {
            if r > 0.0 {
                rng.random_range(-r..=r)
            } else {
                0.0
            }
        };
        let corners = nominal.map(|[x, y]| [x + spread(jitter), y + spread(jitter)]);
        let gradient = [spread(l.gradient), spread(l.gradient)];
        let white_balance = [0; 3].map(|_| 1.0 + spread(l.white_balance));
        let exposure = if l.exposure.0 < l.exposure.1 {
            rng.random_range(l.exposure.0..=l.exposure.1)
        } else {
            l.exposure.0
        };
        let spots = if l.glare_spots > 0 {
            rng.random_range(0..=l.glare_spots)
        } else {
            0
        };
        let glare = (0..spots)
            .map(|_| {
                let at = [
                    rng.random_range(170.0..470.0),
                    rng.random_range(90.0..390.0),
                ];
                (at, rng.random_range(6.0..16.0))
            })
            .collect();
        Shot {
            corners,
            to_face: invert(square_to_quad(corners)),
            exposure,
            gradient,
            white_balance,
            glare,
            highlight_rolloff: l.highlight_rolloff,
        }
    }

    /// The colour of the surface at image point (x, y) before lighting.
    fn surface(&self, x: f32, y: f32, stickers: &[Rgb], side: usize) -> [f32; 3] {
        let m = &self.to_face;
        let w = m[2][0] * x + m[2][1] * y + m[2][2];
        let (u, v) = (
            (m[0][0] * x + m[0][1] * y + m[0][2]) / w,
            (m[1][0] * x + m[1][1] * y + m[1][2]) / w,
        );
        if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&v) {
            let shade = 70.0 + 40.0 * (x / WIDTH as f32);
            return [shade, shade * 0.95, shade * 0.9];
        }
        let n = side as f32;
        let (cu, cv) = ((u * n).floor(), (v * n).floor());
        let (fu, fv) = (u * n - cu, v * n - cv);
        if on_sticker(fu, fv) {
            stickers[cv as usize * side + cu as usize].map(|c| c as f32)
        } else {
            BODY
        }
    }

    /// Applies exposure, gradient, white balance and glare.
    fn light(&self, x: f32, y: f32, colour: [f32; 3]) -> [f32; 3] {
        let (dx, dy) = (x / WIDTH as f32 - 0.5, y / HEIGHT as f32 - 0.5);
        let gain = self.exposure * (1.0 + 2.0 * (self.gradient[0] * dx + self.gradient[1] * dy));
        let glare = self
            .glare
            .iter()
            .map(|([gx, gy], r)| (-((x - gx).powi(2) + (y - gy).powi(2)) / (r * r)).exp())
            .fold(0.0f32, f32::max);
        let lit: [f32; 3] = std::array::from_fn(|c| {
            let lit = colour[c] * gain * self.white_balance[c];
            lit + (255.0 * 1.3 - lit) * glare.min(1.0)
        });
        rolled_off(lit, self.highlight_rolloff)
    }
}

/// `lit` (sRGB units, not yet clipped) with its highlight faded towards white: when its brightest
/// channel passes full scale, each other channel closes `strength` times that excess (as a
/// fraction of full scale) of its gap to the brightest.
pub(crate) fn rolled_off(lit: [f32; 3], strength: f32) -> [f32; 3] {
    let brightest = lit.iter().copied().fold(0.0f32, f32::max);
    if strength <= 0.0 || brightest <= 255.0 {
        return lit;
    }
    let share = (strength * (brightest - 255.0) / 255.0).min(1.0);
    lit.map(|c| c + (brightest - c) * share)
}

/// True inside the rounded sticker square of a cell (cell coordinates 0..1).
/// Skin over the lower left of the face, from its left edge to `reach` of
/// its width (0..1) and from just above half its height down: fingers
/// reaching in to straighten the cube, covering half of some stickers.
fn draw_hand(photo: &mut RgbImage, reach: f32) {
    let grid = SimCamera::nominal_grid();
    let [left, top] = grid.point(0.0, 0.55);
    let [right, bottom] = grid.point(reach, 1.0);
    for (x, y, p) in photo.enumerate_pixels_mut() {
        let (x, y) = (x as f32, y as f32);
        if x < right && y > top && (x > left - 40.0) && y < bottom + 40.0 {
            p.0 = [214, 160, 128];
        }
    }
}

fn on_sticker(fu: f32, fv: f32) -> bool {
    const INSET: f32 = 0.08;
    const RADIUS: f32 = 0.12;
    let (du, dv) = (
        (fu - 0.5).abs() - (0.5 - INSET - RADIUS),
        (fv - 0.5).abs() - (0.5 - INSET - RADIUS),
    );
    if du <= 0.0 || dv <= 0.0 {
        return du <= RADIUS && dv <= RADIUS;
    }
    du * du + dv * dv <= RADIUS * RADIUS
}

/// Inverse of a 3x3 matrix (the adjugate; the scale does not matter for a homography).
fn invert(m: [[f32; 3]; 3]) -> [[f32; 3]; 3] {
    let c =
        |r0: usize, r1: usize, c0: usize, c1: usize| m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
    [
        [c(1, 2, 1, 2), -c(0, 2, 1, 2), c(0, 1, 1, 2)],
        [-c(1, 2, 0, 2), c(0, 2, 0, 2), -c(0, 1, 0, 2)],
        [c(1, 2, 0, 1), -c(0, 2, 0, 1), c(0, 1, 0, 1)],
    ]
}

/// Separable box blur of radius `r`.
fn box_blur(pixels: &[[f32; 3]], r: u32) -> Vec<[f32; 3]> {
    if r == 0 {
        return pixels.to_vec();
    }
    let (w, h, r) = (WIDTH as usize, HEIGHT as usize, r as usize);
    let pass = |src: &[[f32; 3]], horizontal: bool| -> Vec<[f32; 3]> {
        let mut out = vec![[0f32; 3]; src.len()];
        for (i, o) in out.iter_mut().enumerate() {
            let (x, y) = (i % w, i / w);
            let (pos, len) = if horizontal { (x, w) } else { (y, h) };
            let (lo, hi) = (pos.saturating_sub(r), (pos + r).min(len - 1));
            let mut sum = [0f32; 3];
            for k in lo..=hi {
                let j = if horizontal { y * w + k } else { k * w + x };
                for c in 0..3 {
                    sum[c] += src[j][c];
                }
            }
            *o = sum.map(|s| s / (hi - lo + 1) as f32);
        }
        out
    };
    pass(&pass(pixels, true), false)
}

/// A standard normal sample (Irwin–Hall: the sum of four uniforms, rescaled).
fn gaussian<R: Rng>(rng: &mut R) -> f32 {
    let sum: f32 = (0..4).map(|_| rng.random::<f32>()).sum();
    (sum - 2.0) * 3f32.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::Exposure;
    use crate::grid::sample::{sample_face, unrotate, SampleOptions};

    #[test]
    fn a_darker_or_brighter_photo_scales_the_light_of_that_photo_only() {
        let mean = |exposure: Exposure| {
            let mut camera = SimCamera::new(3, SimLighting::default());
            let request = CaptureRequest {
                camera: 0,
                face: Face::F,
                image_rotation: 0,
                exposure,
            };
            let photo = camera.capture(&request).expect("photo");
            let again = camera.capture(&CaptureRequest {
                exposure: Exposure::NORMAL,
                ..request
            });
            let total: u64 = photo.as_raw().iter().map(|&v| u64::from(v)).sum();
            let next: u64 = again
                .expect("photo")
                .as_raw()
                .iter()
                .map(|&v| u64::from(v))
                .sum();
            (total as f64, next as f64)
        };
        let (normal, normal_next) = mean(Exposure::NORMAL);
        let (darker, darker_next) = mean(Exposure::stops(-1));
        let (brighter, _) = mean(Exposure::stops(1));
        // A stop is half (twice) the light: 0.73 (1.37) times the sRGB values, less where clipped.
        assert!(
            darker < 0.78 * normal && darker > 0.68 * normal,
            "{darker} vs {normal}"
        );
        assert!(brighter > 1.15 * normal, "{brighter} vs {normal}");
        assert_eq!(darker_next, normal_next, "the next photo is back to normal");
    }

    #[test]
    fn an_overexposed_yellow_fades_towards_white_only_with_the_rolloff() {
        let yellow = [245.0 * 1.5, 222.0 * 1.5, 25.0 * 1.5];
        assert_eq!(rolled_off(yellow, 0.0), yellow, "each channel clips alone");
        let faded = rolled_off(yellow, 1.0);
        // 367.5 passes 255 by 112.5 = 44 % of full scale: blue closes 44 % of its gap.
        let want = 37.5 + (367.5 - 37.5) * (112.5 / 255.0);
        assert!((faded[2] - want).abs() < 0.01, "{faded:?}");
        assert_eq!(faded[0], 367.5);
        let in_range = [200.0, 120.0, 30.0];
        assert_eq!(
            rolled_off(in_range, 1.0),
            in_range,
            "below full scale: unchanged"
        );
    }

    #[test]
    fn the_homography_maps_the_square_onto_the_corners_and_back() {
        let q = [[10.0, 20.0], [300.0, 30.0], [310.0, 280.0], [5.0, 260.0]];
        let (m, inv) = (square_to_quad(q), invert(square_to_quad(q)));
        for ((u, v), want) in [
            ((0.0, 0.0), q[0]),
            ((1.0, 0.0), q[1]),
            ((1.0, 1.0), q[2]),
            ((0.0, 1.0), q[3]),
        ] {
            let w = m[2][0] * u + m[2][1] * v + m[2][2];
            let (x, y) = (
                (m[0][0] * u + m[0][1] * v + m[0][2]) / w,
                (m[1][0] * u + m[1][1] * v + m[1][2]) / w,
            );
            assert!((x - want[0]).abs() < 1e-3 && (y - want[1]).abs() < 1e-3);
            let w2 = inv[2][0] * x + inv[2][1] * y + inv[2][2];
            assert!(((inv[0][0] * x + inv[0][1] * y + inv[0][2]) / w2 - u).abs() < 1e-4);
        }
    }

    #[test]
    fn a_rotated_render_samples_back_to_the_stickers_in_net_order() {
        let stickers: [Rgb; 9] = std::array::from_fn(|i| STANDARD_STICKERS[i % 6]);
        let mut camera = SimCamera::new(
            3,
            SimLighting {
                glare_spots: 0,
                noise: 0.0,
                ..SimLighting::default()
            },
        );
        for rotation in 0..4 {
            let image = camera.render_face(&stickers, rotation);
            let seen = sample_face(
                &image,
                &SimCamera::nominal_grid(),
                &SampleOptions::default(),
            )
            .expect("inside");
            let back = unrotate(&seen, rotation);
            for i in 0..9 {
                let hue_kept =
                    (0..3).all(|c| (back[i][c] as i32 - stickers[i][c] as i32).abs() < 70);
                assert!(
                    hue_kept,
                    "rotation {rotation} sticker {i}: {:?} vs {:?}",
                    back[i], stickers[i]
                );
            }
        }
    }

    #[test]
    fn the_same_seed_renders_the_same_photo() {
        let stickers = [STANDARD_STICKERS[0]; 9];
        let a = SimCamera::new(9, SimLighting::default()).render_face(&stickers, 0);
        let b = SimCamera::new(9, SimLighting::default()).render_face(&stickers, 0);
        let c = SimCamera::new(10, SimLighting::default()).render_face(&stickers, 0);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
