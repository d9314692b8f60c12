//! A design's flippers, cradles, support sets and cameras validated against its grippers, each error naming the table and key.

use super::toml_form::RobotToml;
use super::{ConfigError, Ctx};
use crate::direction::Direction;
use crate::drive::MoveUnit;
use crate::model::{Camera, Cradle, Flipper, Gripper};

impl Ctx<'_> {
    pub(super) fn flippers(
        &self,
        raw: &RobotToml,
        grippers: &[Gripper],
    ) -> Result<Vec<Flipper>, ConfigError> {
        raw.flipper
            .iter()
            .map(|f| {
                let section = format!("[[flipper]] '{}'", f.name);
                let drive = self.drive(&section, f.motion.as_ref(), MoveUnit::Flip)?;
                // A flip is one revolution of the flipper's cam.
                let flip_ms = match f.flip_ms {
                    Some(0) => f.flip_ms,
                    _ => self.timed(&section, "flip_ms", drive.as_ref(), 1.0, f.flip_ms)?,
                };
                let from = self.direction(&section, "from", &f.from)?;
                let to = self.direction(&section, "to", &f.to)?;
                if from.axis() == to.axis() {
                    return Err(self.invalid(
                        &section,
                        "to",
                        format!("a flip must move {from} to a perpendicular direction, not {to}"),
                    ));
                }
                Ok(Flipper {
                    name: f.name.clone(),
                    from,
                    to,
                    needs_open: self.clear_to_flip(&section, grippers, f.needs_open.as_deref())?,
                    flip_ms: self.ms(&section, "flip_ms", flip_ms)?,
                    wiring: self.wiring(
                        &section,
                        f.wiring.as_ref(),
                        drive.as_ref(),
                        false,
                        true,
                        None,
                    )?,
                    drive,
                })
            })
            .collect()
    }

    /// The cradles, each on a side of its own (a gripper's side is taken).
    pub(super) fn cradles(
        &self,
        raw: &RobotToml,
        grippers: &[Gripper],
    ) -> Result<Vec<Cradle>, ConfigError> {
        let mut out: Vec<Cradle> = Vec::new();
        for c in &raw.cradle {
            let section = format!("[[cradle]] '{}'", c.name);
            let at = self.direction(&section, "at", &c.at)?;
            let taken = (grippers.iter().map(|g| ("gripper", &g.name, g.at)))
                .chain(out.iter().map(|o| ("cradle", &o.name, o.at)))
                .find(|(_, _, other)| *other == at);
            if let Some((kind, name, _)) = taken {
                return Err(self.invalid(
                    &section,
                    "at",
                    format!("{kind} '{name}' is already at {at}: a cradle needs a side of its own"),
                ));
            }
            out.push(Cradle {
                name: c.name.clone(),
                at,
            });
        }
        Ok(out)
    }

    pub(super) fn support(
        &self,
        raw: &RobotToml,
        names: &[&str],
        cradles: &[Cradle],
    ) -> Result<Vec<u16>, ConfigError> {
        let Some(support) = &raw.support else {
            return Err(self.invalid(
                "top level",
                "support",
                "missing: the design needs a [support] table, whose `sets` name the grippers (or the cradle) that together hold the cube up, e.g. sets = [[\"left\", \"right\"]]",
            ));
        };
        if support.sets.is_empty() {
            return Err(self.impossible(
                "[support]",
                "sets",
                "no set of grippers supports the cube",
            ));
        }
        let mut sets = Vec::new();
        for (number, set) in support.sets.iter().enumerate() {
            if set.is_empty() {
                return Err(self.impossible(
                    "[support]",
                    "sets",
                    format!("set {} is empty: a set names the grippers (or the cradle) that together hold the cube", number + 1),
                ));
            }
            if let Some(twice) = set
                .iter()
                .enumerate()
                .find_map(|(i, n)| set[..i].contains(n).then_some(n))
            {
                return Err(self.invalid(
                    "[support]",
                    "sets",
                    format!("set {} names '{twice}' twice", number + 1),
                ));
            }
            let grippers: Vec<String> = set
                .iter()
                .filter(|n| !cradles.iter().any(|c| &c.name == *n))
                .cloned()
                .collect();
            let beneath =
                (cradles.iter()).any(|c| set.contains(&c.name) && c.at == Direction::Down);
            if grippers.is_empty() && !beneath {
                return Err(self.impossible(
                    "[support]",
                    "sets",
                    format!("set {} is of cradles alone, and a cradle is a passive rest: it holds the cube only from beneath (`at = \"down\"`); name a cradle at down, or grippers that close on the cube", number + 1),
                ));
            }
            let indices = self.gripper_refs("[support]", "sets", names, &grippers)?;
            sets.push(indices.iter().fold(0u16, |mask, &g| mask | 1 << g));
        }
        Ok(sets)
    }

    pub(super) fn cameras(
        &self,
        raw: &RobotToml,
        grippers: &[Gripper],
    ) -> Result<Vec<Camera>, ConfigError> {
        raw.camera
            .iter()
            .map(|c| {
                let section = format!("[[camera]] '{}'", c.name);
                let at = self.direction(&section, "at", &c.at)?;
                let image_top = self.direction(&section, "image_top", &c.image_top)?;
                if image_top.axis() == at.axis() {
                    return Err(self.invalid(
                        &section,
                        "image_top",
                        format!(
                            "must be perpendicular to the camera's direction {at}, not {image_top}"
                        ),
                    ));
                }
                Ok(Camera {
                    name: c.name.clone(),
                    at,
                    image_top,
                    needs_open: self.openable(
                        &section,
                        grippers,
                        &c.needs_open,
                        "the clear view",
                    )?,
                    capture_ms: c.capture_ms.unwrap_or(0),
                })
            })
            .collect()
    }
}
