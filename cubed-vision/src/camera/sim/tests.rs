//! Tests of the simulated camera: exposure per photo, the highlight roll-off, the homography, rotated renders sampled back in net order, and seeded photos.

use super::shot::invert;
use super::*;
use crate::camera::Exposure;
use crate::grid::face_grid::square_to_quad;
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
            let hue_kept = (0..3).all(|c| (back[i][c] as i32 - stickers[i][c] as i32).abs() < 70);
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
