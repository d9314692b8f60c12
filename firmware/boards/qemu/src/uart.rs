//! UART0 (a PL011 at 0x4000_C000): received bytes are moved into a ring buffer by the
//! RX interrupt (IRQ 5); bytes are sent by polling the TX FIFO. QEMU ignores baud rates.

use core::cell::RefCell;
use cortex_m::interrupt::{free, Mutex};
use cortex_m::peripheral::NVIC;
use lm3s6965::{interrupt, Interrupt};

const BASE: usize = 0x4000_C000;
const DR: usize = BASE;
const FR: usize = BASE + 0x18;
const LCRH: usize = BASE + 0x2C;
const CTL: usize = BASE + 0x30;
const IM: usize = BASE + 0x38;
const ICR: usize = BASE + 0x44;

const FR_RXFE: u32 = 1 << 4;
const FR_TXFF: u32 = 1 << 5;
/// UARTEN, TXE, RXE.
const CTL_ENABLE: u32 = (1 << 0) | (1 << 8) | (1 << 9);
/// 8 data bits, FIFOs on.
const LCRH_8N1_FIFO: u32 = (0b11 << 5) | (1 << 4);
/// RX and RX-timeout interrupts.
const IM_RX: u32 = (1 << 4) | (1 << 6);

const RX_CAPACITY: usize = 512;

struct RxRing {
    bytes: [u8; RX_CAPACITY],
    head: usize,
    len: usize,
}

static RX: Mutex<RefCell<RxRing>> = Mutex::new(RefCell::new(RxRing {
    bytes: [0; RX_CAPACITY],
    head: 0,
    len: 0,
}));

fn read_reg(address: usize) -> u32 {
    // SAFETY: a PL011 register of this MCU, read as a 32-bit word.
    unsafe { core::ptr::read_volatile(address as *const u32) }
}

fn write_reg(address: usize, value: u32) {
    // SAFETY: a PL011 register of this MCU, written as a 32-bit word.
    unsafe { core::ptr::write_volatile(address as *mut u32, value) }
}

/// Enables UART0 and its RX interrupt.
pub fn start(_nvic: &mut NVIC) {
    write_reg(CTL, 0);
    write_reg(LCRH, LCRH_8N1_FIFO);
    write_reg(IM, IM_RX);
    write_reg(CTL, CTL_ENABLE);
    // SAFETY: the handler below only touches the RX ring inside a critical section.
    unsafe { NVIC::unmask(Interrupt::UART0) };
}

/// The next received byte.
pub fn read() -> Option<u8> {
    free(|cs| {
        let mut ring = RX.borrow(cs).borrow_mut();
        if ring.len == 0 {
            return None;
        }
        let byte = ring.bytes[ring.head];
        ring.head = (ring.head + 1) % RX_CAPACITY;
        ring.len -= 1;
        Some(byte)
    })
}

/// Whether a received byte is waiting.
pub fn has_input() -> bool {
    free(|cs| RX.borrow(cs).borrow().len > 0)
}

/// Sends one byte (waits while the TX FIFO is full).
pub fn write(byte: u8) {
    while read_reg(FR) & FR_TXFF != 0 {}
    write_reg(DR, u32::from(byte));
}

#[interrupt]
fn UART0() {
    free(|cs| {
        let mut ring = RX.borrow(cs).borrow_mut();
        while read_reg(FR) & FR_RXFE == 0 {
            let byte = (read_reg(DR) & 0xFF) as u8;
            if ring.len < RX_CAPACITY {
                let tail = (ring.head + ring.len) % RX_CAPACITY;
                ring.bytes[tail] = byte;
                ring.len += 1;
            }
            // A full ring drops the byte; the protocol's CRC and retransmission recover.
        }
    });
    write_reg(ICR, IM_RX);
}
