//! The two kinds of scene the frames are made of, drawn from a seed: the development frames' workshop (a grey table, a window of tall panes on the right, upright frame bars, grey, brass or black gears, black, red and grey cables, orange brackets, grippers from the sides) and the held-out frames' lab, which adds what the development frames never show (a wood table, a window on the left, a diagonal brace, white nylon gears, blue and yellow cables, red brackets, blue and white labels, a circuit board, grippers from above and below).

use super::draw::{light_gradient, Colour};
use super::elements::{
    anywhere, between, bracket, cable, circuit_board, frame_bar, gear, grippers, label, one_of,
    table, wall, window,
};
use super::FrameSet;
use image::RgbImage;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Frame size: a 1080p webcam.
pub const FRAME_WIDTH: u32 = 1920;
pub const FRAME_HEIGHT: u32 = 1080;

const BRASS: Colour = [180.0, 140.0, 62.0];
const STEEL: Colour = [125.0, 125.0, 130.0];
const BLACK: Colour = [32.0, 32.0, 35.0];
const SILVER: Colour = [150.0, 150.0, 156.0];
const ORANGE_PLA: Colour = [235.0, 110.0, 30.0];
const RED_PLA: Colour = [190.0, 30.0, 35.0];

/// The scene behind the cube (`cube`: where the face will be, its centre and side, for the
/// grippers holding it), the same for one `seed` and set whatever the cube.
pub fn draw_scene(set: FrameSet, seed: u64, cube: Option<([f32; 2], f32)>) -> RgbImage {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut image = RgbImage::new(FRAME_WIDTH, FRAME_HEIGHT);
    match set {
        FrameSet::Dev => workshop(&mut image, &mut rng),
        FrameSet::HeldOut => lab(&mut image, &mut rng),
    }
    if let Some(cube) = cube {
        let (horizontal, colour) = match set {
            FrameSet::Dev => (true, [40.0, 40.0, 45.0]),
            FrameSet::HeldOut => (false, [28.0, 28.0, 30.0]),
        };
        grippers(&mut image, cube, horizontal, colour);
    }
    let slope = [between(&mut rng, -0.3, 0.3), between(&mut rng, -0.3, 0.3)];
    light_gradient(&mut image, slope);
    image
}

/// A window of `panes` tall panes (width to height 0.45..0.7) with its top left at `at`.
fn tall_window(
    image: &mut RgbImage,
    rng: &mut ChaCha8Rng,
    at: [f32; 2],
    panes: (usize, usize),
    frame: Colour,
) {
    let pane_w = between(rng, 150.0, 260.0);
    let pane_h = pane_w / between(rng, 0.45, 0.7);
    let mullion = between(rng, 10.0, 18.0);
    let border = 2.0 * 1.8 * mullion;
    let width = panes.0 as f32 * pane_w + (panes.0 - 1) as f32 * mullion + border;
    let height = panes.1 as f32 * pane_h + (panes.1 - 1) as f32 * mullion + border;
    let rect = [at[0], at[1], at[0] + width, at[1] + height];
    window(image, rect, panes, (frame, mullion));
}

/// The development frames' scene.
fn workshop(image: &mut RgbImage, rng: &mut ChaCha8Rng) {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let wall_colour = one_of(
        rng,
        &[
            [150.0, 150.0, 145.0],
            [165.0, 158.0, 140.0],
            [95.0, 97.0, 100.0],
        ],
    );
    wall(image, wall_colour, 0.2);
    let panes = one_of(rng, &[(3, 1), (3, 2), (2, 1)]);
    let at = [between(rng, w * 0.55, w * 0.7), between(rng, 20.0, 120.0)];
    tall_window(image, rng, at, panes, [225.0, 225.0, 220.0]);
    table(
        image,
        between(rng, h * 0.72, h * 0.85),
        [125.0, 125.0, 120.0],
        None,
    );
    let bar = one_of(rng, &[BLACK, SILVER]);
    for _ in 0..2 {
        let x = between(rng, 0.0, w);
        frame_bar(image, ([x, 0.0], [x, h]), between(rng, 45.0, 60.0), bar);
    }
    let y = between(rng, h * 0.1, h * 0.3);
    frame_bar(image, ([0.0, y], [w, y]), between(rng, 45.0, 60.0), bar);
    for _ in 0..rng.random_range(2..5) {
        let at = anywhere(rng, image);
        let colour = one_of(rng, &[BRASS, STEEL, BLACK]);
        gear(
            image,
            at,
            between(rng, 40.0, 140.0),
            rng.random_range(14..32),
            colour,
        );
    }
    cables(
        image,
        rng,
        &[BLACK, [170.0, 30.0, 30.0], [110.0, 110.0, 110.0]],
        2..5,
    );
    brackets(image, rng, &[ORANGE_PLA], 2..6);
}

/// The held-out frames' scene.
fn lab(image: &mut RgbImage, rng: &mut ChaCha8Rng) {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let wall_colour = one_of(
        rng,
        &[
            [140.0, 145.0, 150.0],
            [180.0, 175.0, 165.0],
            [80.0, 75.0, 72.0],
        ],
    );
    wall(image, wall_colour, 0.3);
    let panes = one_of(rng, &[(2, 2), (4, 1), (2, 1)]);
    let frame = one_of(rng, &[[55.0, 50.0, 48.0], [225.0, 225.0, 220.0]]);
    let at = [between(rng, 0.0, w * 0.15), between(rng, 0.0, 80.0)];
    tall_window(image, rng, at, panes, frame);
    let grain = Some(between(rng, 0.05, 0.12));
    table(
        image,
        between(rng, h * 0.7, h * 0.82),
        [155.0, 108.0, 66.0],
        grain,
    );
    let bar = one_of(rng, &[BLACK, SILVER]);
    let x = between(rng, w * 0.3, w);
    frame_bar(image, ([x, 0.0], [x, h]), between(rng, 40.0, 60.0), bar);
    let y = between(rng, h * 0.05, h * 0.25);
    frame_bar(image, ([0.0, y], [w, y]), between(rng, 40.0, 60.0), bar);
    let brace = ([between(rng, 0.0, w), 0.0], [between(rng, 0.0, w), h]);
    frame_bar(image, brace, 35.0, bar);
    if rng.random_bool(0.6) {
        let (l, t) = (between(rng, 0.0, w - 300.0), between(rng, 0.0, h - 200.0));
        let size = [between(rng, 150.0, 300.0), between(rng, 100.0, 200.0)];
        circuit_board(image, rng, [l, t, l + size[0], t + size[1]]);
    }
    for _ in 0..rng.random_range(1..4) {
        let at = anywhere(rng, image);
        let colour = one_of(rng, &[BRASS, [225.0, 220.0, 205.0], BLACK]);
        gear(
            image,
            at,
            between(rng, 40.0, 140.0),
            rng.random_range(14..32),
            colour,
        );
    }
    let cable_colours = [BLACK, [30.0, 60.0, 160.0], [200.0, 180.0, 40.0], [110.0; 3]];
    cables(image, rng, &cable_colours, 2..6);
    brackets(image, rng, &[RED_PLA, ORANGE_PLA], 1..5);
    for _ in 0..rng.random_range(1..4) {
        let at = anywhere(rng, image);
        let size = (between(rng, 60.0, 160.0), between(rng, 50.0, 110.0));
        let blue = rng.random_bool(0.5);
        label(image, at, size, between(rng, -0.4, 0.4), blue);
    }
}

/// `count` cables across the frame in `colours`.
fn cables(
    image: &mut RgbImage,
    rng: &mut ChaCha8Rng,
    colours: &[Colour],
    count: std::ops::Range<usize>,
) {
    for _ in 0..rng.random_range(count) {
        let controls = [0; 4].map(|_| anywhere(rng, image));
        let colour = one_of(rng, colours);
        cable(image, controls, between(rng, 8.0, 22.0), colour);
    }
}

/// `count` printed brackets in `colours`, square plates or Ls.
fn brackets(
    image: &mut RgbImage,
    rng: &mut ChaCha8Rng,
    colours: &[Colour],
    count: std::ops::Range<usize>,
) {
    for _ in 0..rng.random_range(count) {
        let at = anywhere(rng, image);
        let colour = one_of(rng, colours);
        let size = between(rng, 50.0, 140.0);
        let angle = between(rng, -0.5, 0.5);
        bracket(image, at, size, angle, colour, rng.random_bool(0.5));
    }
}
