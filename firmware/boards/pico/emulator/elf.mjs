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

const SHT_SYMTAB = 2;
const STT_FUNC = 2;

/** A Rust symbol's path as the compiler wrote it (`a::<impl b::C>::f`), from its legacy
 * mangling (`_ZN` then length-prefixed parts then `E`), without the hash; other names as
 * they are. */
export function demangle(name) {
  if (!name.startsWith('_ZN')) return name;
  const parts = [];
  let at = 3;
  while (at < name.length && name[at] !== 'E') {
    const digits = /^\d+/.exec(name.slice(at));
    if (!digits) return name;
    at += digits[0].length;
    parts.push(name.slice(at, at + Number(digits[0])));
    at += Number(digits[0]);
  }
  if (parts.length > 1 && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  const escapes = { LT: '<', GT: '>', RF: '&', BP: '*', C: ',', SP: '@', u20: ' ', u27: "'", u5b: '[', u5d: ']', u7b: '{', u7d: '}', u7e: '~' };
  return parts
    .map((part) => part.replace(/^_\$/, '$').replace(/\$([A-Za-z0-9]+)\$/g, (all, code) => escapes[code] ?? all).replaceAll('..', '::'))
    .join('::');
}

/** The address of the one function in the ELF's symbol table whose path ends in `suffix`
 * (`Firmware>::next_deadline`); throws, naming the ELF, when none or several do. */
export function functionAddress(path, suffix) {
  const data = readFileSync(path);
  const shoff = data.readUInt32LE(32);
  const shentsize = data.readUInt16LE(46);
  const shnum = data.readUInt16LE(48);
  const section = (i) => {
    const at = shoff + i * shentsize;
    return { type: data.readUInt32LE(at + 4), offset: data.readUInt32LE(at + 16), size: data.readUInt32LE(at + 20), link: data.readUInt32LE(at + 24) };
  };
  const found = new Map();
  for (let i = 0; i < shnum; i++) {
    const symtab = section(i);
    if (symtab.type !== SHT_SYMTAB) continue;
    const strtab = section(symtab.link);
    for (let at = symtab.offset; at + 16 <= symtab.offset + symtab.size; at += 16) {
      if ((data[at + 12] & 0xf) !== STT_FUNC) continue;
      const nameAt = strtab.offset + data.readUInt32LE(at);
      const name = demangle(data.toString('latin1', nameAt, data.indexOf(0, nameAt)));
      if (name.endsWith(suffix)) found.set(name, data.readUInt32LE(at + 4) & ~1);
    }
  }
  if (found.size !== 1) {
    const which = found.size === 0 ? 'none' : [...found.keys()].join(', ');
    throw new Error(`${path}: one function whose name ends in '${suffix}' was asked for; found ${which}`);
  }
  return [...found.values()][0];
}
