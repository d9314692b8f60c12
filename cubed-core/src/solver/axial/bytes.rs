//! The axial tables to and from bytes: a versioned header, the stored tables with their lengths, and a CRC-32 over all of it; what is quick to derive is rebuilt on reading.

use super::tables::{AxialTables, Derived};
use crate::solver::coord::*;
use crate::solver::pruning::Packed2;
use crate::solver::symtables::N_FLIPSLICE_CLASS;
use crate::solver::table_bytes::{check_end, Reader, TableBytesError, Writer};
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"CUBEDAXL";
/// Bump whenever a stored table's layout or meaning changes.
pub const AXIAL_FORMAT_VERSION: u32 = 1;

impl AxialTables {
    /// Writes the stored tables (little-endian) followed by their checksum.
    pub fn write_to(&self, out: impl Write) -> io::Result<()> {
        let mut w = Writer::new(out);
        w.bytes(MAGIC)?;
        w.bytes(&AXIAL_FORMAT_VERSION.to_le_bytes())?;
        w.values(&self.phase1.words)?;
        w.values(&self.slice_twist)?;
        w.values(&self.slice_flip)?;
        w.finish()
    }

    /// Reads tables written by [`AxialTables::write_to`], checking magic, version, sizes and
    /// checksum before anything is derived from them.
    pub fn read_from(src: impl Read) -> Result<AxialTables, TableBytesError> {
        let mut r = Reader::new(src);
        let version = r.header(MAGIC)?;
        if version != AXIAL_FORMAT_VERSION {
            return Err(TableBytesError::StaleAxialVersion { found: version });
        }
        let words = Packed2::words_for(N_FLIPSLICE_CLASS * N_TWIST);
        let phase1 = Packed2 {
            words: r.values("axial phase 1", words)?,
        };
        let slice_twist = r.values("axial slice x twist", N_SLICE * N_TWIST)?;
        let slice_flip = r.values("axial slice x flip", N_SLICE * N_FLIP)?;
        check_end(r)?;
        Ok(AxialTables::assemble(
            Derived::build(),
            phase1,
            (slice_twist, slice_flip),
            0.0,
        ))
    }
}
