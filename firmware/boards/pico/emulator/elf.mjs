// Loads a firmware ELF into the emulated RP2040's flash, as a UF2 copy would: every
// PT_LOAD segment with file bytes goes to its load (physical) address, which must lie
// in the 2 MiB of flash at 0x10000000. No boot2 or boot ROM is run: the CPU starts from
// the vector table that follows boot2 (VTOR, SP and PC from it).

import { readFileSync } from 'node:fs';

export const FLASH_BASE = 0x10000000;
export const VECTOR_TABLE = 0x10000100;
const PT_LOAD = 1;

/** The ELF's loadable segments: [{ address, bytes }] in load-address order. */
export function loadSegments(path) {
  const data = readFileSync(path);
  if (data.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${path}: not an ELF file`);
  if (data[4] !== 1 || data[5] !== 1) throw new Error(`${path}: not a 32-bit little-endian ELF`);
  if (data.readUInt16LE(18) !== 40) throw new Error(`${path}: not an ARM ELF (e_machine ${data.readUInt16LE(18)})`);
  const phoff = data.readUInt32LE(28);
  const phentsize = data.readUInt16LE(42);
  const phnum = data.readUInt16LE(44);
  const segments = [];
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    const type = data.readUInt32LE(at);
    const offset = data.readUInt32LE(at + 4);
    const paddr = data.readUInt32LE(at + 12);
    const filesz = data.readUInt32LE(at + 16);
    if (type === PT_LOAD && filesz > 0) {
      segments.push({ address: paddr, bytes: data.subarray(offset, offset + filesz) });
    }
  }
  return segments.sort((a, b) => a.address - b.address);
}

/** Copies the segments into flash and points the core at the vector table. */
export function bootFromElf(rp2040, path) {
  const segments = loadSegments(path);
  for (const { address, bytes } of segments) {
    const start = address - FLASH_BASE;
    if (start < 0 || start + bytes.length > rp2040.flash.length) {
      throw new Error(`${path}: segment at 0x${address.toString(16)} (${bytes.length} bytes) is not in flash`);
    }
    rp2040.flash.set(bytes, start);
  }
  const vectors = VECTOR_TABLE - FLASH_BASE;
  rp2040.core.VTOR = VECTOR_TABLE;
  rp2040.core.SP = rp2040.flashView.getUint32(vectors, true);
  rp2040.core.PC = rp2040.flashView.getUint32(vectors + 4, true) & ~1;
  return segments;
}
