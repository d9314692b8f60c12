//! Seeded lighting perturbations of real readings (per-face brightness and per-channel gain), used to measure the classifier's robustness.

use super::colour::Rgb;
use rand::{Rng, RngExt};

/// Ranges of the random lighting changes applied to each face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perturbation {
    /// Brightness factor range, the same for the three channels of a face.
    pub brightness: (f32, f32),
    /// Gain range of each channel of each face (white-balance drift).
    pub channel_gain: (f32, f32),
}

impl Default for Perturbation {
    /// The figures: brightness x[0.6, 1.4], channel gain x[0.85, 1.15].
    fn default() -> Self {
        Perturbation {
            brightness: (0.6, 1.4),
            channel_gain: (0.85, 1.15),
        }
    }
}

impl Perturbation {
    /// The readings as a camera with other exposure and white balance per face would give them (clipped to 0..=255).
    pub fn apply<R: Rng>(&self, readings: &[Rgb; 54], rng: &mut R) -> [Rgb; 54] {
        let mut out = *readings;
        for face in out.chunks_mut(9) {
            let brightness = rng.random_range(self.brightness.0..=self.brightness.1);
            let gains: [f32; 3] = std::array::from_fn(|_| {
                brightness * rng.random_range(self.channel_gain.0..=self.channel_gain.1)
            });
            for rgb in face {
                for c in 0..3 {
                    rgb[c] = (rgb[c] as f32 * gains[c]).round().clamp(0.0, 255.0) as u8;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn each_face_gets_one_lighting_within_the_ranges() {
        let readings = [[100u8, 100, 100]; 54];
        let out = Perturbation::default().apply(&readings, &mut ChaCha8Rng::seed_from_u64(1));
        for face in out.chunks(9) {
            assert!(face.iter().all(|r| r == &face[0]));
            assert!(
                face[0].iter().all(|&v| (51..=161).contains(&v)),
                "{:?}",
                face[0]
            );
        }
        assert_ne!(out[0], out[9]);
    }
}
