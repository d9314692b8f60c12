//! The board's pins through the RP2040's registers, wired as the host's machine says:
//! SIO for step/dir/enable and the inputs, one PWM channel per servo (1 MHz count,
//! 20 ms period). Pins of a previous machine go back to plain inputs.

use core::sync::atomic::{AtomicU32, Ordering};
use cubed_firmware::{Actuator, Firmware, Machine, Pins, Signal};
use rp2040_hal::pac;

/// GPIO function numbers (RP2040 datasheet, 2.19.2).
const FUNC_PWM: u8 = 4;
const FUNC_SIO: u8 = 5;
/// System clock 125 MHz / 125 = 1 MHz PWM count; 20 000 counts = 50 Hz.
const PWM_DIV: u8 = 125;
const PWM_TOP: u16 = 19_999;
/// A step pulse's high time when the timer's queue cannot take it: ~2.4 µs at 125 MHz.
const STEP_PULSE_CYCLES: u32 = 300;

/// What the panic handler needs to make the robot safe without the machine: the ENABLE
/// pin's "off" level (bit 31: wired, bits 0..5 the pin, bit 8 the off level high), and
/// the servo pins as a mask.
static SAFE_ENABLE: AtomicU32 = AtomicU32::new(0);
static SAFE_SERVOS: AtomicU32 = AtomicU32::new(0);

pub struct BoardIo {
    sio: &'static pac::sio::RegisterBlock,
    pwm: &'static pac::pwm::RegisterBlock,
    machine: Machine,
    /// Every pin the machine reads (sensors, stall outputs, e-stop, button).
    inputs: u32,
    /// Every pin the machine drives.
    outputs: u32,
}

fn set_function(gpio: u8, function: u8) {
    // SAFETY: IO_BANK0 and PADS_BANK0 were taken out of reset by `Pins::new`; GPIO
    // control registers are written only from the main thread.
    let (io, pads) = unsafe { (&*pac::IO_BANK0::ptr(), &*pac::PADS_BANK0::ptr()) };
    pads.gpio(usize::from(gpio))
        .modify(|_, w| w.ie().set_bit().od().clear_bit());
    io.gpio(usize::from(gpio))
        .gpio_ctrl()
        .write(|w| unsafe { w.funcsel().bits(function) });
}

/// Pulls `gpio` up (the inputs: open-collector sensors and switches to GND) or not.
fn set_pull_up(gpio: u8, up: bool) {
    // SAFETY: as in `set_function`.
    let pads = unsafe { &*pac::PADS_BANK0::ptr() };
    pads.gpio(usize::from(gpio))
        .modify(|_, w| w.pue().bit(up).pde().clear_bit());
}

fn pins_of(mask: u32) -> impl Iterator<Item = u8> {
    (0..32u8).filter(move |pin| mask & (1 << pin) != 0)
}

fn bit(pin: u8) -> u32 {
    1 << (pin % 32)
}

impl BoardIo {
    /// No machine yet: every pin as it came out of reset.
    pub fn new() -> BoardIo {
        BoardIo::registers()
    }

    fn registers() -> BoardIo {
        // SAFETY: SIO set/clear/read registers and PWM slices are used only here (and
        // STEP bits by `steps`, through set/clear writes that do not disturb others).
        let (sio, pwm) = unsafe { (&*pac::SIO::ptr(), &*pac::PWM::ptr()) };
        BoardIo {
            sio,
            pwm,
            machine: Machine::default(),
            inputs: 0,
            outputs: 0,
        }
    }

    fn output(&self, gpio: u8, high: bool) {
        set_function(gpio, FUNC_SIO);
        self.write(gpio, high);
        self.sio.gpio_oe_set().write(|w| unsafe { w.bits(bit(gpio)) });
    }

    fn input(&self, gpio: u8) {
        self.sio.gpio_oe_clr().write(|w| unsafe { w.bits(bit(gpio)) });
        set_function(gpio, FUNC_SIO);
        set_pull_up(gpio, true);
    }

    fn servo_output(&self, gpio: u8) {
        let slice = self.pwm.ch(usize::from((gpio / 2) % 8));
        slice.div().write(|w| unsafe { w.int().bits(PWM_DIV) });
        slice.top().write(|w| unsafe { w.bits(u32::from(PWM_TOP)) });
        slice.csr().modify(|_, w| w.en().set_bit());
        set_function(gpio, FUNC_PWM);
    }

    fn write(&self, gpio: u8, high: bool) {
        if high {
            self.sio.gpio_out_set().write(|w| unsafe { w.bits(bit(gpio)) });
        } else {
            self.sio.gpio_out_clr().write(|w| unsafe { w.bits(bit(gpio)) });
        }
    }

    /// Samples every input the machine reads.
    pub fn read_inputs(&self, firmware: &mut Firmware<'static>) {
        let levels = self.sio.gpio_in().read().bits();
        for pin in pins_of(self.inputs) {
            firmware.set_input(pin, levels & bit(pin) != 0);
        }
    }

    /// Lets go of every pin of the current machine: drivers off, servos unpowered,
    /// outputs back to inputs.
    fn release(&mut self) {
        make_safe();
        self.sio
            .gpio_oe_clr()
            .write(|w| unsafe { w.bits(self.outputs) });
        for pin in pins_of(self.outputs | self.inputs) {
            set_function(pin, FUNC_SIO);
            set_pull_up(pin, false);
        }
        self.outputs = 0;
        self.inputs = 0;
        crate::wake::wake_on_inputs(0);
    }

    fn wire_signal_in(&mut self, signal: Option<Signal>) {
        if let Some(signal) = signal {
            self.input(signal.pin);
            self.inputs |= bit(signal.pin);
        }
    }
}

/// Switches the drivers off and stops the servo pulses, from anywhere (the panic
/// handler too): only registers and what `apply` stored.
pub fn make_safe() {
    let io = BoardIo::registers();
    let enable = SAFE_ENABLE.load(Ordering::Relaxed);
    if enable & (1 << 31) != 0 {
        io.write((enable & 0x3F) as u8, enable & (1 << 8) != 0);
    }
    for pin in pins_of(SAFE_SERVOS.load(Ordering::Relaxed)) {
        io.set_pulse(pin, 0);
    }
}

impl BoardIo {
    fn set_pulse(&self, pin: u8, pulse_us: u16) {
        let slice = self.pwm.ch(usize::from((pin / 2) % 8));
        if pin % 2 == 0 {
            slice.cc().modify(|_, w| unsafe { w.a().bits(pulse_us) });
        } else {
            slice.cc().modify(|_, w| unsafe { w.b().bits(pulse_us) });
        }
    }

    fn stepper_pins(&self, actuator: u8) -> Option<(u8, u8)> {
        match self.machine.actuators.get(usize::from(actuator)) {
            Some(Actuator::Stepper(s)) => Some((s.step_pin, s.dir_pin)),
            _ => None,
        }
    }
}

impl Pins for BoardIo {
    fn set_enable(&mut self, _actuator: u8, enabled: bool) {
        if let Some(enable) = self.machine.board.enable {
            self.write(enable.pin, enabled == enable.active_high);
        }
    }

    fn set_dir(&mut self, actuator: u8, high: bool) {
        if let Some((_, dir)) = self.stepper_pins(actuator) {
            self.write(dir, high);
        }
    }

    fn step(&mut self, actuator: u8, at_us: u64) {
        if !crate::steps::push(actuator, at_us) {
            if let Some((step, _)) = self.stepper_pins(actuator) {
                self.write(step, true);
                cortex_m::asm::delay(STEP_PULSE_CYCLES);
                self.write(step, false);
            }
        }
    }

    fn cancel_steps(&mut self, actuator: u8) -> u32 {
        crate::steps::cancel(actuator)
    }

    fn set_servo(&mut self, actuator: u8, pulse_us: u16) {
        if let Some(Actuator::Servo(servo)) = self.machine.actuators.get(usize::from(actuator)) {
            self.set_pulse(servo.pin, pulse_us);
        }
    }

    /// Rewires every pin for `machine` (the core checked that each exists on this chip,
    /// is not the board's own and is used once). The drivers start off.
    fn apply(&mut self, machine: &Machine) {
        self.release();
        self.machine = *machine;
        let board = machine.board;
        let mut servos = 0u32;
        let mut safe_enable = 0u32;
        if let Some(enable) = board.enable {
            self.output(enable.pin, !enable.active_high);
            self.outputs |= bit(enable.pin);
            safe_enable = (1 << 31) | u32::from(enable.pin) | (u32::from(!enable.active_high) << 8);
        }
        self.wire_signal_in(board.estop);
        self.wire_signal_in(board.button);
        for actuator in machine.actuators.iter() {
            match actuator {
                Actuator::Stepper(s) => {
                    self.output(s.step_pin, false);
                    self.output(s.dir_pin, false);
                    self.outputs |= bit(s.step_pin) | bit(s.dir_pin);
                    self.wire_signal_in(s.home.map(|h| h.input));
                    self.wire_signal_in(s.stall);
                }
                Actuator::Servo(servo) => {
                    self.set_pulse(servo.pin, 0);
                    self.servo_output(servo.pin);
                    self.outputs |= bit(servo.pin);
                    servos |= bit(servo.pin);
                }
                Actuator::Fixed => {}
            }
        }
        SAFE_ENABLE.store(safe_enable, Ordering::Relaxed);
        SAFE_SERVOS.store(servos, Ordering::Relaxed);
        crate::steps::rewire(machine);
        crate::wake::wake_on_inputs(self.inputs);
    }
}
