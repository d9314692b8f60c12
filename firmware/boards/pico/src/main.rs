//! cubed firmware for the Raspberry Pi Pico: the firmware core behind USB CDC serial in
//! the main loop, its steps pulsed by the timer's alarm interrupt (`steps.rs`), the
//! hardware watchdog on. The robot is described in `board.rs`. Between passes the CPU
//! sleeps until the firmware core's next deadline or the wake tick (`wake.rs`).
#![no_std]
#![no_main]

mod board;
mod io;
mod steps;
mod unique_id;
mod wake;

use core::panic::PanicInfo;
use cubed_firmware::Firmware;
use firmware_protocol::message::ResetCause;
use hal::pac;
use rp2040_hal as hal;
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::{StringDescriptors, UsbDeviceBuilder, UsbVidPid};
use usbd_serial::SerialPort;

/// Second-stage bootloader for the Pico's W25Q080 flash.
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

const XTAL_HZ: u32 = 12_000_000;
/// A main loop that has not come round for this long (a hang) resets the chip. A pass
/// takes tens of µs; enumeration and the flash id read come before the watchdog starts.
const WATCHDOG_MS: u32 = 100;
/// Left in watchdog scratch register 0 by the panic handler before it resets the chip.
const PANIC_MAGIC: u32 = 0x6375_6265; // "cube"

#[hal::entry]
fn main() -> ! {
    let Some(mut pac) = pac::Peripherals::take() else {
        halt()
    };
    let cause = reset_cause(&pac.WATCHDOG);
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    let Ok(clocks) = hal::clocks::init_clocks_and_plls(
        XTAL_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    ) else {
        halt()
    };
    let timer = hal::Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let sio = hal::Sio::new(pac.SIO);
    // Takes IO_BANK0 and PADS_BANK0 out of reset; `io` then drives pins by number.
    let _pins = hal::gpio::Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );
    let _pwm = hal::pwm::Slices::new(pac.PWM, &mut pac.RESETS);
    let mut io = io::BoardIo::new();

    let usb_bus = UsbBusAllocator::new(hal::usb::UsbBus::new(
        pac.USBCTRL_REGS,
        pac.USBCTRL_DPRAM,
        clocks.usb_clock,
        true,
        &mut pac.RESETS,
    ));
    let mut serial = SerialPort::new(&usb_bus);
    let Some(serial_buffer) = cortex_m::singleton!(: [u8; 16] = [0; 16]) else {
        halt()
    };
    let strings = StringDescriptors::default()
        .manufacturer("cubed")
        .product("cubed robot firmware")
        .serial_number(unique_id::serial_number(serial_buffer, &BOOT2));
    // A 64-byte control endpoint sends the configuration descriptor in one packet, as
    // TinyUSB does; every host takes it, and rp2040js's USB host needs it.
    let Ok(builder) = UsbDeviceBuilder::new(&usb_bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[strings])
        .and_then(|builder| builder.max_packet_size_0(64))
    else {
        halt()
    };
    let mut usb = builder.device_class(usbd_serial::USB_CLASS_CDC).build();

    let Some(firmware) = cortex_m::singleton!(: Firmware<'static> =
        Firmware::restarted(&board::CHIP, timer.get_counter().ticks(), cause))
    else {
        halt()
    };
    steps::start();
    wake::start();
    watchdog.start(hal::fugit::MicrosDurationU32::millis(WATCHDOG_MS));
    let mut outbox = Outbox::EMPTY;
    loop {
        watchdog.feed();
        let pass = wake::pass_start();
        let now = timer.get_counter().ticks();
        let mut moved_bytes = false;
        if usb.poll(&mut [&mut serial]) {
            let mut received = [0u8; 64];
            if let Ok(count) = serial.read(&mut received) {
                for &byte in &received[..count] {
                    firmware.on_byte(now, byte);
                }
                moved_bytes = count > 0;
            }
        }
        io.read_inputs(firmware);
        let deadline = firmware.poll(timer.get_counter().ticks(), &mut io);
        // Nothing is written before a host opens the port (it raises DTR): what
        // usbd-serial buffered earlier would be dropped at enumeration, the Boot event
        // with it.
        if serial.dtr() {
            moved_bytes |= outbox.send(firmware, &mut serial);
        }
        // A pass that moved no byte, with no input settling, sleeps until the core's
        // deadline, an input's edge or the wake tick, rather than spinning (steps go on in
        // their interrupt): the emulated chip, which runs every instruction, then keeps up
        // with real time.
        if !moved_bytes && !firmware.inputs_settling() {
            wake::sleep_until(deadline, pass);
        }
    }
}

/// The firmware's bytes on their way to USB, a chunk at a time.
struct Outbox {
    chunk: [u8; 64],
    len: usize,
    sent: usize,
}

impl Outbox {
    const EMPTY: Outbox = Outbox {
        chunk: [0; 64],
        len: 0,
        sent: 0,
    };

    /// Refills the chunk only once it is all sent, then writes what USB takes: bytes are
    /// never dropped here. Whether any byte went.
    fn send<B: usb_device::bus::UsbBus>(
        &mut self,
        firmware: &mut Firmware<'static>,
        serial: &mut SerialPort<'_, B>,
    ) -> bool {
        if self.sent == self.len {
            self.len = 0;
            self.sent = 0;
            while self.len < self.chunk.len() {
                match firmware.pop_tx() {
                    Some(byte) => {
                        self.chunk[self.len] = byte;
                        self.len += 1;
                    }
                    None => break,
                }
            }
        }
        if self.sent < self.len {
            if let Ok(count) = serial.write(&self.chunk[self.sent..self.len]) {
                self.sent += count;
                return count > 0;
            }
        }
        false
    }
}

/// Why the chip started: the watchdog (a hang, or the panic handler's deliberate reset,
/// which it marks in scratch 0), else power-on. Clears the mark.
fn reset_cause(watchdog: &pac::WATCHDOG) -> ResetCause {
    let reason = watchdog.reason().read();
    let panicked = watchdog.scratch0().read().bits() == PANIC_MAGIC;
    watchdog.scratch0().write(|w| unsafe { w.bits(0) });
    if panicked {
        ResetCause::Software
    } else if reason.timer().bit_is_set() || reason.force().bit_is_set() {
        ResetCause::Watchdog
    } else {
        ResetCause::PowerOn
    }
}

fn halt() -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}

/// Drivers off, servos limp, then a reset through the watchdog: the host sees the board
/// come back and its `Event Boot` says it was a software reset.
#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    cortex_m::interrupt::disable();
    io::make_safe();
    // SAFETY: the watchdog's registers, written last thing before the reset.
    let watchdog = unsafe { &*pac::WATCHDOG::ptr() };
    watchdog.scratch0().write(|w| unsafe { w.bits(PANIC_MAGIC) });
    watchdog.ctrl().write(|w| w.trigger().set_bit());
    halt()
}
