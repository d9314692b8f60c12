//! cubed firmware on QEMU's `lm3s6965evb`: the firmware core fed by UART0 (on the
//! host's `-serial pty`) and a SysTick clock; the motors and hall sensors are
//! simulated here because QEMU has none.
#![no_std]
#![no_main]

mod clock;
mod motors;
mod uart;

use core::panic::PanicInfo;
use cortex_m_rt::entry;
use cubed_firmware::examples::FOUR_ARM;
use cubed_firmware::{BoardConfig, Firmware};

/// The shipped four-arm robot (config/robots/four-arm.toml): jaw servo + rotation
/// stepper per gripper, hall sensors on inputs 0..=3.
static BOARD: BoardConfig = FOUR_ARM;

const _: () = match BOARD.check() {
    Ok(()) => {}
    Err(error) => panic!("{}", error.key),
};

#[entry]
fn main() -> ! {
    let Some(core) = cortex_m::Peripherals::take() else {
        halt()
    };
    let mut syst = core.SYST;
    let mut nvic = core.NVIC;
    clock::start(&mut syst);
    uart::start(&mut nvic);
    let mut motors = motors::SimMotors::new(&BOARD);
    let Some(firmware) =
        cortex_m::singleton!(: Firmware<'static> = Firmware::new(&BOARD, clock::now_us()))
    else {
        halt()
    };
    motors.report_sensors(firmware);
    loop {
        let now = clock::now_us();
        while let Some(byte) = uart::read() {
            firmware.on_byte(now, byte);
        }
        let next = firmware.poll(now, &mut motors);
        motors.report_sensors(firmware);
        while let Some(byte) = firmware.pop_tx() {
            uart::write(byte);
        }
        // Sleep until the next interrupt (a byte, or the tick) unless something is due
        // sooner: then keep polling, so steps come on time.
        if next.is_none_or(|deadline| deadline > clock::now_us() + clock::TICK_US)
            && !uart::has_input()
        {
            cortex_m::asm::wfi();
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
