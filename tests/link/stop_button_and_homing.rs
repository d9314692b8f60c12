//! Events on an open link to a fresh simulator: an e-stop overtaking queued moves, an e-stop cleared before it was read, the start button, and a motion before homing refused for the firmware's state.

use crate::common::{four_arm, runtime, scrambled};
use cubed::cube::FaceletCube;
use cubed::link::{LinkEvent, LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::{ActuatorMap, RobotModel};
use cubed::sim::faults::FaultPlan;
use cubed::sim::pty::Control;
use cubed::sim::spawn::RunningSim;
use cubed::sim::{PhysicsMechanics, SimFirmware};
use cubed_bench::sim::scenario::program_groups;
use firmware_protocol::message::{FirmwareState, NakReason};
use std::sync::Arc;
use std::time::Duration;

/// Opens the link to a fresh simulator of `model` holding a solved cube.
async fn open_link(
    model: &RobotModel,
    speed: f64,
) -> (RunningSim<PhysicsMechanics>, LinkHandle, ActuatorMap) {
    let map = ActuatorMap::new(model).expect("design fits the protocol");
    let mechanics = PhysicsMechanics::new(model.clone(), map.clone(), &FaceletCube::default());
    let sim = RunningSim::start(
        SimFirmware::new(mechanics, speed, 0).expect("the design is a firmware board"),
        FaultPlan::default(),
        1,
    )
    .await
    .expect("THIS TEST NEEDS PSEUDO-TERMINALS (/dev/ptmx); none could be opened here");
    let connector = Arc::new(SerialConnector::new(sim.path.clone(), 115_200));
    let link = LinkHandle::open(
        connector,
        crate::common::setup_for(model),
        LinkSettings::default(),
        Arc::new(TokioClock::new()),
    )
    .await
    .expect("handshake");
    (sim, link, map)
}

async fn wait_for(link: &mut LinkHandle, mut wanted: impl FnMut(&LinkEvent) -> bool) -> LinkEvent {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(20), link.next_event())
            .await
            .expect("event within 20 s")
            .expect("link still running");
        if wanted(&event) {
            return event;
        }
    }
}

/// A simulator running a 20-turn program over the link, its second move reported done; the
/// program's commands.
async fn two_moves_into_a_program() -> (RunningSim<PhysicsMechanics>, LinkHandle, usize) {
    let model = four_arm();
    let (_, program) = scrambled(&model, 4, 20);
    let (sim, mut link, map) = open_link(&model, 1.0).await;
    let groups = program_groups(&map, &program, &model.home()).expect("encodes");
    for group in &groups {
        link.send(*group).expect("queued");
    }
    wait_for(&mut link, |e| {
        matches!(e, LinkEvent::MoveDone { move_id: 2, .. })
    })
    .await;
    (sim, link, groups.len())
}

#[test]
fn link_emergency_stop_overtakes_queued_moves() {
    runtime().block_on(async {
        let (sim, mut link, groups) = two_moves_into_a_program().await;
        link.emergency_stop().expect("e-stop sent");
        let event = wait_for(&mut link, |e| matches!(e, LinkEvent::EStopped { .. })).await;
        let LinkEvent::EStopped { cancelled } = event else {
            unreachable!()
        };
        assert!(!cancelled.is_empty(), "queued moves are cancelled");
        let status = link.status().await.expect("status");
        assert_eq!(status.state, FirmwareState::EStopped);
        link.shutdown().await;
        let served = sim.stop().await.expect("sim stops");
        assert!((served.firmware.stats.moves_executed as usize) < groups);
        assert_eq!(served.firmware.stats.move_ids_run_twice, 0);
    });
}

/// A person who e-stops and resets at once: what the firmware said about the e-stop before it
/// took the clear is over, and must not latch the daemon again after its reset.
#[test]
fn link_an_emergency_stop_cleared_before_it_was_read_is_not_reported_again() {
    runtime().block_on(async {
        let (sim, mut link, groups) = two_moves_into_a_program().await;
        link.emergency_stop().expect("e-stop sent");
        link.clear_fault().expect("clear sent");
        let status = status_after_clear(&link).await;
        // The whole status and what the link said on failure: what is latched, what is
        // queued (seen twice under a loaded full run, not reproduced alone).
        if status.state != FirmwareState::Unhomed {
            let said = link.take_waiting_events();
            panic!("not cleared: {status:?}\nthe link's events since move 2: {said:#?}");
        }
        sim.controls.send(Control::Button).expect("sim running");
        let mut before_button = Vec::new();
        wait_for(&mut link, |e| {
            before_button.push(e.clone());
            matches!(e, LinkEvent::Button { .. })
        })
        .await;
        assert!(
            !before_button
                .iter()
                .any(|e| matches!(e, LinkEvent::EStopped { .. } | LinkEvent::Fault(_))),
            "an e-stop from before the clear was passed on: {before_button:?}"
        );
        link.emergency_stop().expect("a second e-stop sent");
        wait_for(&mut link, |e| matches!(e, LinkEvent::EStopped { .. })).await;
        link.shutdown().await;
        let served = sim.stop().await.expect("sim stops");
        assert!((served.firmware.stats.moves_executed as usize) < groups);
    });
}

/// The firmware's status once the clear has been taken (it is then unhomed, as a clear leaves
/// it), or after 10 s: asked every 50 ms, as a reply may answer an earlier query, made before
/// the e-stop.
async fn status_after_clear(link: &LinkHandle) -> firmware_protocol::message::Status {
    let mut status = link.status().await.expect("status");
    for _ in 0..200 {
        if status.state == FirmwareState::Unhomed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        status = link.status().await.expect("status");
    }
    status
}

#[test]
fn link_reports_the_start_button() {
    runtime().block_on(async {
        let (sim, mut link, _) = open_link(&four_arm(), 0.0).await;
        sim.controls.send(Control::Button).expect("sim running");
        let event = wait_for(&mut link, |e| matches!(e, LinkEvent::Button { .. })).await;
        assert_eq!(event, LinkEvent::Button { button: 0 });
        link.shutdown().await;
        sim.stop().await.expect("sim stops");
    });
}

/// A motion before homing is refused for the firmware's state; no fault explains it, so
/// the refusal is reported after waiting for one.
#[test]
fn a_motion_before_homing_is_refused_for_the_firmwares_state() {
    runtime().block_on(async {
        let model = four_arm();
        let (_, program) = scrambled(&model, 4, 6);
        let (sim, mut link, map) = open_link(&model, 0.0).await;
        let groups = program_groups(&map, &program, &model.home()).expect("encodes");
        link.send(groups[1]).expect("queued without its Home");
        let event = wait_for(&mut link, |e| matches!(e, LinkEvent::Refused { .. })).await;
        let LinkEvent::Refused { move_id, reason } = event else {
            unreachable!()
        };
        assert_eq!(
            (move_id, reason),
            (Some(groups[1].move_id()), NakReason::BadState)
        );
        link.shutdown().await;
        let served = sim.stop().await.expect("sim stops");
        assert_eq!(served.firmware.stats.moves_executed, 0);
    });
}
