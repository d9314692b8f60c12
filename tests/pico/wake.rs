//! The Pico firmware's sleep between passes, witnessed at one instruction: an input's edge
//! that comes while a pass runs, after it read its inputs, still ends the sleep that follows
//! the pass, so the e-stop is acted on in microseconds, not at the next wake tick.

use super::session::{four_arm_pico, home, next, open, run_all, FourArmPico};
use crate::common::runtime;
use cubed::link::{LinkEvent, LinkSettings};
use firmware_protocol::message::Fault;

/// A function the main loop calls after the pass has read its inputs and before it sleeps
/// (the firmware core's `poll` asks it for the deadline to sleep to): an edge here is one
/// the pass has not seen.
const AFTER_THE_INPUTS_ARE_READ: &str = "Firmware>::next_deadline";

/// Far under the 1 ms wake tick that a swallowed edge waits for, far over a pass (~2,300
/// instructions, ~20 µs of the chip's time).
const PROMPT_NS: u64 = 250_000;

#[test]
fn an_estop_pressed_mid_pass_switches_the_drivers_off_before_the_wake_tick() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("an e-stop mid-pass on the emulated Pico", 7)
    else {
        return;
    };
    let estop = machine.estop.pin;
    runtime().block_on(async {
        let mut link = open(&pico, &map, LinkSettings::default()).await;
        // Homed, the drivers are on and stay on while idle (for minutes): the loop sleeps
        // to the tick between passes.
        run_all(&mut link, &[home(&map, 1)]).await;
        // Let the link's last bytes go, so the pass the edge lands in is an idle one.
        pico.run_for_emulated_ms(50).await;
        // A name that gives no one function is refused, naming what it found; nothing moves.
        let none = pico.pin_on_entry_refused("no_such_function_in_the_firmware", estop);
        assert!(none.contains("found none"), "{none}");
        let two = pico.pin_on_entry_refused("::next_deadline", estop);
        assert!(
            two.contains(AFTER_THE_INPUTS_ARE_READ) && two.contains(", "),
            "both named: {two}"
        );
        pico.set_pin_on_entry(AFTER_THE_INPUTS_ARE_READ, estop, !machine.estop.released);
        loop {
            match next(&mut link, 60).await {
                LinkEvent::Fault(Fault::EStopLatched) => break,
                LinkEvent::EStopButton { .. } | LinkEvent::EStopped { .. } => {}
                other => panic!("expected the latched e-stop, got {other:?}"),
            }
        }
        let trace = pico.trace();
        let pressed = trace
            .input_set(estop, !machine.estop.released, 0)
            .expect("the e-stop pressed at the function's entry (see 'emulated Pico said' above)");
        let off = trace
            .enable_off_since(&machine, pressed)
            .expect("the drivers' ENABLE switched off after the e-stop");
        eprintln!(
            "emulated Pico: e-stop pressed mid-pass, ENABLE off {:.1} µs later",
            (off - pressed) as f64 / 1e3
        );
        assert!(
            off - pressed < PROMPT_NS,
            "ENABLE went off {} µs after an e-stop pressed mid-pass: the edge waited for the wake tick",
            (off - pressed) / 1000
        );
        link.shutdown().await;
    });
}
