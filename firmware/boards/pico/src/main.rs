//! cubed firmware for the Raspberry Pi Pico: the firmware core behind USB CDC serial,
//! timed by the RP2040's 1 MHz hardware timer. The robot is described in `board.rs`.
#![no_std]
#![no_main]

mod board;
mod io;
mod unique_id;

use core::panic::PanicInfo;
use cubed_firmware::{BoardConfig, Firmware};
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

static BOARD: BoardConfig = board::BOARD;

#[hal::entry]
fn main() -> ! {
    let Some(mut pac) = pac::Peripherals::take() else {
        halt()
    };
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
        Firmware::new(&BOARD, timer.get_counter().ticks()))
    else {
        halt()
    };
    let mut pending = [0u8; 64];
    let (mut pending_len, mut pending_sent) = (0usize, 0usize);
    loop {
        let now = timer.get_counter().ticks();
        if usb.poll(&mut [&mut serial]) {
            let mut received = [0u8; 64];
            if let Ok(count) = serial.read(&mut received) {
                for &byte in &received[..count] {
                    firmware.on_byte(now, byte);
                }
            }
        }
        io.read_inputs(firmware);
        firmware.poll(timer.get_counter().ticks(), &mut io);
        // Refill the USB chunk only once it is all sent: bytes are never dropped here.
        if pending_sent == pending_len {
            pending_len = 0;
            pending_sent = 0;
            while pending_len < pending.len() {
                match firmware.pop_tx() {
                    Some(byte) => {
                        pending[pending_len] = byte;
                        pending_len += 1;
                    }
                    None => break,
                }
            }
        }
        if pending_sent < pending_len {
            if let Ok(count) = serial.write(&pending[pending_sent..pending_len]) {
                pending_sent += count;
            }
        }
    }
}

fn halt() -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    cortex_m::interrupt::disable();
    halt()
}
