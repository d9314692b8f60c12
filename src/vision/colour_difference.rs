//! CIEDE2000 with the parametric lightness factor kL (the `palette` crate fixes kL = 1; textiles and camera readings under uneven light use kL > 1). Checked against `palette` for kL = 1.

use super::colour::LabColour;

/// CIEDE2000 difference between `x` and `y` with lightness differences divided by `k_l`.
pub(crate) fn ciede2000(x: LabColour, y: LabColour, k_l: f32) -> f32 {
    let (x, y) = (
        [x.l as f64, x.a as f64, x.b as f64],
        [y.l as f64, y.a as f64, y.b as f64],
    );
    let c_bar = (x[1].hypot(x[2]) + y[1].hypot(y[2])) / 2.0;
    let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
    let (a1, a2) = (x[1] * (1.0 + g), y[1] * (1.0 + g));
    let (c1, c2) = (a1.hypot(x[2]), a2.hypot(y[2]));
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
    let t = 1.0 - 0.17 * (h_bar - 30.0).to_radians().cos()
        + 0.24 * (2.0 * h_bar).to_radians().cos()
        + 0.32 * (3.0 * h_bar + 6.0).to_radians().cos()
        - 0.20 * (4.0 * h_bar - 63.0).to_radians().cos();
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
