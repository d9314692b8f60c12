//! Colour arithmetic for vision: sRGB readings, CIELAB (D65) conversion and CIEDE2000 distance (via the `palette` crate).

use palette::color_difference::Ciede2000;
use palette::{FromColor, Lab, Srgb};

/// One camera reading of a sticker: sRGB, 0..=255 per channel.
pub type Rgb = [u8; 3];

/// A reading's brightest channel (its value, in HSV's terms): what clipping and exposure act on.
pub(crate) fn brightest_channel(rgb: Rgb) -> u8 {
    rgb[0].max(rgb[1]).max(rgb[2])
}

/// A CIELAB (D65) colour: lightness 0..100, a and b roughly -128..128.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct LabColour {
    pub l: f32,
    pub a: f32,
    pub b: f32,
}

impl LabColour {
    /// Converts an sRGB reading to CIELAB (D65).
    pub fn from_rgb(rgb: Rgb) -> LabColour {
        let srgb = Srgb::new(rgb[0], rgb[1], rgb[2]).into_format::<f32>();
        let lab: Lab = Lab::from_color(srgb);
        LabColour {
            l: lab.l,
            a: lab.a,
            b: lab.b,
        }
    }

    /// The nearest sRGB reading (clamped to the gamut).
    pub fn to_rgb(self) -> Rgb {
        let srgb: Srgb = Srgb::from_color(self.as_palette());
        let u8s = srgb.into_format::<u8>();
        [u8s.red, u8s.green, u8s.blue]
    }

    fn as_palette(self) -> Lab {
        Lab::new(self.l, self.a, self.b)
    }

    /// CIEDE2000 colour difference: about 1 is a just-noticeable difference.
    pub fn delta_e(self, other: LabColour) -> f32 {
        self.as_palette().difference(other.as_palette())
    }

    /// `self * (1 - t) + other * t`, component-wise.
    pub fn mix(self, other: LabColour, t: f32) -> LabColour {
        LabColour {
            l: self.l + (other.l - self.l) * t,
            a: self.a + (other.a - self.a) * t,
            b: self.b + (other.b - self.b) * t,
        }
    }

    /// The component-wise median of some colours (`None` for none): robust to a few outliers.
    pub fn median(colours: impl IntoIterator<Item = LabColour>) -> Option<LabColour> {
        let mut parts: [Vec<f32>; 3] = Default::default();
        for c in colours {
            parts[0].push(c.l);
            parts[1].push(c.a);
            parts[2].push(c.b);
        }
        let [l, a, b] = parts.map(|mut v| {
            v.sort_unstable_by(f32::total_cmp);
            median_of_sorted(&v)
        });
        Some(LabColour {
            l: l?,
            a: a?,
            b: b?,
        })
    }
}

/// The middle value (mean of the two middle ones for an even count).
pub(crate) fn median_of_sorted(v: &[f32]) -> Option<f32> {
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_and_black_have_the_extreme_lightness() {
        let white = LabColour::from_rgb([255, 255, 255]);
        let black = LabColour::from_rgb([0, 0, 0]);
        assert!((white.l - 100.0).abs() < 0.5 && white.a.abs() < 0.5 && white.b.abs() < 0.5);
        assert!(black.l.abs() < 0.5);
    }

    #[test]
    fn round_trip_through_lab_keeps_the_reading() {
        for rgb in [
            [200, 30, 40],
            [20, 150, 250],
            [250, 200, 10],
            [128, 128, 128],
        ] {
            let back = LabColour::from_rgb(rgb).to_rgb();
            for c in 0..3 {
                assert!(
                    (back[c] as i32 - rgb[c] as i32).abs() <= 1,
                    "{rgb:?} -> {back:?}"
                );
            }
        }
    }

    #[test]
    fn red_is_nearer_orange_than_blue() {
        let red = LabColour::from_rgb([200, 20, 30]);
        let orange = LabColour::from_rgb([250, 120, 20]);
        let blue = LabColour::from_rgb([20, 60, 200]);
        assert!(red.delta_e(orange) < red.delta_e(blue));
        assert_eq!(red.delta_e(red), 0.0);
    }

    #[test]
    fn the_median_ignores_one_outlier() {
        let c = |l| LabColour { l, a: 0.0, b: 0.0 };
        let m = LabColour::median([c(50.0), c(52.0), c(0.0), c(51.0)]).expect("some");
        assert_eq!(m.l, 50.5);
        assert!(LabColour::median([]).is_none());
    }
}
