//! CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), bitwise.

/// Generator polynomial (x^16 + x^12 + x^5 + 1), MSB-first.
pub const CRC16_POLY: u16 = 0x1021;
/// Initial register value.
pub const CRC16_INIT: u16 = 0xFFFF;
/// CRC-16/CCITT-FALSE of the ASCII bytes `"123456789"`.
pub const CRC16_CHECK: u16 = 0x29B1;

/// Incremental CRC-16/CCITT-FALSE, for data that arrives in pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crc16 {
    register: u16,
}

impl Default for Crc16 {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc16 {
    /// A fresh CRC register.
    pub const fn new() -> Self {
        Crc16 {
            register: CRC16_INIT,
        }
    }

    /// Feeds bytes into the register.
    pub fn update(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.register = update_byte(self.register, byte);
        }
    }

    /// The CRC of everything fed so far.
    pub const fn value(&self) -> u16 {
        self.register
    }
}

/// CRC-16/CCITT-FALSE of `bytes` in one call.
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc = Crc16::new();
    crc.update(bytes);
    crc.value()
}

const fn update_byte(register: u16, byte: u8) -> u16 {
    let mut register = register ^ ((byte as u16) << 8);
    let mut bit = 0;
    while bit < 8 {
        register = if register & 0x8000 != 0 {
            (register << 1) ^ CRC16_POLY
        } else {
            register << 1
        };
        bit += 1;
    }
    register
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_matches_the_catalogue() {
        assert_eq!(crc16(b"123456789"), CRC16_CHECK);
        assert_eq!(CRC16_CHECK, 0x29B1);
    }

    #[test]
    fn empty_input_is_the_initial_value() {
        assert_eq!(crc16(&[]), 0xFFFF);
    }

    #[test]
    fn incremental_equals_one_shot() {
        let mut crc = Crc16::new();
        crc.update(b"1234");
        crc.update(b"");
        crc.update(b"56789");
        assert_eq!(crc.value(), crc16(b"123456789"));
    }

    #[test]
    fn single_bit_flips_change_the_crc() {
        let data = *b"cube robot frame";
        let reference = crc16(&data);
        for index in 0..data.len() {
            for bit in 0..8 {
                let mut flipped = data;
                flipped[index] ^= 1 << bit;
                assert_ne!(crc16(&flipped), reference, "byte {index} bit {bit}");
            }
        }
    }
}
