//! The serde form of a robot design file: each table as written, unknown keys refused, before validation.

use super::MAX_ACTION_MS;
use crate::drive::DriveToml;
use crate::wiring::{BoardToml, WiringToml};
use cubed_files::config_file::field_names::field_names;
use serde::Deserialize;

/// A design's tables, each header as written with the keys it takes (read from the structs
/// below), so that a key written under the wrong header is told where it belongs.
pub(super) fn design_tables() -> [(&'static str, &'static [&'static str]); 11] {
    [
        ("", field_names::<RobotToml>()),
        ("[[gripper]]", field_names::<GripperToml>()),
        ("[gripper.motion]", field_names::<DriveToml>()),
        ("[gripper.wiring]", field_names::<WiringToml>()),
        ("[[flipper]]", field_names::<FlipperToml>()),
        ("[flipper.motion]", field_names::<DriveToml>()),
        ("[flipper.wiring]", field_names::<WiringToml>()),
        ("[[cradle]]", field_names::<CradleToml>()),
        ("[support]", field_names::<SupportToml>()),
        ("[[camera]]", field_names::<CameraToml>()),
        ("[board]", field_names::<BoardToml>()),
    ]
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct RobotToml {
    pub(super) name: String,
    #[serde(default)]
    pub(super) description: String,
    #[serde(default)]
    pub(super) gripper: Vec<GripperToml>,
    #[serde(default)]
    pub(super) flipper: Vec<FlipperToml>,
    #[serde(default)]
    pub(super) cradle: Vec<CradleToml>,
    pub(super) support: Option<SupportToml>,
    #[serde(default)]
    pub(super) camera: Vec<CameraToml>,
    pub(super) board: Option<BoardToml>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct GripperToml {
    pub(super) name: String,
    pub(super) at: String,
    pub(super) grips: String,
    #[serde(default = "yes")]
    pub(super) jaw: bool,
    pub(super) range: toml::Value,
    #[serde(default)]
    pub(super) carries_cube: bool,
    #[serde(default, deserialize_with = "millis::<_, 1>")]
    pub(super) quarter_ms: Option<u32>,
    #[serde(default, deserialize_with = "millis::<_, 1>")]
    pub(super) half_ms: Option<u32>,
    #[serde(default, deserialize_with = "millis::<_, 1>")]
    pub(super) open_ms: Option<u32>,
    #[serde(default, deserialize_with = "millis::<_, 1>")]
    pub(super) close_ms: Option<u32>,
    pub(super) motion: Option<DriveToml>,
    pub(super) wiring: Option<WiringToml>,
}

fn yes() -> bool {
    true
}

/// A time in ms, refused with the key's own range (`MIN..=MAX_ACTION_MS`) when it is negative
/// or too large for any key, rather than with the range of the number type behind it.
fn millis<'de, D: serde::Deserializer<'de>, const MIN: u32>(
    value: D,
) -> Result<Option<u32>, D::Error> {
    let ms = i64::deserialize(value)?;
    match u32::try_from(ms) {
        Ok(ms) if ms <= MAX_ACTION_MS => Ok(Some(ms)),
        _ => Err(serde::de::Error::custom(format!(
            "{ms} ms is out of range; allowed {MIN}..={MAX_ACTION_MS}"
        ))),
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct FlipperToml {
    pub(super) name: String,
    pub(super) from: String,
    pub(super) to: String,
    /// Absent: every gripper with a jaw.
    pub(super) needs_open: Option<Vec<String>>,
    #[serde(default, deserialize_with = "millis::<_, 1>")]
    pub(super) flip_ms: Option<u32>,
    pub(super) motion: Option<DriveToml>,
    pub(super) wiring: Option<WiringToml>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct CradleToml {
    pub(super) name: String,
    pub(super) at: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SupportToml {
    pub(super) sets: Vec<Vec<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct CameraToml {
    pub(super) name: String,
    pub(super) at: String,
    pub(super) image_top: String,
    #[serde(default)]
    pub(super) needs_open: Vec<String>,
    #[serde(default, deserialize_with = "millis::<_, 0>")]
    pub(super) capture_ms: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::design_tables;
    use crate::config::parse_robot;

    #[test]
    fn every_table_of_a_design_has_its_keys() {
        for (header, keys) in design_tables() {
            assert!(!keys.is_empty(), "{header}");
        }
    }

    /// A shipped design with `edit` made to its text: the refusal in words.
    fn refusal(edit: impl Fn(String) -> String) -> String {
        let text = edit(include_str!("../../../config/robots/four-arm.toml").to_string());
        parse_robot(&text, "mine.toml").err().unwrap().to_string()
    }

    #[test]
    fn a_key_under_the_wrong_header_is_told_where_it_belongs() {
        // A motion's key written among the gripper's own keys.
        let said = refusal(|t| t.replacen("grips = ", "accel_deg_s2 = 3000\ngrips = ", 1));
        assert!(
            said.contains("`accel_deg_s2` is a key of `[gripper.motion]`, not of `[[gripper]]`"),
            "{said}"
        );
        // A misspelled sub-table's header.
        let said = refusal(|t| t.replacen("[gripper.wiring]", "[gripper.wirring]", 1));
        assert!(said.contains("did you mean `[gripper.wiring]`?"), "{said}");
        // A misspelled key.
        let said = refusal(|t| t.replacen("half_ms", "haf_ms", 1));
        assert!(said.contains("did you mean `half_ms`?"), "{said}");
    }
}
