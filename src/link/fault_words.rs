//! A firmware fault in words for a person: the actuator named by the robot config (its
//! gripper, jaw or motor, and flipper names) and the cause. The one place that maps the
//! protocol's fault codes and actuator indices to words; extend it when codes are added.

use crate::robot::actuators::{ActuatorMap, Role};
use crate::robot::RobotModel;
use firmware_protocol::message::Fault;

/// The actuator at firmware index `actuator` by its config name, e.g. `the rotation of
/// gripper 'right'` (or `actuator 9` if the design has none there).
pub fn actuator_name(map: &ActuatorMap, model: &RobotModel, actuator: u8) -> String {
    let gripper = |g: usize| model.grippers.get(g).map_or("?", |g| g.name.as_str());
    match map.roles.get(usize::from(actuator)) {
        Some(Role::Jaw { gripper: g }) => format!("the jaw of gripper '{}'", gripper(*g)),
        Some(Role::Rotation { gripper: g }) => format!("the motor of gripper '{}'", gripper(*g)),
        Some(Role::Flipper { flipper }) => format!(
            "flipper '{}'",
            model
                .flippers
                .get(*flipper)
                .map_or("?", |f| f.name.as_str())
        ),
        None => format!("actuator {actuator} (not in robot '{}')", model.name),
    }
}

/// The fault in words: what stopped, and why.
pub fn fault_in_words(fault: &Fault, map: &ActuatorMap, model: &RobotModel) -> String {
    match *fault {
        Fault::Stall { actuator } => format!(
            "{} stalled: something blocks it (a layer held by another gripper, a jaw on a moving layer, or the cube in the way)",
            actuator_name(map, model, actuator)
        ),
        Fault::Limit { actuator } => format!(
            "{} reached a limit: it was sent beyond its range",
            actuator_name(map, model, actuator)
        ),
        Fault::BrownOut => "the motor supply voltage dropped (brown-out)".into(),
        Fault::CommsTimeout => {
            "the firmware heard nothing from the host for too long while moving and stopped".into()
        }
        Fault::EStopLatched => "the emergency stop is latched".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::load_robot;

    #[test]
    fn link_fault_words_name_the_actuator_from_the_config() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/robots/turntable-flipper.toml"
        );
        let model = load_robot(std::path::Path::new(path)).expect("loads");
        let map = ActuatorMap::new(&model).expect("fits");
        let stall = fault_in_words(&Fault::Stall { actuator: 0 }, &map, &model);
        assert!(
            stall.starts_with("the motor of gripper 'turntable' stalled"),
            "{stall}"
        );
        let limit = fault_in_words(&Fault::Limit { actuator: 3 }, &map, &model);
        assert!(
            limit.starts_with("flipper 'flipper' reached a limit"),
            "{limit}"
        );
        let jaw = fault_in_words(&Fault::Stall { actuator: 1 }, &map, &model);
        assert!(jaw.contains("jaw of gripper 'holder'"), "{jaw}");
        let none = fault_in_words(&Fault::Stall { actuator: 9 }, &map, &model);
        assert!(none.contains("actuator 9"), "{none}");
    }
}
