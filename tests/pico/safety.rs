//! The emulated Pico's safety paths, pin in and pins out with their emulated times: the
//! e-stop switch stops every stepper at once, its level is reported as the pin stands, and
//! nothing moves until a reset (then the
//! host's own EmergencyStop cancels a second program); a pulled USB cable halts the
//! motors by the comms timeout, and `cubed exec --reset` recovers.

use super::emulator::EmulatedPico;
use super::exec::{exec, program_file};
use super::session::{four_arm_pico, four_rotations, home, next, open, run_all, FourArmPico};
use super::trace::Machine;
use crate::common::{runtime, scrambled};
use cubed::link::{LinkError, LinkEvent, LinkSettings, RestartCause};
use firmware_protocol::message::{Event, Fault, FirmwareState, NakReason, ResetCause};
use firmware_protocol::timing::COMMS_TIMEOUT_MS;
use firmware_protocol::Message;
use std::time::Duration;

/// Half turns there and back (the design's range is -1..=1), back to back: `n` of them
/// keep the steppers moving for n × 227 ms.
fn back_and_forth(first_move_id: u32, n: u32) -> Vec<cubed::robot::MotionGroup> {
    (0..n)
        .map(|i| four_rotations(first_move_id + i, if i % 2 == 0 { 1 } else { -1 }))
        .collect()
}

#[test]
fn the_estop_switch_stops_every_stepper_at_once_until_a_reset() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("the e-stop on the emulated Pico", 5)
    else {
        return;
    };
    let estop = machine.estop.pin;
    runtime().block_on(async {
        let mut link = open(&pico, &map, LinkSettings::default()).await;
        press_start(&pico, &machine, &mut link).await;
        run_all(&mut link, &[home(&map, 1)]).await;
        for group in back_and_forth(2, 12) {
            link.send(group).expect("queued");
        }
        wait_until_stepping(&pico, &machine).await;
        let released = machine.estop.released;
        pico.set_pin(estop, !released); // pressed
        let mut told_held = false;
        loop {
            match next(&mut link, 60).await {
                LinkEvent::Fault(Fault::EStopLatched) => break,
                LinkEvent::EStopButton { held: true } => told_held = true,
                LinkEvent::EStopped { .. } | LinkEvent::MoveDone { .. } => {}
                other => panic!("expected the latched e-stop, got {other:?}"),
            }
        }
        // Nothing moves while it is latched: a motion is refused, the switch still pressed
        // keeps the latch.
        link.send(four_rotations(30, 0)).expect("queued");
        let refused = loop {
            match next(&mut link, 60).await {
                LinkEvent::Refused { reason, .. } => break reason,
                LinkEvent::EStopButton { held: true } => told_held = true,
                other => panic!("expected the motion refused, got {other:?}"),
            }
        };
        assert_eq!(refused, NakReason::EStopLatched);
        tokio::time::sleep(Duration::from_secs(2)).await;
        let status = link.status().await.expect("status");
        assert_eq!(status.state, FirmwareState::EStopped);
        // The chip reads its e-stop pin and reports it held, and the host was told.
        assert!(status.inputs.estop_held(), "the pressed pin reads held");
        told_held |= (link.take_waiting_events().iter())
            .any(|e| matches!(e, LinkEvent::EStopButton { held: true }));
        assert!(told_held, "the host was told the button is held");
        let trace = pico.trace();
        let pressed = trace.input_set(estop, !released, 0).expect("the e-stop pressed");
        let last = trace.last_step_ns(&machine).expect("steps");
        assert!(
            last + 10_000_000 >= pressed,
            "the steppers were moving when it was pressed"
        );
        let off = trace
            .enable_off_since(&machine, pressed)
            .expect("the drivers' ENABLE switched off after the e-stop");
        eprintln!(
            "emulated Pico: e-stop pin to last STEP edge {:+.1} µs (negative: none after the pin fell), \
             to ENABLE off {:.1} µs; nothing stepped in the {:.0} ms after",
            (last as f64 - pressed as f64) / 1e3,
            (off - pressed) as f64 / 1e3,
            (trace.now_ns - last) as f64 / 1e6,
        );
        assert!(off < pressed + 1_000_000, "ENABLE off within 1 ms of the e-stop pin");
        assert!(last < pressed + 1_000_000, "stepping stopped within 1 ms of the e-stop pin");
        // Released, cleared and homed again, it runs.
        pico.set_pin(estop, released);
        // The firmware reads its inputs once a loop: let it see the switch let go (in the
        // emulated chip's time, which a busy machine slows).
        pico.run_for_emulated_ms(200).await;
        let status = link.status().await.expect("status");
        assert!(!status.inputs.estop_held(), "the let-go pin reads released");
        assert_eq!(status.state, FirmwareState::EStopped, "letting go clears nothing");
        match next(&mut link, 60).await {
            LinkEvent::EStopButton { held: false } => {}
            other => panic!("expected the button told released, got {other:?}"),
        }
        link.clear_fault().expect("clear fault");
        pico.run_for_emulated_ms(500).await;
        assert_eq!(link.status().await.expect("status").state, FirmwareState::Unhomed);
        run_all(&mut link, &[home(&map, 40), four_rotations(41, 1)]).await;
        assert_eq!(link.status().await.expect("status").state, FirmwareState::Idle);
        // The host's EmergencyStop cancels what is queued, as the switch does.
        for group in back_and_forth(50, 8) {
            link.send(group).expect("queued");
        }
        wait_until_stepping(&pico, &machine).await;
        link.emergency_stop().expect("e-stop sent");
        let (mut cancelled, mut latched) = (None, false);
        while cancelled.is_none() || !latched {
            match next(&mut link, 60).await {
                LinkEvent::EStopped { cancelled: ids } => cancelled = Some(ids),
                LinkEvent::Fault(Fault::EStopLatched) => latched = true,
                LinkEvent::MoveDone { .. } => {}
                other => panic!("expected EStopped and the latched e-stop, got {other:?}"),
            }
        }
        assert!(cancelled.is_some_and(|ids| !ids.is_empty()), "commands cancelled");
        assert_eq!(link.status().await.expect("status").state, FirmwareState::EStopped);
        link.shutdown().await;
    });
}

/// The start button (to ground, read active low) reaches the host as `Button 0`.
async fn press_start(pico: &EmulatedPico, machine: &Machine, link: &mut cubed::link::LinkHandle) {
    pico.set_pin(machine.button.pin, false);
    match next(link, 60).await {
        LinkEvent::Button { button } => assert_eq!(button, 0),
        other => panic!("expected the start button, got {other:?}"),
    }
    pico.set_pin(machine.button.pin, true);
}

/// Waits (wall time) until the trace shows steps within the last few emulated ms.
pub(super) async fn wait_until_stepping(pico: &EmulatedPico, machine: &Machine) {
    for _ in 0..120 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let trace = pico.trace();
        if trace
            .last_step_ns(machine)
            .is_some_and(|last| trace.now_ns - last < 5_000_000)
        {
            return;
        }
    }
    panic!("the steppers did not start within 30 s");
}

#[test]
fn a_pulled_cable_halts_the_motors_at_the_comms_timeout_and_exec_reset_recovers() {
    let Some(FourArmPico {
        pico,
        model,
        machine,
        map,
    }) = four_arm_pico("a USB disconnect on the emulated Pico", 6)
    else {
        return;
    };
    let settings = LinkSettings {
        reconnect_timeout: Duration::from_millis(500),
        ..LinkSettings::default()
    };
    runtime().block_on(async {
        let mut link = open(&pico, &map, settings).await;
        run_all(&mut link, &[home(&map, 1)]).await;
        // Queued: far more stepping than the comms timeout lasts.
        for group in back_and_forth(2, 28) {
            link.send(group).expect("queued");
        }
        wait_until_stepping(&pico, &machine).await;
        pico.unplug();
        // The host hears its port hang up; the firmware hears nothing more. (Wall time: on
        // a machine shared with other work the emulator may lag well behind; 60 s was seen
        // to pass.)
        loop {
            match next(&mut link, 180).await {
                LinkEvent::LinkLost { .. } | LinkEvent::Stopped { .. } => break,
                _ => {}
            }
        }
        drop(link);
    });
    let unplugged = pico.trace().now_ns;
    // Wait (wall time) until the emulated chip is well past the comms timeout.
    let trace = loop {
        std::thread::sleep(Duration::from_millis(500));
        let trace = pico.trace();
        if trace.now_ns > unplugged + (COMMS_TIMEOUT_MS + 1_000) * 1_000_000 {
            break trace;
        }
    };
    let last_frame = pico_last_host_frame(&trace, unplugged);
    let last_step = trace.last_step_ns(&machine).expect("steps");
    let after = last_step.saturating_sub(last_frame) as f64 / 1e6;
    // Whichever comes first stops it: the comms timeout, or the firmware holding its next
    // command until the host acknowledges the MoveDones it has sent.
    assert!(
        after < (COMMS_TIMEOUT_MS + 50) as f64,
        "the motors stopped {after} ms after the host fell silent, past the comms timeout"
    );
    pico.plug();
    let (_, program) = scrambled(&model, 8, 3);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = program_file(&model, &program, dir.path(), "after.json");
    let recovered = exec(&pico, &path, &["--reset"]);
    let cleared = crate::common::stderr(&recovered)
        .lines()
        .find(|line| line.contains("clear"))
        .unwrap_or("")
        .to_string();
    eprintln!(
        "emulated Pico: USB cable pulled mid-program; last STEP edge {after:.1} ms after the last byte from the host \
         (comms timeout {COMMS_TIMEOUT_MS} ms); plugged back, `cubed exec --reset` said \"{cleared}\" and ran"
    );
}

/// A cable out long past the comms timeout while the host waits for it: plugged back, the
/// program ends on the host timeout the firmware latched meanwhile, named, not on the refusal
/// of the next command (the status read on reconnecting shows it latched; the firmware's
/// report of it came too late on a busy machine, where `cubed exec` ended "refused").
#[test]
fn a_cable_out_past_the_comms_timeout_ends_the_program_on_the_host_timeout() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("a long USB disconnect on the emulated Pico", 9)
    else {
        return;
    };
    // The port's return waited for in wall time: the emulated chip enumerates again at its
    // own pace, which a busy machine slows (30 s, the default, was seen to pass).
    let settings = LinkSettings {
        reconnect_timeout: Duration::from_secs(180),
        ..LinkSettings::default()
    };
    runtime().block_on(async {
        let mut link = open(&pico, &map, settings).await;
        run_all(&mut link, &[home(&map, 1)]).await;
        for group in back_and_forth(2, 28) {
            link.send(group).expect("queued");
        }
        wait_until_stepping(&pico, &machine).await;
        pico.unplug();
        // Well past the comms timeout, emulated (the link waits for the port meanwhile).
        pico.run_for_emulated_ms(COMMS_TIMEOUT_MS + 4_000).await;
        pico.plug();
        let ended = loop {
            match next(&mut link, 180).await {
                event @ (LinkEvent::Fault(_) | LinkEvent::Refused { .. }) => break event,
                LinkEvent::Stopped { error } => panic!("the link stopped: {error:?}"),
                _ => {}
            }
        };
        assert!(
            matches!(ended, LinkEvent::Fault(Fault::CommsTimeout)),
            "{ended:?}"
        );
        link.shutdown().await;
    });
}

#[test]
fn a_hung_firmware_is_reset_by_the_watchdog_and_its_boot_event_says_so() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("the watchdog on the emulated Pico", 12)
    else {
        return;
    };
    let reset_ns = runtime().block_on(async {
        let mut link = open(&pico, &map, LinkSettings::default()).await;
        run_all(&mut link, &[home(&map, 1)]).await;
        for group in back_and_forth(2, 8) {
            link.send(group).expect("queued");
        }
        wait_until_stepping(&pico, &machine).await;
        let reset_ns = pico.hang_until_reset();
        // The host's link finds the board again behind the same path and hears why it
        // restarted. The watchdog counts the emulated chip's time: with the other emulated
        // Picos' tests on two cores it came after 90 s of wall time (33 s alone), so the
        // bound only catches a link that never hears of the reboot.
        let stopped = loop {
            if let LinkEvent::Stopped { error } = next(&mut link, 300).await {
                break error;
            }
        };
        match stopped {
            Some(LinkError::FirmwareRebooted { cause, .. }) => {
                assert_eq!(cause, RestartCause(Some(ResetCause::Watchdog)));
                eprintln!(
                    "emulated Pico: the host's link said: {}",
                    stopped_words(cause)
                );
            }
            other => panic!("expected the link to stop on the reboot, got {other:?}"),
        }
        // The board is back: a new session configures it and homes.
        let mut link = open(&pico, &map, LinkSettings::default()).await;
        run_all(&mut link, &[home(&map, 20)]).await;
        link.shutdown().await;
        reset_ns
    });
    let trace = pico.trace();
    let hang = trace.event("hang").expect("the hang traced");
    let last_before_reset = trace
        .outputs
        .iter()
        .filter(|e| e.high && e.ns < reset_ns)
        .filter(|e| machine.steppers.iter().any(|s| s.step == e.gpio))
        .map(|e| e.ns)
        .max()
        .expect("steps before the hang");
    let boot = pico
        .from_firmware
        .lock()
        .expect("log lock")
        .messages()
        .into_iter()
        .find_map(|(ns, m)| match m {
            Message::Event(Event::Boot { cause }) if ns > reset_ns => Some(cause),
            _ => None,
        });
    eprintln!(
        "emulated Pico: firmware hung; watchdog reset {:.1} ms later; last STEP edge {:+.1} µs from the hang; \
         after the reset the Boot event says {boot:?}",
        (reset_ns - hang) as f64 / 1e6,
        (last_before_reset as f64 - hang as f64) / 1e3,
    );
    assert!(
        reset_ns - hang < 150_000_000,
        "the watchdog reset the chip within 150 ms"
    );
    assert!(
        last_before_reset < hang + 1_000_000,
        "stepping stopped with the hang"
    );
    assert_eq!(
        boot,
        Some(ResetCause::Watchdog),
        "the Boot event names the watchdog"
    );
    // The reset let go of the pins: the board's pull-up switched the drivers off at that
    // instant, whatever the hung firmware had left on.
    let enable = &machine.enable;
    assert_eq!(
        trace.level_at(enable.pin, reset_ns),
        Some(enable.active_low),
        "ENABLE off at the reset"
    );
}

fn stopped_words(cause: RestartCause) -> String {
    LinkError::FirmwareRebooted {
        path: "PORT".into(),
        cause,
    }
    .to_string()
}

/// When the firmware last heard the host: the trace's last `tx` before the unplug.
fn pico_last_host_frame(trace: &super::trace::Trace, unplugged_ns: u64) -> u64 {
    trace
        .host_bytes_ns
        .iter()
        .copied()
        .filter(|&ns| ns <= unplugged_ns)
        .max()
        .expect("the host sent bytes")
}

/// A person forgets `--reset` once after an e-stop: that `cubed exec` is refused, and the
/// next one, with `--reset`, clears the latch and runs its program.
#[test]
fn after_an_estop_a_refused_session_then_a_reset_runs_the_program() {
    let Some(FourArmPico { pico, machine, .. }) =
        four_arm_pico("a reset after a refused session on the emulated Pico", 9)
    else {
        return;
    };
    let port = pico.port.display().to_string();
    let design = crate::common::shipped_design_arg("four-arm");
    let exec = |extra: &[&str]| {
        let mut args = vec!["exec", "--port", &port, "--robot", &design, "--moves", "U"];
        args.extend_from_slice(extra);
        crate::common::cubed(&args, None)
    };
    let first = exec(&[]);
    assert!(first.status.success(), "{}", crate::common::stderr(&first));
    let estop = machine.estop.pin;
    pico.set_pin(estop, !machine.estop.released);
    std::thread::sleep(Duration::from_millis(500));
    pico.set_pin(estop, machine.estop.released);
    std::thread::sleep(Duration::from_millis(500));
    let refused = exec(&[]);
    assert!(
        !refused.status.success(),
        "the latched e-stop refuses a session"
    );
    let reset = exec(&["--reset"]);
    let frames = pico.from_firmware.lock().expect("log").messages();
    let last: Vec<String> = frames
        .iter()
        .rev()
        .take(40)
        .rev()
        .map(|(ns, m)| format!("{:.3} {m:?}", *ns as f64 / 1e9))
        .collect();
    assert!(
        reset.status.success(),
        "{}\nthe firmware's last frames: {last:#?}",
        crate::common::stderr(&reset)
    );
}
