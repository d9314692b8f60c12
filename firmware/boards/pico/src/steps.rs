//! Step pulses timed by the RP2040's timer, as Klipper does on this chip: the firmware
//! core hands each ramp step ahead of its time (`step_lead_us`), this queue keeps them
//! per stepper, and the TIMER_IRQ_0 alarm interrupt pulses each one at its time (every
//! stepper due at that time in one pulse, at least 2 µs high), then sets the alarm to
//! the next absolute time. USB and the protocol run in the main loop, below it.

use core::cell::RefCell;
use cortex_m::interrupt::Mutex;
use cubed_firmware::Actuator;
use firmware_protocol::message::{Machine, MAX_ACTUATORS};
use rp2040_hal::pac::{self, interrupt};

/// Steps one stepper may have waiting: more than the lead holds at top speed.
const SLOTS: usize = 32;
/// Ramp steps are handed to the queue this far ahead of their time (the chip's
/// `step_lead_us`): far more than the main loop's slowest pass.
const LEAD_US: u32 = cubed_firmware::chips::PICO.step_lead_us;
/// The fastest a stepper may step (the chip's `max_step_rate`): its ring must hold every
/// step of the lead at that rate, with two to spare.
const MAX_STEP_RATE: u32 = cubed_firmware::chips::PICO.max_step_rate;
const _: () = assert!(MAX_STEP_RATE as u64 * LEAD_US as u64 / 1_000_000 + 2 <= SLOTS as u64);
/// Step pulse high time, µs (DRV8825-class drivers need 1.9 µs, A4988 1 µs).
const PULSE_US: u64 = 3;
/// The alarm wakes the handler this long before a step, which then waits for the exact
/// time: the USB driver masks interrupts for a few µs at a time (its critical sections),
/// and a step whose alarm fell inside one would come that much late.
const WAKE_EARLY_US: u64 = 12;

/// One stepper's waiting step times (µs on the timer), oldest first.
#[derive(Clone, Copy)]
struct Ring {
    times: [u64; SLOTS],
    head: usize,
    len: usize,
}

impl Ring {
    const EMPTY: Ring = Ring {
        times: [0; SLOTS],
        head: 0,
        len: 0,
    };

    fn front(&self) -> Option<u64> {
        (self.len > 0).then(|| self.times[self.head])
    }

    fn push(&mut self, at: u64) -> bool {
        if self.len == SLOTS {
            return false;
        }
        self.times[(self.head + self.len) % SLOTS] = at;
        self.len += 1;
        true
    }

    fn pop(&mut self) {
        self.head = (self.head + 1) % SLOTS;
        self.len -= 1;
    }
}

/// Every stepper's ring and its STEP pin (as an SIO bit), by actuator index.
struct Queue {
    rings: [Ring; MAX_ACTUATORS],
    step_bits: [u32; MAX_ACTUATORS],
}

static QUEUE: Mutex<RefCell<Queue>> = Mutex::new(RefCell::new(Queue {
    rings: [Ring::EMPTY; MAX_ACTUATORS],
    step_bits: [0; MAX_ACTUATORS],
}));

/// Takes `machine`'s STEP pins and drops every waiting step (the core applies a new
/// machine only with nothing moving).
pub fn rewire(machine: &Machine) {
    let mut bits = [0u32; MAX_ACTUATORS];
    for (slot, actuator) in bits.iter_mut().zip(machine.actuators.iter()) {
        if let Actuator::Stepper(stepper) = actuator {
            *slot = 1 << (stepper.step_pin % 32);
        }
    }
    cortex_m::interrupt::free(|cs| {
        let mut queue = QUEUE.borrow(cs).borrow_mut();
        queue.rings = [Ring::EMPTY; MAX_ACTUATORS];
        queue.step_bits = bits;
    });
}

fn timer() -> &'static pac::timer::RegisterBlock {
    // SAFETY: the TIMER's raw counter, alarm 0 and interrupt registers are used only
    // here (the HAL's `Timer` reads the latched counter, which these do not disturb).
    unsafe { &*pac::TIMER::ptr() }
}

fn sio() -> &'static pac::sio::RegisterBlock {
    // SAFETY: set/clear writes of single bits, as the main loop's pin writes are.
    unsafe { &*pac::SIO::ptr() }
}

/// The timer's 64-bit µs count, read without its latch.
pub fn now_us() -> u64 {
    let timer = timer();
    loop {
        let high = timer.timerawh().read().bits();
        let low = timer.timerawl().read().bits();
        if timer.timerawh().read().bits() == high {
            return (u64::from(high) << 32) | u64::from(low);
        }
    }
}

/// Turns the alarm interrupt on. Call once, before the first step.
pub fn start() {
    timer().inte().modify(|_, w| w.alarm_0().set_bit());
    // SAFETY: the handler below only touches the queue through its mutex.
    unsafe { cortex_m::peripheral::NVIC::unmask(pac::Interrupt::TIMER_IRQ_0) };
}

/// Queues a step of `actuator` at `at_us`; false when its ring is full.
pub fn push(actuator: u8, at_us: u64) -> bool {
    cortex_m::interrupt::free(|cs| {
        let mut queue = QUEUE.borrow(cs).borrow_mut();
        let index = usize::from(actuator);
        if queue.step_bits.get(index).is_none_or(|&bit| bit == 0) {
            return false;
        }
        let Some(ring) = queue.rings.get_mut(index) else {
            return false;
        };
        let was_first = ring.len == 0;
        if !ring.push(at_us) {
            return false;
        }
        if was_first {
            // It may be the earliest of all: let the handler set the alarm afresh.
            timer().intf().write(|w| w.alarm_0().set_bit());
        }
        true
    })
}

/// Drops the waiting steps of `actuator`; returns how many.
pub fn cancel(actuator: u8) -> u32 {
    cortex_m::interrupt::free(|cs| {
        let mut queue = QUEUE.borrow(cs).borrow_mut();
        queue.rings.get_mut(usize::from(actuator)).map_or(0, |ring| {
            let dropped = ring.len as u32;
            *ring = Ring::EMPTY;
            dropped
        })
    })
}

#[interrupt]
fn TIMER_IRQ_0() {
    let timer = timer();
    timer.intf().write(|w| w.alarm_0().clear_bit());
    timer.intr().write(|w| w.alarm_0().clear_bit_by_one());
    cortex_m::interrupt::free(|cs| pulse_due(&mut QUEUE.borrow(cs).borrow_mut()));
}

/// Raises each STEP pin as its step comes due and lowers it `PULSE_US` later (steps of
/// other steppers coming due meanwhile are raised on time), then sets the alarm to the
/// next step.
fn pulse_due(queue: &mut Queue) {
    let mut raised_at = [0u64; MAX_ACTUATORS];
    let mut high = 0u32;
    loop {
        let now = now_us();
        for (i, ring) in queue.rings.iter_mut().enumerate() {
            let bit = queue.step_bits[i];
            // Never early: the timer counts whole µs, so a step goes out in its own µs.
            if high & bit == 0 && ring.front().is_some_and(|at| at <= now) {
                ring.pop();
                sio().gpio_out_set().write(|w| unsafe { w.bits(bit) });
                raised_at[i] = now;
                high |= bit;
            }
        }
        for (i, &bit) in queue.step_bits.iter().enumerate() {
            if high & bit != 0 && now >= raised_at[i] + PULSE_US {
                sio().gpio_out_clr().write(|w| unsafe { w.bits(bit) });
                high &= !bit;
            }
        }
        if high != 0 {
            continue;
        }
        let Some(next) = queue.rings.iter().filter_map(Ring::front).min() else {
            return;
        };
        if next <= now + WAKE_EARLY_US {
            while now_us() < next {}
            continue;
        }
        // The alarm matches the counter's low 32 bits; a time already passed would wait
        // for the counter to wrap, so look again instead.
        let wake = next - WAKE_EARLY_US;
        timer().alarm0().write(|w| unsafe { w.bits(wake as u32) });
        if now_us() < wake {
            return;
        }
    }
}
