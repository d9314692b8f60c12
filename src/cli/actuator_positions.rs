//! Where each actuator of a robot stands, as its firmware counts it, in the design's names
//! (said after `cubed exec --actions` moved them by hand).

use crate::link::LinkHandle;
use crate::robot::{ActuatorMap, RobotModel, Role};
use std::time::Duration;

/// Where each actuator stands now, as the firmware counts it, named as the design names it.
pub(crate) async fn say_positions(link: &LinkHandle, map: &ActuatorMap, model: &RobotModel) {
    let names = crate::link::fault_words::actuator_names(map, model);
    let status = tokio::time::timeout(Duration::from_secs(2), link.status()).await;
    let Ok(Ok(status)) = status else {
        eprintln!("cubed exec: the robot did not say where its actuators stand");
        return;
    };
    println!("where each actuator stands now:");
    for (index, position) in status.positions.iter().enumerate() {
        let name = names.get(index).map_or("?", String::as_str);
        let role = map.roles.get(index);
        // A gripper that never turns has a rotation only on paper.
        if let Some(Role::Rotation { gripper }) = role {
            if !model
                .grippers
                .get(*gripper)
                .is_some_and(|g| g.reach.turns())
            {
                continue;
            }
        }
        let words = match role {
            Some(Role::Jaw { .. }) if *position == 0 => "open".to_string(),
            Some(Role::Jaw { .. }) => "closed".to_string(),
            Some(Role::Rotation { .. }) if *position == 0 => "at home".to_string(),
            Some(Role::Rotation { gripper }) => {
                let turns = match position.unsigned_abs() {
                    1 => "quarter turn",
                    _ => "quarter turns",
                };
                let continuous = (model.grippers.get(*gripper))
                    .is_some_and(|g| g.reach == crate::robot::model::Reach::Continuous);
                match continuous {
                    // Homing counts such a motor 0 on the quarter nearest where it stood.
                    true => format!("{position:+} {turns} since homing (it turns without limit)"),
                    false => format!("{position:+} {turns} from home"),
                }
            }
            _ => format!("at position {position} (0 is home)"),
        };
        println!("{name}: {words}");
    }
}
