//! The robot's hardware set up by the host: `SetupBoard` and `SetupActuator` staged, checked and applied with the `Configure` after them (one channel per actuator, inputs at their inactive levels).

use super::{Channel, Firmware};
use crate::check::check_setup;
use crate::inputs::Inputs;
use crate::servo::ServoChannel;
use crate::stepper::StepperChannel;
use firmware_protocol::message::{
    Actuator, BoardSetup, ConfigRefusal, Configure, FirmwareState, Machine, NakReason, Signal,
    MAX_ACTUATORS,
};
use firmware_protocol::{Message, Seq};

/// The robot's hardware as the host's `SetupBoard` and `SetupActuator`s describe it,
/// waiting for the `Configure` that applies it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Staged {
    pub(super) board: Option<BoardSetup>,
    pub(super) actuators: [Option<Actuator>; MAX_ACTUATORS],
}

impl Staged {
    /// The whole machine, or which part the host has not sent.
    fn machine(&self) -> Result<Machine, ConfigRefusal> {
        let board = self
            .board
            .ok_or(ConfigRefusal::NotSetUp { actuator: None })?;
        let mut machine = Machine {
            board,
            ..Machine::default()
        };
        for index in 0..usize::from(board.actuators).min(MAX_ACTUATORS) {
            let missing = ConfigRefusal::NotSetUp {
                actuator: Some(index as u8),
            };
            let actuator = self.actuators[index].ok_or(missing)?;
            machine
                .actuators
                .push(actuator, "actuators")
                .map_err(|_| missing)?;
        }
        Ok(machine)
    }
}

impl<'b> Firmware<'b> {
    /// Whether the machine may be set up or configured now: not while anything runs or
    /// a fault is latched.
    fn may_configure(&self) -> bool {
        matches!(
            self.state(),
            FirmwareState::Unconfigured | FirmwareState::Unhomed | FirmwareState::Idle
        )
    }

    pub(super) fn on_setup(&mut self, seq: Seq, stage: impl FnOnce(&mut Staged)) {
        if !self.may_configure() {
            return self.nak(seq, NakReason::BadState);
        }
        stage(&mut self.staged);
        self.ack();
    }

    pub(super) fn on_configure(&mut self, configure: Configure, seq: Seq) {
        if !self.may_configure() {
            return self.nak(seq, NakReason::BadState);
        }
        let checked = self.staged.machine().and_then(|machine| {
            check_setup(self.chip, &machine, &configure)?;
            Ok(machine)
        });
        let machine = match checked {
            Ok(machine) => machine,
            Err(refusal) => {
                self.refusal = Some(refusal);
                return self.send_unsequenced(&Message::ConfigureRefused { seq, refusal });
            }
        };
        if machine != self.machine {
            self.apply(machine);
        }
        self.refusal = None;
        self.checksum = configure.checksum().unwrap_or(0);
        self.configure = Some(configure);
        self.homed = 0;
        self.notify(&Message::ConfigureReply {
            checksum: self.checksum,
        });
        self.ack();
    }

    /// Takes `machine` as the robot: one channel per actuator, its inputs at their
    /// inactive levels, every driver off and nothing homed; the board rewires its pins at
    /// the next poll.
    fn apply(&mut self, machine: Machine) {
        self.stop_and_flush();
        let mut channels = [Channel::None; MAX_ACTUATORS];
        for (index, (slot, hw)) in channels
            .iter_mut()
            .zip(machine.actuators.iter())
            .enumerate()
        {
            *slot = match *hw {
                Actuator::Stepper(stepper) => {
                    Channel::Stepper(StepperChannel::new(stepper, index as u8))
                }
                Actuator::Servo(servo) => Channel::Servo(ServoChannel::new(servo, index as u8)),
                Actuator::Fixed => Channel::None,
            };
        }
        self.channels = channels;
        self.inputs = Inputs::new(inactive_levels(&machine), machine.board.debounce_samples);
        self.button_was_active = false;
        self.drivers_on = 0;
        self.homed = 0;
        self.machine = machine;
        self.pins_stale = true;
    }
}

/// Every input the machine names, at its inactive level.
fn inactive_levels(machine: &Machine) -> u32 {
    let mut levels = 0u32;
    let mut set_inactive = |input: Option<Signal>| {
        if let Some(input) = input.filter(|input| input.pin < 32) {
            if !input.active_high {
                levels |= 1 << input.pin;
            }
        }
    };
    set_inactive(machine.board.estop);
    set_inactive(machine.board.button);
    for actuator in machine.actuators.iter() {
        if let Actuator::Stepper(stepper) = actuator {
            set_inactive(stepper.home.map(|home| home.input));
            set_inactive(stepper.stall);
        }
    }
    levels
}
