//! CIEDE2000 with the parametric lightness factor kL (the `palette` crate fixes kL = 1; textiles and camera readings under uneven light use kL > 1). Checked against `palette` for kL = 1.

use crate::light::colour::LabColour;

/// CIEDE2000 difference between `x` and `y` with lightness differences divided by `k_l`.
pub(crate) fn ciede2000(x: LabColour, y: LabColour, k_l: f32) -> f32 {
    let (x, y) = (
        [x.l as f64, x.a as f64, x.b as f64],
        [y.l as f64, y.a as f64, y.b as f64],
    );
    let c_bar = (norm(x[1], x[2]) + norm(y[1], y[2])) / 2.0;
    let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
    let (a1, a2) = (x[1] * (1.0 + g), y[1] * (1.0 + g));
    let (c1, c2) = (norm(a1, x[2]), norm(a2, y[2]));
    let (h1, h2) = (hue_degrees(x[2], a1), hue_degrees(y[2], a2));
    let chroma_zero = c1 == 0.0 || c2 == 0.0;
    let dh = match h2 - h1 {
        _ if chroma_zero => 0.0,
        d if d.abs() <= 180.0 => d,
        d if h2 <= h1 => d + 360.0,
        d => d - 360.0,
    };
    let d_big_h = 2.0 * (c1 * c2).sqrt() * (dh / 2.0).to_radians().sin();
    let h_bar = match h1 + h2 {
        s if chroma_zero => s,
        s if (h1 - h2).abs() > 180.0 => (s + 360.0) / 2.0,
        s => s / 2.0,
    };
    let l_bar = (x[0] + y[0]) / 2.0;
    let c_bar_p = (c1 + c2) / 2.0;
    let t = hue_weight(h_bar);
    let l50 = (l_bar - 50.0).powi(2);
    let s_l = 1.0 + 0.015 * l50 / (20.0 + l50).sqrt();
    let s_c = 1.0 + 0.045 * c_bar_p;
    let s_h = 1.0 + 0.015 * c_bar_p * t;
    let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (c_bar_p.powi(7) / (c_bar_p.powi(7) + 25f64.powi(7))).sqrt();
    let r_t = -r_c * (2.0 * d_theta).to_radians().sin();
    let (dl, dc) = ((y[0] - x[0]) / (k_l as f64 * s_l), (c2 - c1) / s_c);
    let dh = d_big_h / s_h;
    (dl * dl + dc * dc + dh * dh + r_t * dc * dh)
        .max(0.0)
        .sqrt() as f32
}

/// The length of (a, b): Lab values are small, so no overflow guard is needed.
fn norm(a: f64, b: f64) -> f64 {
    (a * a + b * b).sqrt()
}

/// CIEDE2000's T(h) = 1 - 0.17 cos(h - 30°) + 0.24 cos 2h + 0.32 cos(3h + 6°)
/// - 0.20 cos(4h - 63°), from one sine and cosine by the multiple-angle formulas.
fn hue_weight(h_degrees: f64) -> f64 {
    let (s1, c1) = h_degrees.to_radians().sin_cos();
    let (s2, c2) = (2.0 * s1 * c1, c1 * c1 - s1 * s1);
    let (s3, c3) = (s2 * c1 + c2 * s1, c2 * c1 - s2 * s1);
    let (s4, c4) = (2.0 * s2 * c2, c2 * c2 - s2 * s2);
    let (s30, c30) = 30f64.to_radians().sin_cos();
    let (s6, c6) = 6f64.to_radians().sin_cos();
    let (s63, c63) = 63f64.to_radians().sin_cos();
    1.0 - 0.17 * (c1 * c30 + s1 * s30) + 0.24 * c2 + 0.32 * (c3 * c6 - s3 * s6)
        - 0.20 * (c4 * c63 + s4 * s63)
}

fn hue_degrees(b: f64, a_prime: f64) -> f64 {
    if b == 0.0 && a_prime == 0.0 {
        return 0.0;
    }
    let h = b.atan2(a_prime).to_degrees();
    if h < 0.0 {
        h + 360.0
    } else {
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn with_unit_lightness_factor_it_agrees_with_the_palette_crate() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            let mut rgb = || std::array::from_fn(|_| rng.random_range(0..=255u8));
            let (x, y) = (LabColour::from_rgb(rgb()), LabColour::from_rgb(rgb()));
            let (ours, theirs) = (ciede2000(x, y, 1.0), x.delta_e(y));
            assert!(
                (ours - theirs).abs() < 1e-2 * theirs.max(1.0),
                "{x:?} {y:?}: {ours} vs {theirs}"
            );
        }
    }

    #[test]
    fn it_gives_the_published_test_values() {
        // Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference
        // formula", table 1: pairs 1, 2, 3, 7, 8, 17, 18, 19, 20.
        let lab = |l, a, b| LabColour { l, a, b };
        let pairs = [
            (
                lab(50.0, 2.6772, -79.7751),
                lab(50.0, 0.0, -82.7485),
                2.0425,
            ),
            (
                lab(50.0, 3.1571, -77.2803),
                lab(50.0, 0.0, -82.7485),
                2.8615,
            ),
            (
                lab(50.0, 2.8361, -74.0200),
                lab(50.0, 0.0, -82.7485),
                3.4412,
            ),
            (lab(50.0, 0.0, 0.0), lab(50.0, -1.0, 2.0), 2.3669),
            (lab(50.0, -1.0, 2.0), lab(50.0, 0.0, 0.0), 2.3669),
            (lab(50.0, 2.5, 0.0), lab(73.0, 25.0, -18.0), 27.1492),
            (lab(50.0, 2.5, 0.0), lab(61.0, -5.0, 29.0), 22.8977),
            (lab(50.0, 2.5, 0.0), lab(56.0, -27.0, -3.0), 31.9030),
            (lab(50.0, 2.5, 0.0), lab(58.0, 24.0, 15.0), 19.4535),
        ];
        for (x, y, published) in pairs {
            let ours = ciede2000(x, y, 1.0);
            assert!((ours - published).abs() < 1e-3, "{x:?} {y:?}: {ours}");
        }
    }

    #[test]
    fn the_hue_weight_from_one_angle_equals_the_four_cosines() {
        for tenth in 0..3600 {
            let h = tenth as f64 / 10.0;
            let cos = |degrees: f64| degrees.to_radians().cos();
            let direct =
                1.0 - 0.17 * cos(h - 30.0) + 0.24 * cos(2.0 * h) + 0.32 * cos(3.0 * h + 6.0)
                    - 0.20 * cos(4.0 * h - 63.0);
            assert!((hue_weight(h) - direct).abs() < 1e-12, "{h}");
        }
    }

    #[test]
    fn a_larger_lightness_factor_forgives_lightness_only() {
        let grey = |l| LabColour { l, a: 0.0, b: 0.0 };
        assert!(
            (ciede2000(grey(40.0), grey(60.0), 2.0) - ciede2000(grey(40.0), grey(60.0), 1.0) / 2.0)
                .abs()
                < 1e-4
        );
        let red = LabColour {
            l: 50.0,
            a: 60.0,
            b: 40.0,
        };
        let orange = LabColour {
            l: 50.0,
            a: 40.0,
            b: 60.0,
        };
        assert_eq!(ciede2000(red, orange, 2.0), ciede2000(red, orange, 1.0));
    }
}
