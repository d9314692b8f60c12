//! How unkind the simulated light and optics are (`SimLighting`: exposure, gradient, white balance, noise, blur, glare, perspective, highlight roll-off), and the sRGB arithmetic of more light and of a highlight fading towards white.

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
