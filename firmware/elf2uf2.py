#!/usr/bin/env python3
"""Writes a UF2 file (https://github.com/microsoft/uf2, the RP2040 boot ROM's
drag-and-drop format) from a firmware ELF: every loadable segment's bytes at its load
address, in 256-byte pages, one page per 512-byte block, with the RP2040 family id.

    python3 firmware/elf2uf2.py FIRMWARE.elf FIRMWARE.uf2

Refuses an ELF whose loadable bytes fall outside the RP2040's 2 MiB of flash.
"""
import struct
import sys

UF2_MAGIC_START0 = 0x0A324655
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY_ID = 0x00002000
RP2040_FAMILY_ID = 0xE48BFF56
FLASH_START, FLASH_END = 0x10000000, 0x10000000 + 2 * 1024 * 1024
PAGE = 256
PT_LOAD = 1


def loadable_segments(data, path):
    """(load address, bytes) of each PT_LOAD segment that has file bytes."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        sys.exit(f"{path}: not a 32-bit little-endian ELF")
    phoff, = struct.unpack_from("<I", data, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    segments = []
    for i in range(phnum):
        kind, offset, _vaddr, paddr, filesz = struct.unpack_from("<IIIII", data, phoff + i * phentsize)
        if kind == PT_LOAD and filesz > 0:
            if paddr < FLASH_START or paddr + filesz > FLASH_END:
                sys.exit(f"{path}: a segment loads at 0x{paddr:08x}..0x{paddr + filesz:08x}, outside flash "
                         f"(0x{FLASH_START:08x}..0x{FLASH_END:08x})")
            segments.append((paddr, data[offset:offset + filesz]))
    if not segments:
        sys.exit(f"{path}: no loadable bytes")
    return segments


def pages(segments):
    """Flash pages touched by the segments, 256 bytes each; bytes no segment gives are 0."""
    image = {}
    for address, blob in segments:
        for i, byte in enumerate(blob):
            at = address + i
            page = image.setdefault(at - at % PAGE, bytearray(PAGE))
            page[at % PAGE] = byte
    return sorted(image.items())


def uf2(segments):
    touched = pages(segments)
    blocks = []
    for number, (address, payload) in enumerate(touched):
        header = struct.pack("<IIIIIIII", UF2_MAGIC_START0, UF2_MAGIC_START1, UF2_FLAG_FAMILY_ID,
                             address, PAGE, number, len(touched), RP2040_FAMILY_ID)
        block = header + bytes(payload) + bytes(476 - PAGE) + struct.pack("<I", UF2_MAGIC_END)
        assert len(block) == 512
        blocks.append(block)
    return b"".join(blocks)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: elf2uf2.py FIRMWARE.elf FIRMWARE.uf2")
    elf, out = sys.argv[1], sys.argv[2]
    with open(elf, "rb") as f:
        data = f.read()
    blob = uf2(loadable_segments(data, elf))
    with open(out, "wb") as f:
        f.write(blob)
    print(f"{out}: {len(blob) // 512} blocks, {len(blob)} bytes")


if __name__ == "__main__":
    main()
