//! The UF2 that `firmware/build.sh pico` writes, read back block by block and held
//! against the ELF it came from (both parsed here, apart from the converter): the magic
//! numbers, the RP2040 family id, each block's address in flash, and every loadable byte.

use super::emulator::available;
use std::collections::BTreeMap;

const MAGIC_START0: u32 = 0x0A32_4655;
const MAGIC_START1: u32 = 0x9E5D_5157;
const MAGIC_END: u32 = 0x0AB1_6F30;
const FAMILY_ID_PRESENT: u32 = 0x2000;
const RP2040_FAMILY: u32 = 0xE48B_FF56;
const FLASH: std::ops::Range<u32> = 0x1000_0000..0x1020_0000;

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

fn half(bytes: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes(
        bytes[at..at + 2].try_into().expect("two bytes"),
    ))
}

/// Every byte the ELF loads (PT_LOAD with file bytes), by physical address.
fn elf_image(elf: &[u8]) -> BTreeMap<u32, u8> {
    assert_eq!(&elf[..4], b"\x7fELF");
    let (phoff, phentsize, phnum) = (word(elf, 0x1c) as usize, half(elf, 0x2a), half(elf, 0x2c));
    let mut image = BTreeMap::new();
    for i in 0..phnum {
        let header = &elf[phoff + i * phentsize..];
        let (kind, offset, paddr, filesz) = (
            word(header, 0),
            word(header, 4),
            word(header, 12),
            word(header, 16),
        );
        if kind != 1 {
            continue;
        }
        for k in 0..filesz {
            image.insert(paddr + k, elf[(offset + k) as usize]);
        }
    }
    image
}

#[test]
fn the_uf2_holds_every_byte_of_the_elf_in_flash_for_the_rp2040() {
    let Some(elf_path) = available("the Pico UF2") else {
        return;
    };
    let uf2_path = elf_path.with_extension("uf2");
    let elf = std::fs::read(&elf_path).expect("the ELF");
    let uf2 = std::fs::read(&uf2_path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (firmware/build.sh pico writes it)",
            uf2_path.display()
        )
    });
    assert!(
        !uf2.is_empty() && uf2.len() % 512 == 0,
        "whole 512-byte blocks"
    );
    let blocks = uf2.len() / 512;
    let mut written = BTreeMap::new();
    for (number, block) in uf2.chunks_exact(512).enumerate() {
        assert_eq!(word(block, 0), MAGIC_START0, "block {number}: first magic");
        assert_eq!(word(block, 4), MAGIC_START1, "block {number}: second magic");
        assert_eq!(word(block, 508), MAGIC_END, "block {number}: final magic");
        assert_eq!(
            word(block, 8) & FAMILY_ID_PRESENT,
            FAMILY_ID_PRESENT,
            "block {number}: family flag"
        );
        assert_eq!(
            word(block, 28),
            RP2040_FAMILY,
            "block {number}: RP2040 family id"
        );
        assert_eq!(word(block, 20) as usize, number, "block numbers count up");
        assert_eq!(
            word(block, 24) as usize,
            blocks,
            "block {number}: the block count"
        );
        let (address, size) = (word(block, 12), word(block, 16));
        assert_eq!(size, 256, "block {number}: a 256-byte page");
        assert_eq!(address % 256, 0, "block {number}: page aligned");
        assert!(
            FLASH.contains(&address) && FLASH.contains(&(address + size - 1)),
            "block {number} at {address:#x} is in flash"
        );
        for k in 0..size {
            assert!(
                written
                    .insert(address + k, block[32 + k as usize])
                    .is_none(),
                "{:#x} written twice",
                address + k
            );
        }
    }
    let image = elf_image(&elf);
    assert!(image.len() > 10_000, "the ELF loads its code");
    for (address, byte) in &image {
        assert_eq!(written.get(address), Some(byte), "byte at {address:#x}");
    }
    // Only padding besides: nothing the ELF does not load, beyond zeros within its pages.
    for (address, byte) in &written {
        assert!(
            image.contains_key(address) || *byte == 0,
            "{address:#x} holds {byte} from nowhere"
        );
    }
    // The vector table the boot2 jumps to: SP in RAM, the reset handler in flash.
    assert!((0x2000_0000..0x2004_2001).contains(&u32::from_le_bytes(
        [0, 1, 2, 3].map(|i| written[&(0x1000_0100 + i)])
    )));
}
