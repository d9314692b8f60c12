//! The checks of a robot design as a whole: keys that validate one at a time but leave a cube
//! unsupported, a face that can never be turned, or a face no camera can see.

use super::{ConfigError, Ctx};
use crate::robot::reach::{abilities, Abilities};
use crate::robot::RobotModel;
use cubed_core::cube::Face;

impl Ctx<'_> {
    /// Designs that validate one key at a time but cannot work as a whole.
    pub(super) fn check_possible(&self, model: &RobotModel) -> Result<(), ConfigError> {
        if !model.supported(model.home().closed) {
            return Err(self.impossible(
                "[support]",
                "sets",
                "with every gripper closed the cube is in none of the support sets",
            ));
        }
        let can = abilities(model);
        let unturnable: Vec<Face> = Face::ALL
            .into_iter()
            .filter(|&face| !can.can_turn(face))
            .collect();
        if let Some(&face) = unturnable.first() {
            let (section, key, cause) = match held_anyhow(model).can_turn(face) {
                true => ("[support]", "sets", SUPPORT_BLOCKS),
                false => ("[[gripper]]", "grips", A_TURN_NEEDS),
            };
            return Err(self.impossible(
                section,
                key,
                format!(
                    "{}: no state the grippers reach lets one of them turn it ({cause}){}",
                    faces_never_turned(&unturnable),
                    never_turning(model)
                ),
            ));
        }
        if !model.cameras.is_empty() {
            for face in Face::ALL {
                if !can.can_see(face) {
                    let waiting = model.cameras.iter().position(|c| !c.needs_open.is_empty());
                    let (section, key, cause) = match waiting {
                        Some(c) if views_cleared(model).can_see(face) => (
                            format!("[[camera]] #{} '{}'", c + 1, model.cameras[c].name),
                            "needs_open",
                            NEEDS_OPEN_BLOCKS,
                        ),
                        _ => match held_anyhow(model).can_see(face) {
                            true => ("[support]".to_string(), "sets", SUPPORT_BLOCKS),
                            false => (
                                "[[camera]]".to_string(),
                                "at",
                                "the grippers' `at` and `range`",
                            ),
                        },
                    };
                    return Err(self.impossible(
                        &section,
                        key,
                        format!(
                            "face {face} can never be shown to a camera with a clear view: no \
                             state the grippers reach ({cause}) turns it to a camera's `at` \
                             with nothing in the way{}",
                            never_turning(model)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// "; gripper 'left' never turns (`range = [0, 0]`)" for each gripper that cannot turn, the
/// likeliest cause of an impossible design when one was meant to; else empty.
fn never_turning(model: &RobotModel) -> String {
    (model.grippers.iter())
        .filter(|g| !g.reach.turns())
        .map(|g| format!("; gripper '{}' never turns (`range = [0, 0]`)", g.name))
        .collect()
}

/// "face U can never be turned", "faces U, F can never be turned", "no face can ever be turned".
fn faces_never_turned(faces: &[Face]) -> String {
    let letters: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    match faces.len() {
        6 => "no face can ever be turned".to_string(),
        1 => format!("face {} can never be turned", letters[0]),
        _ => format!("faces {} can never be turned", letters.join(", ")),
    }
}

/// What a face turn needs, and the keys that decide it.
const A_TURN_NEEDS: &str = "a face turns when a closed gripper there turns its layer while \
                            the rest of the cube is held still, by the gripper opposite or by \
                            a `centre` grip from the side, and no closed `layer` or \
                            `two-layers` grip from the side crosses the turning layer: check \
                            the grippers' `at`, `grips`, `jaw`, `range` and `carries_cube`";

/// Why a state is out of reach when the cube held any way would reach it.
const SUPPORT_BLOCKS: &str = "the support sets: the grippers that would do it must let go \
                              while no set still holds the cube";

/// Why a face no camera sees would be seen if the cameras waited for no gripper.
const NEEDS_OPEN_BLOCKS: &str = "the cameras' `needs_open`: a camera waits for those grippers \
                                 to open, and while they are open no support set holds the cube";

/// What the design could show if its cameras waited for no gripper to open.
fn views_cleared(model: &RobotModel) -> Abilities {
    let mut clear = model.clone();
    for camera in &mut clear.cameras {
        camera.needs_open.clear();
    }
    abilities(&clear)
}

/// What the design could do if the cube stayed put whatever holds it: what `[support]` alone
/// forbids is possible here (searched only to say which key an impossible design should change).
fn held_anyhow(model: &RobotModel) -> Abilities {
    let relaxed = RobotModel {
        support: vec![0],
        ..model.clone()
    };
    abilities(&relaxed)
}
