//! Robot design files (`config/robots/*.toml`): the serde form, and its validation into a [`RobotModel`] with errors naming file, section and key.

use super::direction::Direction;
use super::drive::{both_off_the_ramp, timed, Drive, DriveToml, MoveUnit, StepLimit};
use super::model::{Grip, Gripper, Reach, RobotModel, MAX_GRIPPERS};
use super::wiring::pins::ActuatorWiring;
use super::wiring::{BoardToml, WiringToml};
use cubed_files::config_file::syntax::{syntax_or_kind_error, FileKind};
pub use cubed_files::config_file::ConfigError;
use std::path::Path;

mod memory;
mod parts;
mod toml_form;
pub use memory::{planner_memory_limit, BadMemoryLimit};
use toml_form::{GripperToml, RobotToml};

/// Longest time any single action may be given, in ms.
pub(crate) const MAX_ACTION_MS: u32 = 60_000;
// The state graph keeps each step's time (its slowest action) in 16 bits.
const _: () = assert!(MAX_ACTION_MS <= u16::MAX as u32);
/// Furthest a limited gripper may reach from home, in quarter turns.
pub(crate) const MAX_REACH: i8 = 4;

/// Reads and validates a robot design file.
pub fn load_robot(path: &Path) -> Result<RobotModel, ConfigError> {
    load_robot_for(path, StepLimit::ANY_BOARD)
}

/// Reads and validates a robot design file for a board that steps no faster than `limit`
/// (its speeds are checked against it before anything that follows from them).
pub fn load_robot_for(path: &Path, limit: StepLimit) -> Result<RobotModel, ConfigError> {
    let text = cubed_files::config_file::read_config_text(path)?;
    parse_robot_for(&text, &path.display().to_string(), limit)
}

/// Parses and validates a robot design; `file` names it in errors.
pub fn parse_robot(text: &str, file: &str) -> Result<RobotModel, ConfigError> {
    parse_robot_for(text, file, StepLimit::ANY_BOARD)
}

/// As [`parse_robot`], for a board that steps no faster than `limit`.
fn parse_robot_for(text: &str, file: &str, limit: StepLimit) -> Result<RobotModel, ConfigError> {
    let blank = |line: &str| line.trim().is_empty() || line.trim().starts_with('#');
    if text.lines().all(blank) {
        return Err(ConfigError::WrongKind {
            file: file.to_string(),
            words: "the file is empty: a robot design needs its `name` and [[gripper]]s (config/robots/ holds complete designs)".into(),
        });
    }
    let raw: RobotToml = toml::from_str(text).map_err(|e| {
        let tables = toml_form::design_tables();
        syntax_or_kind_error(text, file, FileKind::RobotDesign, &tables, &e)
    })?;
    let ctx = Ctx { file, text, limit };
    let model = ctx.build(&raw)?;
    ctx.check_possible(&model)?;
    Ok(model)
}

struct Ctx<'a> {
    file: &'a str,
    /// The design's text, to say where a refused key is written.
    text: &'a str,
    /// The fastest stepping its board takes.
    limit: StepLimit,
}

impl Ctx<'_> {
    /// `section` as syntax errors name it, with the line `key` is on (else the section's),
    /// where the text has them.
    fn placed(&self, section: &str, key: &str) -> String {
        match cubed_files::config_file::locate::locate_key(self.text, section, key) {
            Some((named, line)) => format!("{named} (line {line})"),
            None => section.to_string(),
        }
    }

    fn invalid(&self, section: &str, key: &str, problem: impl Into<String>) -> ConfigError {
        ConfigError::Invalid {
            file: self.file.to_string(),
            section: self.placed(section, key),
            key: key.to_string(),
            problem: problem.into(),
        }
    }

    /// A time given for a move this gripper never makes: `why` says which and what to do.
    fn given_but(&self, section: &str, key: &str, why: &str) -> ConfigError {
        self.invalid(section, key, format!("given, but this gripper {why}"))
    }

    fn impossible(&self, section: &str, key: &str, problem: impl Into<String>) -> ConfigError {
        ConfigError::Impossible {
            file: self.file.to_string(),
            section: self.placed(section, key),
            key: key.to_string(),
            problem: problem.into(),
        }
    }

    fn direction(&self, section: &str, key: &str, text: &str) -> Result<Direction, ConfigError> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name() == text)
            .ok_or_else(|| {
                self.invalid(
                    section,
                    key,
                    format!("'{text}' is not a direction; allowed: up down front back left right"),
                )
            })
    }

    fn ms(&self, section: &str, key: &str, value: Option<u32>) -> Result<u32, ConfigError> {
        match value {
            None => Err(self.invalid(section, key, match key {
                "open_ms" | "close_ms" => "missing; required with a jaw: the ms it really takes",
                _ => "missing; required for this actuator: give it in ms, or give the actuator a `motion` table (its stepper's ramp) and it follows from that",
            })),
            Some(ms) if ms == 0 || ms > MAX_ACTION_MS => Err(self.invalid(
                section,
                key,
                format!("{ms} ms is out of range; allowed 1..={MAX_ACTION_MS}"),
            )),
            Some(ms) => Ok(ms),
        }
    }

    /// The `[motion]` table of `section`, validated: its moves of one `unit` whole microsteps.
    fn drive(
        &self,
        section: &str,
        raw: Option<&DriveToml>,
        unit: MoveUnit,
    ) -> Result<Option<Drive>, ConfigError> {
        raw.map(|raw| {
            let drive = raw.validate(self.limit)?;
            drive.check_whole_steps(unit).map(|()| drive)
        })
        .transpose()
        .map_err(|e| self.invalid(&format!("{section} motion"), e.key, e.problem))
    }

    /// The `wiring` table of `section`, validated: it needs the `motion` table (the
    /// firmware steps the motor as that table says), a motor when it `turns`, and what a
    /// gripper's `reach` asks of its home sensor (none for a flipper).
    fn wiring(
        &self,
        section: &str,
        raw: Option<&WiringToml>,
        drive: Option<&Drive>,
        has_jaw: bool,
        turns: bool,
        reach: Option<Reach>,
    ) -> Result<Option<ActuatorWiring>, ConfigError> {
        let Some(raw) = raw else { return Ok(None) };
        if turns && !raw.has_motor() {
            return Err(self.invalid(
                &format!("{section} wiring"),
                "step",
                "missing: this actuator turns; give its stepper driver's STEP and DIR pins",
            ));
        }
        if !turns && raw.has_motor() {
            return Err(self.invalid(
                &format!("{section} wiring"),
                "step",
                "this actuator never turns (`range = [0, 0]`), so it has no motor to wire: remove `step` and `dir` (and any home sensor or stall output), or give it a `range` to turn in",
            ));
        }
        if raw.has_motor() && drive.is_none() {
            return Err(self.invalid(
                section,
                "motion",
                "missing: a wired motor needs its `motion` table beside its `wiring` (steps, microsteps and speeds the firmware drives it with; see docs/wiring.md)",
            ));
        }
        raw.validate(drive, has_jaw, reach)
            .map(Some)
            .map_err(|e| self.invalid(&format!("{section} wiring"), e.key, e.problem))
    }

    /// A move's time: derived from `drive` (a given value must match), else as given.
    fn timed(
        &self,
        section: &str,
        key: &str,
        drive: Option<&Drive>,
        fraction: f64,
        given: Option<u32>,
    ) -> Result<Option<u32>, ConfigError> {
        let ms = timed(drive, fraction, given)
            .map_err(|problem| self.invalid(section, key, problem.to_string()))?;
        match (given, ms) {
            // Derived from the ramp: the ramp is what to change, not a key not written.
            (None, Some(ms)) if ms == 0 || ms > MAX_ACTION_MS => Err(self.invalid(
                &format!("{section} motion"),
                "max_deg_s",
                format!(
                    "the {key} this ramp gives, {ms} ms ({:.1} s), is out of 1..={MAX_ACTION_MS} ms: {}",
                    f64::from(ms) / 1000.0,
                    match ms {
                        0 => "too quick to time; lower max_deg_s",
                        _ => "too slow; raise max_deg_s (or accel_deg_s2). Check the units: max_deg_s \
                              is degrees a second at the gripper (a turn a second is 360)",
                    }
                ),
            )),
            _ => Ok(ms),
        }
    }

    fn build(&self, raw: &RobotToml) -> Result<RobotModel, ConfigError> {
        if raw.name.trim().is_empty() {
            return Err(self.invalid(
                "top level",
                "name",
                "a name is needed: it names the robot in messages, plans and the page",
            ));
        }
        let grippers = self.grippers(raw)?;
        let names: Vec<&str> = grippers.iter().map(|g| g.name.as_str()).collect();
        let cradles = self.cradles(raw, &grippers)?;
        self.unique_names(raw)?;
        let model = RobotModel {
            name: raw.name.clone(),
            description: raw.description.clone(),
            flippers: self.flippers(raw, &grippers)?,
            support: self.support(raw, &names, &cradles)?,
            cameras: self.cameras(raw, &grippers)?,
            board: raw
                .board
                .as_ref()
                .map(BoardToml::validate)
                .transpose()
                .map_err(|e| self.invalid("[board]", e.key, e.problem))?,
            grippers,
            cradles,
        };
        super::wiring::check_design(&model, |section, key| self.placed(section, key))
            .map_err(|(section, key, problem)| self.invalid(&section, key, problem))?;
        // The firmware's actuator limit, checked here (cheap) rather than after the slow
        // planning graph is built.
        if let Err(e) = super::actuators::ActuatorMap::new(&model) {
            return Err(self.impossible(
                "[[gripper]] and [[flipper]]",
                "jaw",
                format!("{e} (each gripper's rotation, each jaw and each flipper is one)"),
            ));
        }
        Ok(model)
    }

    fn unique_names(&self, raw: &RobotToml) -> Result<(), ConfigError> {
        let all = (raw.gripper.iter().enumerate())
            .map(|(i, g)| ("gripper", i + 1, g.name.as_str()))
            .chain(
                (raw.flipper.iter().enumerate()).map(|(i, f)| ("flipper", i + 1, f.name.as_str())),
            )
            .chain((raw.cradle.iter().enumerate()).map(|(i, c)| ("cradle", i + 1, c.name.as_str())))
            .chain(
                (raw.camera.iter().enumerate()).map(|(i, c)| ("camera", i + 1, c.name.as_str())),
            );
        // The later of two, by its number: that is the copy to rename.
        let mut seen: Vec<(&str, usize, &str)> = Vec::new();
        for (kind, number, name) in all {
            if name.trim().is_empty() {
                return Err(self.invalid(
                    &format!("[[{kind}]] #{number}"),
                    "name",
                    "a name is needed: it names the actuator or camera in messages and programs",
                ));
            }
            if let Some((first_kind, first, _)) = seen.iter().find(|(.., seen)| *seen == name) {
                return Err(self.invalid(
                    &format!("[[{kind}]] #{number} '{name}'"),
                    "name",
                    format!("[[{first_kind}]] #{first} is named '{name}' too: names must be unique across all actuators and cameras"),
                ));
            }
            seen.push((kind, number, name));
        }
        Ok(())
    }

    fn grippers(&self, raw: &RobotToml) -> Result<Vec<Gripper>, ConfigError> {
        if raw.gripper.len() > MAX_GRIPPERS {
            return Err(self.invalid(
                "[[gripper]]",
                "name",
                format!(
                    "{} grippers; at most {MAX_GRIPPERS} are allowed",
                    raw.gripper.len()
                ),
            ));
        }
        let mut out: Vec<Gripper> = Vec::new();
        for g in &raw.gripper {
            let gripper = self.gripper(g)?;
            if out.iter().any(|o| o.at == gripper.at) {
                return Err(self.invalid(
                    &format!("[[gripper]] '{}'", g.name),
                    "at",
                    format!("another gripper is already at {}", gripper.at),
                ));
            }
            out.push(gripper);
        }
        Ok(out)
    }

    fn gripper(&self, g: &GripperToml) -> Result<Gripper, ConfigError> {
        let section = format!("[[gripper]] '{}'", g.name);
        let grip = match g.grips.as_str() {
            "layer" => Grip::Layer,
            "two-layers" => Grip::TwoLayers,
            "centre" | "center" => Grip::Centre,
            other => {
                return Err(self.invalid(
                    &section,
                    "grips",
                    format!(
                        "'{other}' is not a grip; allowed: layer, two-layers, centre (or center)"
                    ),
                ))
            }
        };
        let reach = self.reach(&section, &g.range)?;
        let turns = reach.turns();
        if let (false, true, Reach::Limited { min, max }) = (g.jaw, turns, reach) {
            return Err(self.invalid(
                &section,
                "range",
                format!("[{min}, {max}] is not allowed for a gripper without a jaw (`jaw = false`): it never lets go of what it turns, so homing it back to 0 at every start would turn that back too, and the cube would not be where the last program left it; give it `range = \"continuous\"` and a home sensor (homing then counts 0 at the quarter it stands at, moving nothing), or a jaw"),
            ));
        }
        if let (false, Some(_)) = (turns, &g.motion) {
            let why = "never turns (`range = [0, 0]`), so it has no motor: remove the table, or widen `range`";
            return Err(self.given_but(&section, "motion", why));
        }
        let drive = self.drive(&section, g.motion.as_ref(), MoveUnit::QuarterTurn)?;
        let turn_ms = |key, v: Option<u32>, fraction| {
            if let (false, Some(_)) = (turns, v) {
                let why = "never turns (`range = [0, 0]`): remove it, or widen `range`";
                return Err(self.given_but(&section, key, why));
            }
            let v = match v {
                Some(0) => v,
                _ => self.timed(&section, key, drive.as_ref(), fraction, v)?,
            };
            if turns {
                self.ms(&section, key, v)
            } else {
                Ok(v.unwrap_or(0))
            }
        };
        let jaw_ms = |key, v: Option<u32>| match (g.jaw, v) {
            (true, _) => self.ms(&section, key, v),
            (false, None) => Ok(0),
            (false, Some(_)) => {
                let why = "has no jaw (`jaw = false`): remove it, or set `jaw = true`";
                Err(self.given_but(&section, key, why))
            }
        };
        if let Some(both) = both_off_the_ramp(drive.as_ref(), g.quarter_ms, g.half_ms) {
            return Err(self.invalid(&section, "quarter_ms", both));
        }
        let quarter_ms = turn_ms("quarter_ms", g.quarter_ms, 0.25)?;
        let half_ms = turn_ms("half_ms", g.half_ms, 0.5)?;
        if half_ms < quarter_ms {
            return Err(self.invalid(
                &section,
                "half_ms",
                format!("{half_ms} ms is less than quarter_ms ({quarter_ms} ms): a half turn cannot be quicker than the quarter turn it passes through"),
            ));
        }
        Ok(Gripper {
            name: g.name.clone(),
            at: self.direction(&section, "at", &g.at)?,
            grip,
            has_jaw: g.jaw,
            reach,
            carries_cube: g.carries_cube,
            quarter_ms,
            half_ms,
            open_ms: jaw_ms("open_ms", g.open_ms)?,
            close_ms: jaw_ms("close_ms", g.close_ms)?,
            wiring: self.wiring(
                &section,
                g.wiring.as_ref(),
                drive.as_ref(),
                g.jaw,
                turns,
                Some(reach),
            )?,
            drive,
        })
    }

    fn reach(&self, section: &str, value: &toml::Value) -> Result<Reach, ConfigError> {
        let allowed = format!("expected [min, max] in quarter turns from home (not degrees: [-1, 1] turns a quarter each way), with -{MAX_REACH} <= min <= 0 <= max <= {MAX_REACH}, or \"continuous\"");
        if value.as_str() == Some("continuous") {
            return Ok(Reach::Continuous);
        }
        // Every item must be a whole number: one of another kind refuses the range.
        let ints: Option<Vec<i64>> = value
            .as_array()
            .and_then(|a| a.iter().map(|v| v.as_integer()).collect());
        match ints.as_deref() {
            Some(&[min, max])
                if -(MAX_REACH as i64) <= min
                    && min <= 0
                    && 0 <= max
                    && max <= MAX_REACH as i64 =>
            {
                Ok(Reach::Limited {
                    min: min as i8,
                    max: max as i8,
                })
            }
            _ => Err(self.invalid(
                section,
                "range",
                format!("{value} is not allowed; {allowed}"),
            )),
        }
    }

    fn gripper_refs(
        &self,
        section: &str,
        key: &str,
        names: &[&str],
        refs: &[String],
    ) -> Result<Vec<usize>, ConfigError> {
        refs.iter()
            .map(|r| {
                names.iter().position(|n| n == r).ok_or_else(|| {
                    self.invalid(
                        section,
                        key,
                        format!("'{r}' is not a gripper; grippers: {}", names.join(", ")),
                    )
                })
            })
            .collect()
    }

    /// A `needs_open` list: grippers, each with a jaw (one without never opens, so what
    /// waits for it, `what`, could never happen).
    fn openable(
        &self,
        section: &str,
        grippers: &[Gripper],
        refs: &[String],
        what: &str,
    ) -> Result<Vec<usize>, ConfigError> {
        let names: Vec<&str> = grippers.iter().map(|g| g.name.as_str()).collect();
        let found = self.gripper_refs(section, "needs_open", &names, refs)?;
        match found.iter().find(|&&g| !grippers[g].has_jaw) {
            Some(&g) => Err(self.invalid(
                section,
                "needs_open",
                format!(
                    "gripper '{}' has no jaw (`jaw = false`), so it never opens and {what} could never happen: name only grippers with jaws",
                    names[g]
                ),
            )),
            None => Ok(found),
        }
    }

    /// The grippers a flip waits for open: every one with a jaw, as a closed jaw clamps the
    /// cube and the flip would jam against it (a jawless gripper carries it, and the cube
    /// tips off it). Given, the list must name them all.
    fn clear_to_flip(
        &self,
        section: &str,
        grippers: &[Gripper],
        given: Option<&[String]>,
    ) -> Result<Vec<usize>, ConfigError> {
        let jaws: Vec<usize> = (0..grippers.len())
            .filter(|&g| grippers[g].has_jaw)
            .collect();
        let Some(given) = given else {
            return Ok(jaws);
        };
        let found = self.openable(section, grippers, given, "the flip")?;
        match jaws.iter().find(|g| !found.contains(g)) {
            Some(&g) => Err(self.invalid(
                section,
                "needs_open",
                format!(
                    "gripper '{}' has a jaw: closed, it clamps the cube and the flip would jam against it; list every gripper with a jaw (or leave `needs_open` out: that is the default)",
                    grippers[g].name
                ),
            )),
            None => Ok(found),
        }
    }
}

mod in_step;
mod possible;
