//! The things a cube-solving robot's webcam sees around the cube, each drawn from a seeded generator: a wall, a window with mullions, a table (grey or wood), the robot's metal frame bars, gears, cables, 3D-printed brackets, labels, a circuit board and the grippers holding the cube.

use super::draw::{
    bezier, fill_box_with, fill_convex, fill_convex_with, fill_disc, shade, thick_path,
    turned_rect, Colour,
};
use image::RgbImage;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A value drawn from `lo..hi`.
pub fn between(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    rng.random_range(lo..hi)
}

/// One of `choices`, drawn.
pub fn one_of<T: Copy>(rng: &mut ChaCha8Rng, choices: &[T]) -> T {
    choices[rng.random_range(0..choices.len())]
}

/// A point drawn anywhere in the frame.
pub fn anywhere(rng: &mut ChaCha8Rng, image: &RgbImage) -> [f32; 2] {
    [
        between(rng, 0.0, image.width() as f32),
        between(rng, 0.0, image.height() as f32),
    ]
}

/// The wall: `colour` darkening towards the top by up to `fall`.
pub fn wall(image: &mut RgbImage, colour: Colour, fall: f32) {
    let h = image.height() as f32;
    let (w, hh) = (image.width() as f32, h);
    fill_box_with(image, [0.0, 0.0, w, hh], |_, y| {
        shade(colour, 1.0 - fall * (1.0 - y / h))
    });
}

/// A window: a bright sky (clipping at its brightest) behind `panes` (columns, rows) divided
/// by mullions, in a frame.
pub fn window(
    image: &mut RgbImage,
    rect: [f32; 4],
    panes: (usize, usize),
    (frame, mullion): (Colour, f32),
) {
    let [l, t, r, b] = rect;
    let border = mullion * 1.8;
    fill_box_with(image, rect, |_, _| frame);
    // A pale blue sky over a haze that clips near the sill, as a window in a webcam does.
    let sky = |_: f32, y: f32| {
        let down = (y - t) / (b - t);
        [
            165.0 + 110.0 * down,
            205.0 + 75.0 * down,
            250.0 + 35.0 * down,
        ]
    };
    let (inner_w, inner_h) = (r - l - 2.0 * border, b - t - 2.0 * border);
    let (cols, rows) = (panes.0 as f32, panes.1 as f32);
    let pane_w = (inner_w - (cols - 1.0) * mullion) / cols;
    let pane_h = (inner_h - (rows - 1.0) * mullion) / rows;
    for j in 0..panes.1 {
        for i in 0..panes.0 {
            let x = l + border + i as f32 * (pane_w + mullion);
            let y = t + border + j as f32 * (pane_h + mullion);
            fill_box_with(image, [x, y, x + pane_w, y + pane_h], sky);
        }
    }
}

/// A table top from `top` down: flat grey, or wood with its grain.
pub fn table(image: &mut RgbImage, top: f32, colour: Colour, wood: Option<f32>) {
    let (w, h) = (image.width() as f32, image.height() as f32);
    fill_box_with(image, [0.0, top, w, h], |x, y| {
        let near = 0.85 + 0.15 * (y - top) / (h - top);
        let grain = wood.map_or(1.0, |f| {
            let wave = (x * f + 9.0 * (y * 0.013).sin() + 3.0 * (x * 0.002).sin()).sin();
            0.88 + 0.12 * wave
        });
        shade(colour, near * grain)
    });
    // The table's front edge catches the light.
    fill_box_with(image, [0.0, top, w, top + 6.0], |_, _| shade(colour, 1.25));
}

/// A metal frame bar (an aluminium extrusion) from `a` to `b`: its face, a darker slot along
/// its middle and a lit edge.
pub fn frame_bar(image: &mut RgbImage, (a, b): ([f32; 2], [f32; 2]), width: f32, colour: Colour) {
    let centre = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let length = (b[0] - a[0]).hypot(b[1] - a[1]);
    let angle = (b[1] - a[1]).atan2(b[0] - a[0]);
    fill_convex(image, &turned_rect(centre, (length, width), angle), colour);
    let slot = turned_rect(centre, (length, width * 0.18), angle);
    fill_convex(image, &slot, shade(colour, 0.45));
    let (sin, cos) = angle.sin_cos();
    let edge_at = [centre[0] + sin * width * 0.4, centre[1] - cos * width * 0.4];
    let edge = turned_rect(edge_at, (length, width * 0.08), angle);
    fill_convex(image, &edge, shade(colour, 1.5));
}

/// A gear: `teeth` teeth round a disc of `radius`, lightening holes, a hub and its bore.
pub fn gear(image: &mut RgbImage, centre: [f32; 2], radius: f32, teeth: usize, colour: Colour) {
    let tooth = (
        std::f32::consts::TAU * radius / teeth as f32 * 0.5,
        radius * 0.16,
    );
    for k in 0..teeth {
        let angle = std::f32::consts::TAU * k as f32 / teeth as f32;
        let (sin, cos) = angle.sin_cos();
        let at = [centre[0] + cos * radius, centre[1] + sin * radius];
        let rect = turned_rect(at, (tooth.1 * 2.0, tooth.0), angle);
        fill_convex(image, &rect, colour);
    }
    fill_disc(image, centre, radius, colour);
    fill_disc(image, centre, radius * 0.8, shade(colour, 0.85));
    for k in 0..5 {
        let angle = std::f32::consts::TAU * k as f32 / 5.0 + 0.3;
        let at = [
            centre[0] + angle.cos() * radius * 0.5,
            centre[1] + angle.sin() * radius * 0.5,
        ];
        fill_disc(image, at, radius * 0.17, shade(colour, 0.35));
    }
    fill_disc(image, centre, radius * 0.28, shade(colour, 1.15));
    fill_disc(image, centre, radius * 0.1, [20.0, 20.0, 22.0]);
}

/// A cable: a thick curve through four control points with a lit line along it.
pub fn cable(image: &mut RgbImage, controls: [[f32; 2]; 4], width: f32, colour: Colour) {
    let path = bezier(controls, 40);
    thick_path(image, &path, width, colour);
    let lit: Vec<[f32; 2]> = path
        .iter()
        .map(|p| [p[0] - width * 0.2, p[1] - width * 0.2])
        .collect();
    thick_path(
        image,
        &lit,
        width * 0.2,
        shade(colour, 1.6).map(|c| c + 30.0),
    );
}

/// A 3D-printed bracket: an L of two plates, or one square plate, with dark screw holes.
pub fn bracket(image: &mut RgbImage, at: [f32; 2], size: f32, angle: f32, colour: Colour, l: bool) {
    let plate = turned_rect(at, (size, size), angle);
    fill_convex(image, &plate, colour);
    let (sin, cos) = angle.sin_cos();
    let along = |d: f32, e: f32| [at[0] + cos * d - sin * e, at[1] + sin * d + cos * e];
    if l {
        let arm = turned_rect(
            along(size * 0.9, size * 0.35),
            (size * 0.9, size * 0.3),
            angle,
        );
        fill_convex(image, &arm, shade(colour, 0.8));
        fill_disc(
            image,
            along(size * 1.1, size * 0.35),
            size * 0.07,
            [25.0; 3],
        );
    }
    for (d, e) in [(-0.25, -0.25), (0.25, 0.25)] {
        fill_disc(
            image,
            along(size * d, size * e),
            size * 0.08,
            [25.0, 22.0, 20.0],
        );
    }
}

/// A label: white with blue text, or blue with a white border and white text.
pub fn label(image: &mut RgbImage, at: [f32; 2], (w, h): (f32, f32), angle: f32, blue: bool) {
    let (white, ink): (Colour, Colour) = ([236.0, 236.0, 230.0], [30.0, 70.0, 190.0]);
    let (paper, text) = if blue { (ink, white) } else { (white, ink) };
    if blue {
        fill_convex(image, &turned_rect(at, (w, h), angle), white);
    }
    let inner = if blue { (w * 0.88, h * 0.88) } else { (w, h) };
    fill_convex(image, &turned_rect(at, inner, angle), paper);
    let (sin, cos) = angle.sin_cos();
    for line in 0..3 {
        let e = h * (-0.25 + 0.25 * line as f32);
        let d = -w * 0.08 * line as f32;
        let centre = [at[0] + cos * d - sin * e, at[1] + sin * d + cos * e];
        fill_convex(
            image,
            &turned_rect(centre, (w * 0.6, h * 0.08), angle),
            text,
        );
    }
}

/// A circuit board: green, with black chips, gold pads and white silkscreen lines.
pub fn circuit_board(image: &mut RgbImage, rng: &mut ChaCha8Rng, rect: [f32; 4]) {
    let [l, t, r, b] = rect;
    fill_box_with(image, rect, |_, _| [30.0, 105.0, 55.0]);
    for _ in 0..rng.random_range(3..7) {
        let (w, h) = (
            (r - l) * between(rng, 0.1, 0.3),
            (b - t) * between(rng, 0.1, 0.3),
        );
        let x = between(rng, l, r - w);
        let y = between(rng, t, b - h);
        fill_box_with(image, [x, y, x + w, y + h], |_, _| [28.0, 28.0, 30.0]);
    }
    for _ in 0..rng.random_range(8..20) {
        let at = [between(rng, l, r), between(rng, t, b)];
        fill_disc(image, at, 4.0, [200.0, 170.0, 80.0]);
    }
    for _ in 0..4 {
        let y = between(rng, t, b);
        fill_box_with(image, [l + 8.0, y, r - 8.0, y + 2.0], |_, _| [220.0; 3]);
    }
}

/// The robot's grippers reaching the cube (`face`: its centre and side) from two opposite
/// sides (`horizontal`: from the left and the right, else from above and below), dark plastic
/// arms on metal shafts.
pub fn grippers(
    image: &mut RgbImage,
    (centre, side): ([f32; 2], f32),
    horizontal: bool,
    colour: Colour,
) {
    let (half, reach) = (side * 0.5, side * 0.55);
    for sign in [-1.0f32, 1.0] {
        let (along, across) = if horizontal { (0, 1) } else { (1, 0) };
        let mut jaw = [0.0; 2];
        jaw[along] = centre[along] + sign * (half + reach / 2.0 - 4.0);
        jaw[across] = centre[across];
        let mut size = [0.0; 2];
        size[along] = reach;
        size[across] = side * 0.45;
        let rect = [
            jaw[0] - size[0] / 2.0,
            jaw[1] - size[1] / 2.0,
            jaw[0] + size[0] / 2.0,
            jaw[1] + size[1] / 2.0,
        ];
        fill_convex_with(
            image,
            &[
                [rect[0], rect[1]],
                [rect[2], rect[1]],
                [rect[2], rect[3]],
                [rect[0], rect[3]],
            ],
            |_, _| colour,
        );
        let mut shaft_end = centre;
        shaft_end[along] = centre[along] + sign * (half + reach + side);
        let mut shaft_start = centre;
        shaft_start[along] = centre[along] + sign * (half + reach - 2.0);
        frame_bar(
            image,
            (shaft_start, shaft_end),
            side * 0.12,
            [150.0, 150.0, 155.0],
        );
    }
}
