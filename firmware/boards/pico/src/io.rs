//! The board's pins through the RP2040's registers: SIO for step/dir/enable and the
//! sensor inputs, one PWM channel per servo (1 MHz count, 20 ms period).

use crate::board::{ChannelPins, BOARD, ENABLE_PIN, PINS};
use cubed_firmware::{Actuator, Firmware, Pins};
use rp2040_hal::pac;

/// GPIO function numbers (RP2040 datasheet, 2.19.2).
const FUNC_PWM: u8 = 4;
const FUNC_SIO: u8 = 5;
/// System clock 125 MHz / 125 = 1 MHz PWM count; 20 000 counts = 50 Hz.
const PWM_DIV: u8 = 125;
const PWM_TOP: u16 = 19_999;
/// A step pulse's high time when the timer's queue cannot take it: ~2.4 µs at 125 MHz.
const STEP_PULSE_CYCLES: u32 = 300;

pub struct BoardIo {
    sio: &'static pac::sio::RegisterBlock,
    pwm: &'static pac::pwm::RegisterBlock,
}

fn set_function(gpio: u8, function: u8) {
    // SAFETY: IO_BANK0 and PADS_BANK0 were taken out of reset by `Pins::new`; each
    // GPIO's control register is written once at start-up from the main thread.
    let (io, pads) = unsafe { (&*pac::IO_BANK0::ptr(), &*pac::PADS_BANK0::ptr()) };
    pads.gpio(usize::from(gpio))
        .modify(|_, w| w.ie().set_bit().od().clear_bit());
    io.gpio(usize::from(gpio))
        .gpio_ctrl()
        .write(|w| unsafe { w.funcsel().bits(function) });
}

impl BoardIo {
    /// Configures every pin of `board.rs`: outputs low, servos at their open pulse
    /// width only once commanded, inputs with pull-ups.
    pub fn new() -> BoardIo {
        let io = BoardIo::registers();
        for pins in PINS.iter() {
            match *pins {
                ChannelPins::Stepper { step, dir } => {
                    io.output(step);
                    io.output(dir);
                }
                ChannelPins::Servo { pwm } => io.servo_output(pwm),
            }
        }
        if let Some(enable) = ENABLE_PIN {
            io.output(enable);
            io.write(enable, true); // disabled until the first Home
        }
        for input in input_pins() {
            set_function(input, FUNC_SIO);
            // SAFETY: as in `set_function`.
            let pads = unsafe { &*pac::PADS_BANK0::ptr() };
            pads.gpio(usize::from(input))
                .modify(|_, w| w.pue().set_bit().pde().clear_bit());
        }
        io
    }

    /// The SIO and PWM blocks, without configuring anything (also for the panic
    /// handler, whatever state the pins are in).
    fn registers() -> BoardIo {
        // SAFETY: the SIO set/clear registers and the PWM block are only used through
        // `BoardIo`: by the main loop, or by the panic handler once it has stopped.
        let (sio, pwm) = unsafe { (&*pac::SIO::ptr(), &*pac::PWM::ptr()) };
        BoardIo { sio, pwm }
    }

    fn output(&self, gpio: u8) {
        set_function(gpio, FUNC_SIO);
        self.write(gpio, false);
        self.sio
            .gpio_oe_set()
            .write(|w| unsafe { w.bits(1 << gpio) });
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
            self.sio
                .gpio_out_set()
                .write(|w| unsafe { w.bits(1 << gpio) });
        } else {
            self.sio
                .gpio_out_clr()
                .write(|w| unsafe { w.bits(1 << gpio) });
        }
    }

    /// Passes every input's level to the firmware.
    pub fn read_inputs(&self, firmware: &mut Firmware<'static>) {
        let levels = self.sio.gpio_in().read().bits();
        for input in input_pins() {
            firmware.set_input(input, levels & (1 << input) != 0);
        }
    }
}

/// Switches the drivers off and the servo pulses to nothing, from any state the chip is
/// in (the panic handler): a motor without current and a servo without pulses go limp.
pub fn make_safe() {
    let mut io = BoardIo::registers();
    for actuator in 0..PINS.len() as u8 {
        io.set_enable(actuator, false);
        io.set_servo(actuator, 0);
    }
}

/// Every GPIO used as an input (home sensors, e-stop, button).
fn input_pins() -> impl Iterator<Item = u8> {
    let sensors = BOARD
        .actuators
        .iter()
        .filter_map(|actuator| match actuator {
            Actuator::Stepper(stepper) => stepper.home.map(|home| home.input.index),
            Actuator::Servo(_) => None,
        });
    sensors
        .chain(BOARD.estop.map(|i| i.index))
        .chain(BOARD.button.map(|i| i.index))
}

impl Pins for BoardIo {
    fn set_enable(&mut self, _actuator: u8, enabled: bool) {
        if let Some(enable) = ENABLE_PIN {
            self.write(enable, !enabled);
        }
    }

    fn set_dir(&mut self, actuator: u8, high: bool) {
        if let Some(ChannelPins::Stepper { dir, .. }) = PINS.get(usize::from(actuator)) {
            self.write(*dir, high);
        }
    }

    fn step(&mut self, actuator: u8, at_us: u64) {
        // The timer pulses it at its time; a full queue (it holds more than the lead
        // needs) cannot happen, but would pulse it now rather than lose it.
        if !crate::steps::push(actuator, at_us) {
            if let Some(ChannelPins::Stepper { step, .. }) = PINS.get(usize::from(actuator)) {
                self.write(*step, true);
                cortex_m::asm::delay(STEP_PULSE_CYCLES);
                self.write(*step, false);
            }
        }
    }

    fn cancel_steps(&mut self, actuator: u8) -> u32 {
        crate::steps::cancel(actuator)
    }

    fn set_servo(&mut self, actuator: u8, pulse_us: u16) {
        if let Some(ChannelPins::Servo { pwm }) = PINS.get(usize::from(actuator)) {
            let slice = self.pwm.ch(usize::from((pwm / 2) % 8));
            if pwm % 2 == 0 {
                slice.cc().modify(|_, w| unsafe { w.a().bits(pulse_us) });
            } else {
                slice.cc().modify(|_, w| unsafe { w.b().bits(pulse_us) });
            }
        }
    }
}
