//! `cubed.toml` as it is written: its sections and keys, each optional where a default stands in, read by serde (unknown keys refused) before `validate()` makes them typed values.

use crate::daemon::config::camera::CameraSection;
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct CubedToml {
    pub(super) robot: RobotSection,
    pub(super) camera: CameraSection,
    #[serde(default)]
    pub(super) vision: VisionSection,
    #[serde(default)]
    pub(super) solver: SolverSection,
    #[serde(default)]
    pub(super) run: RunSection,
    #[serde(default)]
    pub(super) http: HttpSection,
    #[serde(default)]
    pub(super) data: DataSection,
    #[serde(default)]
    pub(super) history: HistorySection,
    #[serde(default)]
    pub(super) sim: SimSection,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct RobotSection {
    pub(super) design: String,
    pub(super) port: String,
    pub(super) baud: Option<i64>,
    pub(super) reconnect_secs: Option<i64>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct VisionSection {
    /// When not given: `palette.toml` beside the configuration, else the shipped palette.
    pub(super) palette: Option<String>,
    /// Read as `f64` (then kept as `f32`) so a value far out of range is said as written.
    #[serde(default = "default_min_confidence")]
    pub(super) min_confidence: f64,
    pub(super) recaptures: Option<i64>,
}

/// A configuration without `[vision]` reads with the shipped palette and the defaults.
impl Default for VisionSection {
    fn default() -> Self {
        VisionSection {
            palette: None,
            min_confidence: default_min_confidence(),
            recaptures: None,
        }
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct SolverSection {
    pub(super) budget_ms: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RunSection {
    pub(super) max_solves: Option<i64>,
    pub(super) cube_size: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct HttpSection {
    pub(super) bind: Option<String>,
    pub(super) token: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct DataSection {
    pub(super) dir: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct HistorySection {
    pub(super) keep_runs: Option<i64>,
    pub(super) max_photo_mb: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct SimSection {
    pub(super) seed: Option<i64>,
    pub(super) speed: Option<f64>,
    pub(super) faults: Option<String>,
    /// Read as `f64` (then kept as `f32`) so a value far out of range is said as written.
    pub(super) exposure: Option<f64>,
    pub(super) highlight_rolloff: Option<f64>,
}

pub(super) fn default_min_confidence() -> f64 {
    f64::from(cubed_vision::read::classify::DEFAULT_MIN_CONFIDENCE)
}
