//! The `[sim]` keys (the simulated robot and camera: seed, speed, faults, the camera's light), validated with errors naming the key and what is allowed.

use crate::daemon::config::limits;
use crate::daemon::config::toml_form::SimSection;
use crate::daemon::config::Validator;
use cubed_core::error_chain::error_chain;
use cubed_files::config_file::ConfigError;

/// The simulated robot's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSettings {
    pub seed: u64,
    /// Action time divisor: 0 = instant, 1 = real time.
    pub speed: f64,
    /// Faults to inject (`cubed sim --faults` syntax).
    pub faults: String,
    /// The simulated camera's light (linear, as a camera's stops count it: 2 is a stop too
    /// bright, 4 two): 1 normal, above 1 too bright (stickers clip), below dim.
    pub exposure: f32,
    /// How the simulated camera fades highlights towards white (0 = each channel clips alone,
    /// 1 = as a webcam's processing does: an overexposed yellow looks white).
    pub highlight_rolloff: f32,
}

impl Validator<'_> {
    pub(super) fn sim(&self, sim: SimSection) -> Result<SimSettings, ConfigError> {
        let speed = self.bounded(
            ("sim", "speed"),
            sim.speed.unwrap_or(1.0),
            limits::SIM_SPEED,
            "0 = instant, 1 = real time",
        )?;
        if !limits::is_sim_speed(speed) {
            return Err(self.invalid(
                "sim",
                "speed",
                format!(
                    "{} is too slow to move at all: 0 (instant), or {} to {} (1 = real time)",
                    crate::words::number(speed),
                    limits::SIM_SPEED_SLOWEST,
                    limits::SIM_SPEED.1
                ),
            ));
        }
        let faults = sim.faults.unwrap_or_default();
        crate::sim::faults::FaultPlan::parse(&faults)
            .map_err(|e| self.invalid("sim", "faults", error_chain(&e)))?;
        let exposure = self.bounded(
            ("sim", "exposure"),
            sim.exposure.unwrap_or(1.0),
            (0.01, 32.0),
            "light: 1 = normal, 2 = a stop brighter, 32 = five",
        )? as f32;
        let highlight_rolloff = self.bounded(
            ("sim", "highlight_rolloff"),
            sim.highlight_rolloff.unwrap_or(0.0),
            (0.0, 1.0),
            "0 = channels clip alone, 1 = a webcam's highlight roll-off",
        )? as f32;
        Ok(SimSettings {
            seed: self.whole(("sim", "seed"), sim.seed, 1, (0, i64::MAX))?,
            speed,
            faults,
            exposure,
            highlight_rolloff,
        })
    }
}
