//! The board's USB serial number: the flash chip's 64-bit unique id (command 4Bh), read
//! through the boot ROM's flash helpers as the Pico SDK does, so that two robots get two
//! `/dev/serial/by-id/` paths. Without a boot ROM (an emulator) the id cannot be read:
//! the serial number then says so instead of crashing.

use rp2040_hal::rom_data;

/// The serial number when the boot ROM is missing (rp2040js ships none).
pub const NO_ROM: &str = "NO-BOOT-ROM";

/// The boot ROM's magic at 0x10: 'M', 'u', 0x01.
const ROM_MAGIC_ADDR: *const u32 = 0x0000_0010 as _;
const ROM_MAGIC: u32 = 0x0001_754d;

/// QSPI chip select override (IO_QSPI GPIO_QSPI_SS_CTRL): bits 9:8 OUTOVER.
const QSPI_SS_CTRL: *mut u32 = 0x4001_800c as _;
const OUTOVER_LOW: u32 = 2 << 8;
const OUTOVER_HIGH: u32 = 3 << 8;
const OUTOVER_MASK: u32 = 3 << 8;
/// The XIP SSI's status and data registers.
const SSI_SR: *const u32 = 0x1800_0028 as _;
const SSI_DR0: *mut u32 = 0x1800_0060 as _;
const SR_TFNF: u32 = 1 << 1;
const SR_RFNE: u32 = 1 << 3;

/// Command 4Bh, four dummy bytes, then the eight id bytes.
const ID_COMMAND_LEN: usize = 13;

/// The ROM helpers, looked up before flash goes dark (the lookup runs from flash).
struct RomFlash {
    connect: unsafe extern "C" fn(),
    exit_xip: unsafe extern "C" fn(),
    flush_cache: unsafe extern "C" fn(),
}

/// Writes the serial number into `out` (16 hex digits, or [`NO_ROM`]) and returns it.
pub fn serial_number<'a>(out: &'a mut [u8; 16], boot2: &[u8; 256]) -> &'a str {
    // SAFETY: reading the first words of the ROM is always allowed (zeros in an emulator).
    if unsafe { core::ptr::read_volatile(ROM_MAGIC_ADDR) } & 0x00ff_ffff != ROM_MAGIC {
        return NO_ROM;
    }
    let rom = RomFlash {
        connect: rom_data::connect_internal_flash::ptr(),
        exit_xip: rom_data::flash_exit_xip::ptr(),
        flush_cache: rom_data::flash_flush_cache::ptr(),
    };
    // The second stage bootloader, run from RAM, puts fast XIP back afterwards.
    let mut boot2_ram = [0u32; 64];
    for (word, bytes) in boot2_ram.iter_mut().zip(boot2.chunks_exact(4)) {
        *word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    let mut id = [0u8; ID_COMMAND_LEN];
    cortex_m::interrupt::free(|_| {
        // SAFETY: interrupts are off and nothing below touches flash until XIP is back.
        unsafe { read_id_from_ram(&rom, boot2_ram.as_ptr(), &mut id) }
    });
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for (i, byte) in id[5..].iter().enumerate() {
        out[2 * i] = HEX[usize::from(byte >> 4)];
        out[2 * i + 1] = HEX[usize::from(byte & 15)];
    }
    core::str::from_utf8(out).unwrap_or(NO_ROM)
}

/// Runs from RAM (flash is not readable while the id command runs): leaves XIP, sends 4Bh
/// with chip select forced low, then restores XIP through a RAM copy of boot2.
#[inline(never)]
#[link_section = ".data.ram_func"]
unsafe fn read_id_from_ram(rom: &RomFlash, boot2: *const u32, id: &mut [u8; ID_COMMAND_LEN]) {
    (rom.connect)();
    (rom.exit_xip)();
    let ss = core::ptr::read_volatile(QSPI_SS_CTRL) & !OUTOVER_MASK;
    core::ptr::write_volatile(QSPI_SS_CTRL, ss | OUTOVER_LOW);
    let (mut sent, mut received) = (0usize, 0usize);
    while received < ID_COMMAND_LEN {
        let status = core::ptr::read_volatile(SSI_SR);
        // At most 14 bytes in flight: the SSI's FIFOs are 16 deep.
        if status & SR_TFNF != 0 && sent < ID_COMMAND_LEN && sent - received < 14 {
            // No array here: a memset would run from flash.
            core::ptr::write_volatile(SSI_DR0, if sent == 0 { 0x4b } else { 0 });
            sent += 1;
        }
        if status & SR_RFNE != 0 {
            id[received] = core::ptr::read_volatile(SSI_DR0) as u8;
            received += 1;
        }
    }
    core::ptr::write_volatile(QSPI_SS_CTRL, ss | OUTOVER_HIGH);
    (rom.flush_cache)();
    // boot2 returns to its caller when entered with a return address (thumb bit set).
    let enter: unsafe extern "C" fn() = core::mem::transmute(boot2 as usize | 1);
    enter();
}
