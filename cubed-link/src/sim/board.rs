//! The chip the simulator's firmware runs on, and the machine it drives for a robot
//! design: the same machine the host sends it at connect (the design's wiring, or a
//! virtual wiring for a design that gives none).

use crate::robot::wiring::{simulator_name, RobotSetup, WiringError, VIRTUAL_WIRING_FIRMWARE};
use crate::robot::{ActuatorMap, RobotModel};
use cubed_firmware::{Chip, Machine};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Why the design cannot be a simulated machine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardBuildError {
    #[error(transparent)]
    Wiring(#[from] WiringError),
}

/// A chip with 32 GPIOs, none kept, whose steps are pulsed as they come due.
pub(crate) static SIM_CHIP: Chip = Chip {
    name: VIRTUAL_WIRING_FIRMWARE,
    ..cubed_firmware::examples::EXAMPLE_CHIP
};

/// The simulator's chip for `machine`: [`SIM_CHIP`] named for the machine it simulates, so
/// that a host setting up another robot can tell at `Hello`. One chip per machine, kept for
/// the process (the firmware core holds its chip for ever).
pub(crate) fn sim_chip_for(machine: &Machine) -> &'static Chip {
    static CHIPS: OnceLock<Mutex<HashMap<String, &'static Chip>>> = OnceLock::new();
    let name = simulator_name(machine);
    let mut chips = (CHIPS.get_or_init(Default::default).lock())
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    chips.entry(name).or_insert_with_key(|name| {
        let name: &'static str = Box::leak(name.clone().into_boxed_str());
        Box::leak(Box::new(Chip { name, ..SIM_CHIP }))
    })
}

/// The machine for `model` with `map`'s actuator order.
pub(crate) fn machine_for(
    model: &RobotModel,
    map: &ActuatorMap,
) -> Result<Machine, BoardBuildError> {
    Ok(RobotSetup::for_design(model, map)?.machine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::drive::Drive;
    use crate::robot::load_robot;
    use crate::robot::wiring::derived_drive;
    use cubed_firmware::{check_configure, check_machine, stepper_move_time_us, Stepper};
    use std::path::Path;

    #[test]
    fn every_shipped_design_is_a_machine_that_accepts_its_own_configure() {
        for design in ["four-arm", "turntable-flipper", "six-motor"] {
            let path = format!(
                "{}/../config/robots/{design}.toml",
                env!("CARGO_MANIFEST_DIR")
            );
            let model = load_robot(Path::new(&path)).expect("shipped design loads");
            let map = ActuatorMap::new(&model).expect("actuators");
            let machine = machine_for(&model, &map).expect("a machine");
            assert_eq!(machine.actuators.len(), map.roles.len(), "{design}");
            check_machine(&SIM_CHIP, &machine).expect("the chip takes the machine");
            check_configure(&machine, &map.configure()).expect("the machine honours the design");
        }
    }

    #[test]
    fn a_drive_derived_from_times_honours_them() {
        // The ramp the firmware computes (its own formula) meets the times: every pair of
        // quarter and half times in steps of 10 ms, a flip's alone, as the simulator sets up.
        let fits = |d: Drive, units_per_rev: u16, units: u32, ms: u32| {
            let s = Stepper {
                step_pin: 0,
                dir_pin: 1,
                full_steps_per_rev: d.full_steps_per_rev as u16,
                microsteps: d.microsteps as u16,
                gear_num: 1,
                gear_den: 1,
                units_per_rev,
                max_deg_s: d.max_deg_s,
                accel_deg_s2: d.accel_deg_s2,
                invert_dir: false,
                home: None,
                stall: None,
            };
            stepper_move_time_us(&s, units) <= u64::from(ms) * 1000
        };
        for q in (50..=1000).step_by(10) {
            for h in (q..=3 * q).step_by(10).chain([0]) {
                let d = derived_drive(q, h);
                assert!(fits(d, 4, 1, q), "{q}/{h}: quarter, {d:?}");
                assert!(h == 0 || fits(d, 4, 2, h), "{q}/{h}: half, {d:?}");
            }
            let flip = crate::robot::wiring::flip_drive(q);
            assert!(fits(flip, 1, 1, q), "flip {q}: {flip:?}");
        }
    }
}
