//! Little-endian byte cursors used to write and read payloads, with bounds-checked errors.

use crate::Error;

/// Writes little-endian values into a byte buffer.
pub(crate) struct Writer<'a> {
    out: &'a mut [u8],
    len: usize,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(out: &'a mut [u8]) -> Self {
        Writer { out, len: 0 }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let end = self.len + bytes.len();
        let available = self.out.len();
        let target = self
            .out
            .get_mut(self.len..end)
            .ok_or(Error::BufferTooSmall {
                needed: end,
                available,
            })?;
        target.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    pub(crate) fn u8(&mut self, value: u8) -> Result<(), Error> {
        self.bytes(&[value])
    }

    pub(crate) fn u16(&mut self, value: u16) -> Result<(), Error> {
        self.bytes(&value.to_le_bytes())
    }

    pub(crate) fn i16(&mut self, value: i16) -> Result<(), Error> {
        self.bytes(&value.to_le_bytes())
    }

    pub(crate) fn u32(&mut self, value: u32) -> Result<(), Error> {
        self.bytes(&value.to_le_bytes())
    }

    pub(crate) fn i32(&mut self, value: i32) -> Result<(), Error> {
        self.bytes(&value.to_le_bytes())
    }
}

/// Reads little-endian values from a payload whose length the caller has already
/// checked; running past the end still fails cleanly with `BadPayloadLength`.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    message_type: u8,
    expected_len: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, which must be exactly `expected_len` bytes long.
    pub(crate) fn exact(
        data: &'a [u8],
        message_type: u8,
        expected_len: usize,
    ) -> Result<Self, Error> {
        if data.len() != expected_len {
            return Err(Error::BadPayloadLength {
                message_type,
                expected: expected_len,
                found: data.len(),
            });
        }
        Ok(Reader {
            data,
            pos: 0,
            message_type,
            expected_len,
        })
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let end = self.pos + N;
        let slice = self
            .data
            .get(self.pos..end)
            .ok_or(Error::BadPayloadLength {
                message_type: self.message_type,
                expected: self.expected_len.max(end),
                found: self.data.len(),
            })?;
        let mut bytes = [0u8; N];
        bytes.copy_from_slice(slice);
        self.pos = end;
        Ok(bytes)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.array::<1>()?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, Error> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    pub(crate) fn i16(&mut self) -> Result<i16, Error> {
        Ok(i16::from_le_bytes(self.array()?))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub(crate) fn i32(&mut self) -> Result<i32, Error> {
        Ok(i32::from_le_bytes(self.array()?))
    }
}

/// Fails with `BadValue` unless `value` is zero (reserved fields).
pub(crate) fn expect_zero(field: &'static str, value: i64) -> Result<(), Error> {
    if value == 0 {
        Ok(())
    } else {
        Err(Error::BadValue { field, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_little_endian() {
        let mut buf = [0u8; 13];
        let mut w = Writer::new(&mut buf);
        w.u8(0x01).expect("u8");
        w.u16(0x0302).expect("u16");
        w.i16(-2).expect("i16");
        w.u32(0x0706_0504).expect("u32");
        w.i32(-1).expect("i32");
        assert_eq!(w.len(), 13);
        assert_eq!(
            buf,
            [1, 2, 3, 0xFE, 0xFF, 4, 5, 6, 7, 0xFF, 0xFF, 0xFF, 0xFF]
        );
    }

    #[test]
    fn writer_reports_overflow() {
        let mut buf = [0u8; 3];
        let mut w = Writer::new(&mut buf);
        w.u16(1).expect("fits");
        assert_eq!(
            w.u16(2),
            Err(Error::BufferTooSmall {
                needed: 4,
                available: 3
            })
        );
    }

    #[test]
    fn reads_back_what_was_written() {
        let data = [1, 2, 3, 0xFE, 0xFF, 4, 5, 6, 7, 0xFF, 0xFF, 0xFF, 0xFF];
        let mut r = Reader::exact(&data, 0x42, data.len()).expect("length");
        assert_eq!(r.u8(), Ok(1));
        assert_eq!(r.u16(), Ok(0x0302));
        assert_eq!(r.i16(), Ok(-2));
        assert_eq!(r.u32(), Ok(0x0706_0504));
        assert_eq!(r.i32(), Ok(-1));
        assert!(r.u8().is_err());
    }

    #[test]
    fn exact_length_is_enforced() {
        assert_eq!(
            Reader::exact(&[1, 2], 0x07, 4).err(),
            Some(Error::BadPayloadLength {
                message_type: 0x07,
                expected: 4,
                found: 2
            })
        );
    }
}
