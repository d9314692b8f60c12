//! Step timing as the chip makes it: four steppers at the board's top speed at once
//! while status frames stream over USB, every STEP edge held against its ideal time on
//! the firmware core's ramp (the timer's alarm pulses each one) (BENCHMARKS.md, "The emulated Pico").

use super::exec::{pico_ramp, STEPS_PER_QUARTER};
use super::session::{four_arm_pico, four_rotations, home, open, run_all, FourArmPico};
use crate::common::runtime;
use cubed::link::LinkEvent;
use cubed::link::LinkSettings;
use std::time::{Duration, Instant};

/// A quarter turn, then half turns there and back (the design's range is -1..=1): each
/// long enough to cruise at top speed.
const TARGETS: [i32; 4] = [1, -1, 1, -1];

#[test]
fn four_steppers_at_top_speed_while_frames_stream() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("step timing on the emulated Pico", 11)
    else {
        return;
    };
    let homed_ns = runtime().block_on(async {
        let mut link = open(&pico, &map, LinkSettings::default()).await;
        run_all(&mut link, &[home(&map, 1)]).await;
        let homed_ns = pico.trace().now_ns;
        let moves: Vec<_> = (0..TARGETS.len())
            .map(|i| four_rotations(2 + i as u32, TARGETS[i]))
            .collect();
        for group in &moves {
            link.send(*group).expect("queued");
        }
        // Status queries stream the whole time the motors run.
        let (mut done, mut queries) = (0, 0);
        let deadline = Instant::now() + Duration::from_secs(180);
        while done < moves.len() {
            assert!(Instant::now() < deadline, "the moves finish within 180 s");
            link.status().await.expect("status while moving");
            queries += 1;
            for event in link.take_waiting_events() {
                match event {
                    LinkEvent::MoveDone { .. } => done += 1,
                    other => panic!("expected MoveDone, got {other:?}"),
                }
            }
        }
        assert!(
            queries >= 10,
            "status frames streamed during the moves ({queries})"
        );
        link.shutdown().await;
        homed_ns
    });
    let trace = pico.trace();
    let (mut late_ns, mut widths) = (Vec::new(), Vec::new());
    for stepper in &machine.steppers {
        let moves = trace.moves_between(stepper, homed_ns, u64::MAX);
        let distances: Vec<i64> = moves.iter().map(|m| m.distance()).collect();
        let expected: Vec<i64> = [1, -2, 2, -2].map(|q| q * STEPS_PER_QUARTER).to_vec();
        assert_eq!(
            distances, expected,
            "{}: every turn, in order",
            stepper.name
        );
        for one in &moves {
            late_ns.extend(one.step_errors_ns(&pico_ramp(one.steps_ns.len() as u32)));
        }
        widths.push(trace.shortest_pulse_ns(stepper.step).expect("step pulses"));
    }
    late_ns.sort_unstable();
    let period_us = 1e6 / f64::from(super::exec::design_rotation().max_steps_s());
    let (median, largest) = (late_ns[late_ns.len() / 2], late_ns[late_ns.len() - 1]);
    eprintln!(
        "emulated Pico, four steppers at top speed with status frames streaming: {} step edges; \
         lateness against the core's ramp median {:.1} µs, 99th percentile {:.1} µs, largest {:.1} µs, \
         {} over 2 µs (top-speed step period {period_us:.0} µs); shortest STEP pulse {:.2} µs",
        late_ns.len(),
        median as f64 / 1e3,
        late_ns[late_ns.len() * 99 / 100] as f64 / 1e3,
        largest as f64 / 1e3,
        late_ns.iter().filter(|&&ns| ns > 2_000).count(),
        *widths.iter().min().expect("four steppers") as f64 / 1e3,
    );
    // The timer's alarm pulses each step at its time: 99 % within 1 µs and none later than
    // its 12 µs early wake allows for (steps from the main loop would be tens of µs off; a
    // loaded host's USB frames, bunched, have put a few edges at 2.4 µs), and at least
    // 2 µs high (DRV8825-class drivers need 1.9 µs).
    let p99 = late_ns[late_ns.len() * 99 / 100];
    assert!(
        p99 <= 1_000,
        "1 % of the steps came over {p99} ns off their ramp times"
    );
    assert!(
        largest <= 10_000,
        "a step came {largest} ns off its ramp time"
    );
    let shortest = *widths.iter().min().expect("four steppers");
    assert!(shortest >= 2_000, "a STEP pulse was {shortest} ns high");
}
