//! `cubed.toml` as it is written: its sections and keys, each optional where a default stands in, read by serde (unknown keys refused) before `validate()` makes them typed values.

use crate::daemon::config::camera::CameraSection;
use cubed_files::config_file::field_names::field_names;
use serde::Deserialize;

/// The configuration's tables, each header with the keys it takes (read from the structs
/// below), so that a key written under the wrong header is told where it belongs.
pub(super) fn config_tables() -> [(&'static str, &'static [&'static str]); 10] {
    [
        ("", field_names::<CubedToml>()),
        ("[robot]", field_names::<RobotSection>()),
        ("[camera]", field_names::<CameraSection>()),
        ("[vision]", field_names::<VisionSection>()),
        ("[solver]", field_names::<SolverSection>()),
        ("[run]", field_names::<RunSection>()),
        ("[http]", field_names::<HttpSection>()),
        ("[data]", field_names::<DataSection>()),
        ("[history]", field_names::<HistorySection>()),
        ("[sim]", field_names::<SimSection>()),
    ]
}

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

#[cfg(test)]
mod tests {
    use super::config_tables;
    use crate::daemon::config::parse_config;
    use std::path::Path;

    #[test]
    fn every_table_of_the_configuration_has_its_keys() {
        for (header, keys) in config_tables() {
            assert!(!keys.is_empty(), "{header}");
        }
    }

    #[test]
    fn a_key_under_the_wrong_header_is_told_where_it_belongs() {
        let refusal = |text: &str| {
            let text = format!("[robot]\ndesign = \"six-motor\"\nport = \"sim\"\n[camera]\nsource = \"sim\"\n{text}");
            parse_config(&text, Path::new("/etc/cubed.toml"))
                .err()
                .unwrap()
                .to_string()
        };
        let said = refusal("[solver]\nbudget_ms = 300\nreconnect_secs = 5\n");
        assert!(
            said.contains("[solver] (line 8): unknown key `reconnect_secs`"),
            "{said}"
        );
        assert!(said.contains("`reconnect_secs` is a key of `[robot]`, not of `[solver]`: move it under that header"), "{said}");
        // The first unknown key in the file's order is the one said.
        let said = refusal("[run]\nzeta = 1\nalpha = 2\n");
        assert!(said.contains("(line 7): unknown key `zeta`"), "{said}");
        let said = refusal("[histroy]\nkeep_runs = 3\n");
        assert!(said.contains("did you mean `[history]`?"), "{said}");
    }
}
