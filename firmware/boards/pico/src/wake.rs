//! The main loop's sleep between passes: until the firmware core's next deadline (a creep
//! step, the end of a move, a dwell; see `Firmware::poll`), `WAKE_TICK_US`, or an edge on
//! any input the machine reads (an e-stop or a stall acts at once), whichever comes first.
//! The TIMER's alarm 1 (TIMER_IRQ_1) and IO_IRQ_BANK0 end it; the steps' alarms, which
//! need no pass, do not. SysTick would do for the tick on the chip, but rp2040js does not
//! wake a sleeping core on it.

use core::sync::atomic::{AtomicU32, Ordering};
use rp2040_hal::pac::{self, interrupt};

/// The main loop comes round at least this often (sooner for a deadline, or while bytes
/// move): inputs read, USB served (a full-speed USB frame is 1 ms), and each ramp step
/// handed to the step queue at least half the step lead ahead of its time. A pass takes
/// ~2,300 instructions: the emulated chip (rp2040js runs ~4 M instructions a second here)
/// keeps up with real time at 1 kHz, and fell behind it at 4 kHz.
pub const WAKE_TICK_US: u64 = 1_000;
const _: () = assert!(WAKE_TICK_US * 2 <= cubed_firmware::chips::PICO.step_lead_us as u64);
/// A deadline nearer than this is not slept for: the alarm matches the counter's low 32
/// bits, and a time passed before it is set would wait for the counter to wrap.
const SHORTEST_SLEEP_US: u64 = 10;

/// The bits of a GPIO's rising and falling edges, in its nibble of the INTR and INTE
/// registers (eight GPIOs a register).
const EDGES: u32 = 0b1100;

/// Alarm 1's firings and input edges so far.
static WAKES: AtomicU32 = AtomicU32::new(0);

fn timer() -> &'static pac::timer::RegisterBlock {
    // SAFETY: alarm 1 and its interrupt bits are used only here; `steps.rs` owns alarm 0.
    unsafe { &*pac::TIMER::ptr() }
}

fn io() -> &'static pac::io_bank0::RegisterBlock {
    // SAFETY: core 0's GPIO interrupt enables and the edge bits are used only here.
    unsafe { &*pac::IO_BANK0::ptr() }
}

/// Turns alarm 1's and the GPIO edges' interrupts on. Call once.
pub fn start() {
    timer().inte().modify(|_, w| w.alarm_1().set_bit());
    // SAFETY: the handlers below touch only alarm 1, the edge bits and the count.
    unsafe {
        cortex_m::peripheral::NVIC::unmask(pac::Interrupt::TIMER_IRQ_1);
        cortex_m::peripheral::NVIC::unmask(pac::Interrupt::IO_IRQ_BANK0);
    }
}

/// Wakes the main loop on either edge of each GPIO in `pins` (a bit each), and on no other.
pub fn wake_on_inputs(pins: u32) {
    for register in 0..4 {
        let mut enables = 0u32;
        for slot in 0..8 {
            if pins & (1 << (register * 8 + slot)) != 0 {
                enables |= EDGES << (slot * 4);
            }
        }
        // Edges seen before the pin was an input are old news.
        io().intr(register).write(|w| unsafe { w.bits(0x1111_1111 * EDGES) });
        io().proc0_inte(register).write(|w| unsafe { w.bits(enables) });
    }
}

/// The wake count when a pass began, before it read its inputs: an edge or an alarm after
/// that point ends the sleep that follows the pass.
#[derive(Clone, Copy)]
pub struct PassStart(u32);

/// Marks the start of a pass; call it before the inputs are read. A mark taken at the sleep
/// instead would swallow an edge that came while the pass ran (after the inputs were read),
/// and the loop would sleep through it to the tick: an e-stop seen a millisecond late.
pub fn pass_start() -> PassStart {
    PassStart(WAKES.load(Ordering::Relaxed))
}

/// Sleeps until `deadline` (µs on the timer) or a tick from now, whichever is first, unless
/// an input's edge or the alarm came since `pass`; returns at once for a deadline due within
/// `SHORTEST_SLEEP_US`. Setting the alarm, the check and the `wfi` are one critical
/// section: an alarm firing in between still ends the sleep (a pending interrupt ends `wfi`
/// even while masked), and no other interrupt delays the alarm's setting past its time.
pub fn sleep_until(deadline: Option<u64>, pass: PassStart) {
    let armed = cortex_m::interrupt::free(|_| {
        let now = crate::steps::now_us();
        let wake_at = deadline.map_or(now + WAKE_TICK_US, |d| d.min(now + WAKE_TICK_US));
        if wake_at < now + SHORTEST_SLEEP_US {
            return false;
        }
        timer().alarm1().write(|w| unsafe { w.bits(wake_at as u32) });
        true
    });
    if !armed {
        return;
    }
    while cortex_m::interrupt::free(|_| {
        let asleep = WAKES.load(Ordering::Relaxed) == pass.0;
        if asleep {
            cortex_m::asm::wfi();
        }
        asleep
    }) {}
}

fn count_wake() {
    WAKES.store(WAKES.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
}

#[interrupt]
fn TIMER_IRQ_1() {
    timer().intr().write(|w| w.alarm_1().clear_bit_by_one());
    count_wake();
}

/// An input changed: the main loop reads it now (the edge bits are cleared by writing
/// them back).
#[interrupt]
fn IO_IRQ_BANK0() {
    for register in 0..4 {
        let seen = io().intr(register).read().bits() & (0x1111_1111 * EDGES);
        io().intr(register).write(|w| unsafe { w.bits(seen) });
    }
    count_wake();
}
