//! Seeded lighting perturbations of real readings (per-face brightness and per-channel gain, and a camera-wide exposure and cast), and the named hard-case conditions of the vision bench.

use cubed::vision::light::colour::Rgb;
use rand::{Rng, RngExt};

/// Ranges of the random lighting changes applied to each face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perturbation {
    /// Brightness factor range, the same for the three channels of a face.
    pub brightness: (f32, f32),
    /// Gain range of each channel of each face (white-balance drift).
    pub channel_gain: (f32, f32),
    /// Exposure factor range of the whole scan (the same for every face).
    pub exposure: (f32, f32),
    /// Gain range of each channel of the whole scan (a camera colour cast).
    pub cast: (f32, f32),
}

impl Default for Perturbation {
    /// The figures: brightness x[0.6, 1.4], channel gain x[0.85, 1.15].
    fn default() -> Self {
        Perturbation {
            brightness: (0.6, 1.4),
            channel_gain: (0.85, 1.15),
            exposure: (1.0, 1.0),
            cast: (1.0, 1.0),
        }
    }
}

/// A named hard case of the vision bench.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Condition {
    pub name: &'static str,
    /// `None`: the readings as they are (one run per scan).
    pub perturbation: Option<Perturbation>,
}

const NONE: Perturbation = Perturbation {
    brightness: (1.0, 1.0),
    channel_gain: (1.0, 1.0),
    exposure: (1.0, 1.0),
    cast: (1.0, 1.0),
};

/// Mild per-face drift that goes with every camera-wide condition.
const MILD: Perturbation = Perturbation {
    brightness: (0.85, 1.15),
    channel_gain: (0.95, 1.05),
    ..NONE
};

/// The bench's conditions, in order: clean, seeded drift, strong drift, dark, clipped, colour cast.
pub fn conditions() -> Vec<Condition> {
    let c = |name, perturbation| Condition { name, perturbation };
    vec![
        c("clean", None),
        c(
            "seeded drift (x0.6-1.4, channels x0.85-1.15)",
            Some(Perturbation::default()),
        ),
        c(
            "strong drift (x0.4-1.6, channels x0.75-1.25)",
            Some(Perturbation {
                brightness: (0.4, 1.6),
                channel_gain: (0.75, 1.25),
                ..NONE
            }),
        ),
        c(
            "dark (scan x0.35-0.55, mild drift)",
            Some(Perturbation {
                exposure: (0.35, 0.55),
                ..MILD
            }),
        ),
        c(
            "clipped (scan x1.4-1.8, mild drift)",
            Some(Perturbation {
                exposure: (1.4, 1.8),
                ..MILD
            }),
        ),
        c(
            "colour cast (scan channels x0.75-1.25, mild drift)",
            Some(Perturbation {
                cast: (0.75, 1.25),
                ..MILD
            }),
        ),
    ]
}

impl Perturbation {
    /// The readings as a camera with other exposure and white balance per face would give them (clipped to 0..=255).
    pub fn apply<R: Rng>(&self, readings: &[Rgb; 54], rng: &mut R) -> [Rgb; 54] {
        self.draw(rng).apply(readings, &[1.0; 6])
    }

    /// One draw of the lighting changes: the camera-wide cast, then each face's brightness and
    /// channel gains (the order `apply` draws them in).
    pub fn draw<R: Rng>(&self, rng: &mut R) -> DrawnLight {
        let exposure = draw(rng, self.exposure);
        let cast: [f32; 3] = std::array::from_fn(|_| exposure * draw(rng, self.cast));
        let faces = std::array::from_fn(|_| {
            let brightness = draw(rng, self.brightness);
            (
                brightness,
                std::array::from_fn(|_| draw(rng, self.channel_gain)),
            )
        });
        DrawnLight { cast, faces }
    }
}

/// One draw of a `Perturbation`: a camera-wide cast, and each face's (URFDLB) brightness and
/// channel gains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawnLight {
    cast: [f32; 3],
    faces: [(f32, [f32; 3]); 6],
}

impl DrawnLight {
    /// The readings under this light, each face photographed with `light[face]` times the
    /// light (a re-capture darker or brighter; 1 = as drawn). The light scales linear values,
    /// so the readings scale by `light^(1/2.2)`, clipped once with the drawn changes.
    pub fn apply(&self, readings: &[Rgb; 54], light: &[f32; 6]) -> [Rgb; 54] {
        let mut out = *readings;
        for ((k, face), light) in out.chunks_mut(9).enumerate().zip(light) {
            let gains = self.face_gains(k, *light);
            for rgb in face {
                for c in 0..3 {
                    rgb[c] = (rgb[c] as f32 * gains[c]).round().clamp(0.0, 255.0) as u8;
                }
            }
        }
        out
    }

    /// The factor on each channel of face `face` (URFDLB index) photographed with `light`
    /// times the light (1 = as drawn): the camera-wide cast times the face's brightness and
    /// channel gains, the brightness scaled by `light^(1/2.2)`. A whole photo of that face
    /// scaled by these factors is the face under this draw.
    pub fn face_gains(&self, face: usize, light: f32) -> [f32; 3] {
        let (drawn, gain) = self.faces[face];
        let brightness = drawn * light.powf(1.0 / 2.2);
        std::array::from_fn(|c| self.cast[c] * brightness * gain[c])
    }
}

/// A value from `range` (its only value when it is empty).
fn draw<R: Rng>(rng: &mut R, range: (f32, f32)) -> f32 {
    if range.0 >= range.1 {
        range.0
    } else {
        rng.random_range(range.0..=range.1)
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

    #[test]
    fn a_face_taken_again_darker_keeps_its_draw_with_less_light() {
        let readings = [[200u8, 120, 40]; 54];
        let clipped = Perturbation {
            exposure: (1.6, 1.6),
            ..NONE
        };
        let rng = ChaCha8Rng::seed_from_u64(2);
        let first = clipped.apply(&readings, &mut rng.clone());
        assert_eq!(first[0], [255, 192, 64]);
        let mut light = [1.0; 6];
        light[1] = 0.25;
        let again = clipped.draw(&mut rng.clone()).apply(&readings, &light);
        assert_eq!(&again[..9], &first[..9], "the other faces as before");
        assert_eq!(&again[18..], &first[18..]);
        let half = 1.6 * 0.25f32.powf(1.0 / 2.2);
        let want = |v: f32| (v * half).round() as u8;
        assert_eq!(again[9], [want(200.0), want(120.0), want(40.0)]);
    }
}
