//! The daemon (`cubed run`) with its `[robot] port` on the emulated Pico, as a builder
//! runs it next to a real one: it opens the link, the robot's start button starts a run
//! (homing moves the modelled motors), and `cubed estop` from the command line reaches
//! the board, which stops and switches its drivers off.

use super::emulator::{available, EmulatedPico};
use super::trace::four_arm_machine;
use crate::common::{cubed, robot_config, run_daemon, stderr, wait_status};
use std::time::Duration;

#[test]
fn the_daemon_runs_from_the_pico_start_button_and_its_estop_reaches_the_board() {
    let Some(elf) = available("the daemon on the emulated Pico") else {
        return;
    };
    let pico = EmulatedPico::start(&elf, 21);
    let machine = four_arm_machine();
    let dir = tempfile::tempdir().expect("temp dir");
    let config = robot_config(&pico.port, dir.path());
    let (mut daemon, http) = run_daemon(&config, dir.path());
    wait_status(&http, "robot link: open");
    let pressed_at = pico.trace().now_ns;
    // The robot's own start button (to ground, read active low), held briefly.
    pico.set_pin(machine.button.pin, !machine.button.released);
    std::thread::sleep(Duration::from_millis(500));
    pico.set_pin(machine.button.pin, machine.button.released);
    wait_status(&http, ", run 1");
    // Homing turns the modelled motors: wait until the board is stepping.
    let stepping = (0..240).any(|_| {
        std::thread::sleep(Duration::from_millis(250));
        pico.trace()
            .last_step_ns(&machine)
            .is_some_and(|last| last > pressed_at)
    });
    assert!(stepping, "the run moved the robot's motors");
    let estop = cubed(&["estop", "--http", &http], None);
    assert!(estop.status.success(), "{}", stderr(&estop));
    wait_status(&http, "e-stopped");
    // The board latched it and switched its drivers off.
    let enable = &machine.enable;
    let off = (0..120).any(|_| {
        std::thread::sleep(Duration::from_millis(250));
        let trace = pico.trace();
        trace.level_at(enable.pin, trace.now_ns) == Some(enable.active_low)
    });
    let _ = daemon.kill();
    let _ = daemon.wait();
    assert!(
        off,
        "the e-stop from the command line switched the drivers off"
    );
}

#[test]
fn the_daemon_says_which_pin_the_pico_refuses_and_moves_nothing() {
    let Some(elf) = available("a design the emulated Pico refuses, under the daemon") else {
        return;
    };
    let pico = EmulatedPico::start(&elf, 23);
    let dir = tempfile::tempdir().expect("temp dir");
    let config = robot_config(&pico.port, dir.path());
    // The left jaw's servo on GP25, the Pico's LED: the design loader takes it (a GPIO
    // number), the firmware knows it is the board's own.
    let shipped = crate::common::shipped_design_file("four-arm");
    let text = std::fs::read_to_string(&shipped).expect("the four-arm design");
    let design = dir.path().join("four-arm-led.toml");
    std::fs::write(&design, text.replacen("jaw = 16", "jaw = 25", 1)).expect("design written");
    let config_text = std::fs::read_to_string(&config).expect("config");
    let shipped_text = shipped.to_string_lossy().into_owned();
    assert!(config_text.contains(&shipped_text), "{config_text}");
    std::fs::write(
        &config,
        config_text.replace(&shipped_text, &design.to_string_lossy()),
    )
    .expect("config written");
    let (mut daemon, http) = run_daemon(&config, dir.path());
    let status = wait_status(&http, "pin 25");
    let _ = daemon.kill();
    let _ = daemon.wait();
    assert!(
        status.contains("the left jaw") || status.contains("gripper 'left'"),
        "names the actuator: {status}"
    );
    assert!(status.contains("wiring jaw is pin 25"), "{status}");
    let trace = pico.trace();
    assert!(
        trace.outputs.is_empty() && trace.servo_pulses.is_empty(),
        "nothing driven"
    );
}
