//! The host's real link over the emulated Pico's pty, and the commands the timing and
//! safety tests send through it: homing, and long moves of the four rotations at once.

use super::emulator::{available, EmulatedPico};
use super::trace::{four_arm_machine, Machine};
use cubed::link::{FixedPath, LinkEvent, LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::wiring::RobotSetup;
use cubed::robot::{ActuatorMap, MotionGroup, RobotModel};
use firmware_protocol::message::{Action, Motion};
use std::sync::Arc;
use std::time::Duration;

/// The emulated Pico with the shipped four-arm robot around it, and what the tests
/// need of that robot: its design, its modelled machine, its actuator map.
pub struct FourArmPico {
    pub pico: EmulatedPico,
    pub model: RobotModel,
    pub machine: Machine,
    pub map: ActuatorMap,
}

/// Starts it (motors at `seed`ed positions), or `None` where this machine cannot (said
/// loudly by [`available`]).
pub fn four_arm_pico(test: &str, seed: u64) -> Option<FourArmPico> {
    let elf = available(test)?;
    let model = crate::common::four_arm();
    let map = ActuatorMap::new(&model).expect("fits the protocol");
    Some(FourArmPico {
        pico: EmulatedPico::start(&elf, seed),
        model,
        machine: four_arm_machine(),
        map,
    })
}

/// The four-arm design's rotation actuators (each gripper's jaw, then its rotation).
pub const ROTATIONS: [u8; 4] = [1, 3, 5, 7];

/// Opens the link (handshake, the design's machine, `Configure`), as `cubed exec` does.
pub async fn open(pico: &EmulatedPico, map: &ActuatorMap, settings: LinkSettings) -> LinkHandle {
    let setup = RobotSetup::for_design(&crate::common::four_arm(), map)
        .expect("the four-arm design is wired");
    open_with(pico, setup, settings)
        .await
        .expect("handshake and configure with the emulated Pico")
}

/// Opens the link sending `setup`.
pub async fn open_with(
    pico: &EmulatedPico,
    setup: RobotSetup,
    settings: LinkSettings,
) -> Result<LinkHandle, cubed::link::LinkError> {
    let connector = Arc::new(SerialConnector::new(FixedPath(pico.port.clone()), 115_200));
    LinkHandle::open(connector, setup, settings, Arc::new(TokioClock::new())).await
}

/// The next event, within `secs` of wall time (the emulator runs slower than the chip).
pub async fn next(link: &mut LinkHandle, secs: u64) -> LinkEvent {
    tokio::time::timeout(Duration::from_secs(secs), link.next_event())
        .await
        .unwrap_or_else(|_| panic!("a link event within {secs} s"))
        .expect("the link runs")
}

/// Sends `groups` and waits for each one's `MoveDone`, in order.
pub async fn run_all(link: &mut LinkHandle, groups: &[MotionGroup]) {
    for group in groups {
        link.send(*group).expect("queued");
    }
    for group in groups {
        match next(link, 120).await {
            LinkEvent::MoveDone { move_id, .. } => assert_eq!(move_id, group.move_id()),
            other => panic!("expected MoveDone {}, got {other:?}", group.move_id()),
        }
    }
}

/// Homes every actuator.
pub fn home(map: &ActuatorMap, move_id: u32) -> MotionGroup {
    MotionGroup::Home {
        move_id,
        mask: map.home_mask(),
    }
}

/// All four rotations to `quarter_turns` from home at once (the jaws are not the
/// firmware's concern: it moves what it is told).
pub fn four_rotations(move_id: u32, quarter_turns: i32) -> MotionGroup {
    let actions = ROTATIONS.map(|actuator| Action::Rotate {
        actuator,
        quarter_turns,
    });
    MotionGroup::Motion(Motion::new(move_id, &actions).expect("a valid motion"))
}
