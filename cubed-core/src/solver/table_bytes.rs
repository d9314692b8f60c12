//! Tables to and from a byte stream: a versioned header, every table with its length, and a CRC-32 over all of it, so a corrupt or stale cache is detected and never trusted. Tables are read straight into their buffers (no copy of the whole file in memory).

use super::memory::huge_zeroed_vec;
use super::movetables::{MoveTables, UdEdgeMerge};
use super::near_masks::{NearMasks, MASK_SLOTS};
use super::pruning::{Packed2, Packed4};
use super::symtables::SymClasses;
use super::tables::{Phase1Prune, Phase2Prune, TableMode, Tables};
use crate::error_chain::error_chain;
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"CUBEDTBL";
/// Bump whenever any table's layout or meaning changes.
pub const FORMAT_VERSION: u32 = 9;

/// Why bytes are not usable tables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableBytesError {
    #[error("not a cubed table file (bad magic)")]
    BadMagic,
    #[error("table format version {found}, this build reads version {FORMAT_VERSION}")]
    StaleVersion { found: u32 },
    #[error("checksum mismatch: stored {stored:08x}, computed {computed:08x}")]
    Checksum { stored: u32, computed: u32 },
    #[error("truncated at byte {at}")]
    Truncated { at: usize },
    #[error("unexpected bytes after the checksum, at byte {at}")]
    TrailingBytes { at: usize },
    #[error("read error at byte {at}: {message}")]
    Io { at: usize, message: String },
    #[error("table {name} has {found} entries, expected {expected}")]
    WrongSize {
        name: &'static str,
        found: usize,
        expected: usize,
    },
    #[error("the turn masks near phase 2 have no empty slot")]
    BadMasks,
    #[error("unknown table mode {0}")]
    UnknownMode(u8),
    #[error(
        "axial table format version {found}, this build reads version {}",
        super::axial::AXIAL_FORMAT_VERSION
    )]
    StaleAxialVersion { found: u32 },
}

/// The integer types tables are made of, stored little-endian.
trait Word: bytemuck::Pod {
    /// Swaps the bytes on a big-endian machine (either way between memory and file).
    fn swap_le(self) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            #[inline(always)]
            fn swap_le(self) -> Self {
                <$t>::from_le(self)
            }
        }
    )*};
}
word!(u8, u16, u32, u64);

/// Writes tables with their lengths, hashing every byte.
pub(crate) struct Writer<W: Write> {
    out: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Writer<W> {
    pub(crate) fn new(out: W) -> Writer<W> {
        Writer {
            out,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// Writes the checksum of everything written.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        let crc = self.crc.finalize();
        self.out.write_all(&crc.to_le_bytes())?;
        self.out.flush()
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.crc.update(b);
        self.out.write_all(b)
    }
    #[allow(private_bounds)]
    pub(crate) fn values<T: Word>(&mut self, v: &[T]) -> io::Result<()> {
        self.bytes(&(v.len() as u64).to_le_bytes())?;
        if cfg!(target_endian = "little") {
            return self.bytes(bytemuck::cast_slice(v));
        }
        for chunk in v.chunks(1 << 16) {
            let le: Vec<T> = chunk.iter().map(|x| x.swap_le()).collect();
            self.bytes(bytemuck::cast_slice(&le))?;
        }
        Ok(())
    }
    fn classes(&mut self, c: &SymClasses) -> io::Result<()> {
        self.values(&c.class_sym)?;
        self.values(&c.rep)?;
        self.values(&c.stabilizer)
    }
}

/// Reads tables with their lengths, hashing every byte and counting where it is.
pub(crate) struct Reader<R: Read> {
    src: R,
    crc: crc32fast::Hasher,
    at: usize,
}

impl<R: Read> Reader<R> {
    pub(crate) fn new(src: R) -> Reader<R> {
        Reader {
            src,
            crc: crc32fast::Hasher::new(),
            at: 0,
        }
    }

    /// The header: `magic`, then the format version (returned); a short or foreign file is
    /// not tables at all.
    pub(crate) fn header(&mut self, magic: &[u8; 8]) -> Result<u32, TableBytesError> {
        let mut header = [0u8; 12];
        self.fill(&mut header).map_err(|e| match e {
            TableBytesError::Truncated { .. } => TableBytesError::BadMagic,
            other => other,
        })?;
        if &header[..8] != magic {
            return Err(TableBytesError::BadMagic);
        }
        Ok(u32::from_le_bytes([
            header[8], header[9], header[10], header[11],
        ]))
    }

    pub(crate) fn fill(&mut self, buf: &mut [u8]) -> Result<(), TableBytesError> {
        self.src.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => TableBytesError::Truncated { at: self.at },
            _ => TableBytesError::Io {
                at: self.at,
                message: error_chain(&e),
            },
        })?;
        self.crc.update(buf);
        self.at += buf.len();
        Ok(())
    }
    fn len(&mut self, name: &'static str, expected: usize) -> Result<usize, TableBytesError> {
        let mut raw = [0u8; 8];
        self.fill(&mut raw)?;
        let found = u64::from_le_bytes(raw);
        if found != expected as u64 {
            return Err(TableBytesError::WrongSize {
                name,
                found: usize::try_from(found).unwrap_or(usize::MAX),
                expected,
            });
        }
        Ok(expected)
    }
    #[allow(private_bounds)]
    pub(crate) fn values<T: Word>(
        &mut self,
        name: &'static str,
        n: usize,
    ) -> Result<Vec<T>, TableBytesError> {
        let n = self.len(name, n)?;
        let mut v: Vec<T> = huge_zeroed_vec(n);
        self.fill(bytemuck::cast_slice_mut(&mut v))?;
        if cfg!(target_endian = "big") {
            v.iter_mut().for_each(|x| *x = x.swap_le());
        }
        Ok(v)
    }
    fn classes(&mut self, like: &SymClasses) -> Result<SymClasses, TableBytesError> {
        Ok(SymClasses {
            class_sym: self.values("class_sym", like.class_sym.len())?,
            rep: self.values("rep", like.rep.len())?,
            stabilizer: self.values("stabilizer", like.stabilizer.len())?,
        })
    }
}

impl Tables {
    /// The tables as bytes (little-endian), checksummed.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(80 << 20);
        self.write_to(&mut bytes)
            .expect("writing to memory does not fail");
        bytes
    }

    /// Writes the tables (little-endian) followed by their checksum.
    pub fn write_to(&self, out: impl Write) -> io::Result<()> {
        let mut w = Writer::new(out);
        w.bytes(MAGIC)?;
        w.bytes(&FORMAT_VERSION.to_le_bytes())?;
        w.bytes(&[match self.mode {
            TableMode::Small => 0,
            TableMode::Full => 1,
        }])?;
        let m = &self.moves;
        for t in [
            &m.twist,
            &m.flip,
            &m.slice_sorted,
            &m.u_edges,
            &m.d_edges,
            &m.corners,
            &m.ud_edges,
        ] {
            w.values(t)?;
        }
        for t in [
            &self.cornslice,
            &self.edge_slice,
            &self.slice_twist,
            &self.slice_flip,
        ] {
            w.values(t)?;
        }
        if let Phase1Prune::Full {
            classes,
            twist_conj,
            table,
            masks,
            ..
        } = &self.phase1
        {
            w.classes(classes)?;
            w.values(twist_conj)?;
            w.values(&table.words)?;
            w.values(masks.slots())?;
        }
        if let Phase2Prune::Full {
            classes,
            ud_conj,
            table,
        } = &self.phase2
        {
            w.classes(classes)?;
            w.values(ud_conj)?;
            w.values(&table.words)?;
        }
        w.finish()
    }

    /// Reads tables written by `to_bytes`, checking magic, version, sizes and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tables, TableBytesError> {
        Tables::read_from(bytes)
    }

    /// Reads tables written by `write_to`, checking magic, version, sizes and
    /// checksum before anything is derived from them.
    pub fn read_from(src: impl Read) -> Result<Tables, TableBytesError> {
        let mut r = Reader::new(src);
        let version = r.header(MAGIC)?;
        if version != FORMAT_VERSION {
            return Err(TableBytesError::StaleVersion { found: version });
        }
        let mut mode = [0u8; 1];
        r.fill(&mut mode)?;
        let mode = match mode[0] {
            0 => TableMode::Small,
            1 => TableMode::Full,
            other => return Err(TableBytesError::UnknownMode(other)),
        };
        let raw = read_raw(&mut r, mode)?;
        check_end(r)?;
        raw.assemble(mode)
    }
}

/// Reads the stored checksum, compares it with the bytes read, and makes sure nothing follows.
pub(crate) fn check_end<R: Read>(mut r: Reader<R>) -> Result<(), TableBytesError> {
    let computed = r.crc.clone().finalize();
    let mut tail = [0u8; 4];
    r.fill(&mut tail)?;
    let stored = u32::from_le_bytes(tail);
    if stored != computed {
        return Err(TableBytesError::Checksum { stored, computed });
    }
    let mut extra = [0u8; 1];
    match r.src.read(&mut extra) {
        Ok(0) => Ok(()),
        Ok(_) => Err(TableBytesError::TrailingBytes { at: r.at }),
        Err(e) => Err(TableBytesError::Io {
            at: r.at,
            message: error_chain(&e),
        }),
    }
}

/// The stored tables, read but not yet checked against the checksum.
struct RawTables {
    moves: MoveTables,
    cornslice: Vec<u8>,
    edge_slice: Vec<u8>,
    slice_twist: Vec<u8>,
    slice_flip: Vec<u8>,
    full: Option<RawFull>,
}

/// The stored symmetry-reduced tables of the full mode.
struct RawFull {
    classes1: SymClasses,
    twist_conj: Vec<u16>,
    phase1: Vec<u64>,
    masks: Vec<u64>,
    classes2: SymClasses,
    ud_conj: Vec<u16>,
    phase2: Vec<u64>,
}

fn read_raw<R: Read>(r: &mut Reader<R>, mode: TableMode) -> Result<RawTables, TableBytesError> {
    use super::coord::*;
    use super::symtables::{N_CORNER_CLASS, N_FLIPSLICE_CLASS};
    let moves = MoveTables {
        twist: r.values("twist_move", N_TWIST * 18)?,
        flip: r.values("flip_move", N_FLIP * 18)?,
        slice_sorted: r.values("slice_sorted_move", N_SLICE_SORTED * 18)?,
        u_edges: r.values("u_edges_move", N_SLICE_SORTED * 18)?,
        d_edges: r.values("d_edges_move", N_SLICE_SORTED * 18)?,
        corners: r.values("corners_move", N_PERM8 * 18)?,
        ud_edges: r.values("ud_edges_move", N_PERM8 * 18)?,
    };
    let cornslice = r.values("cornslice", N_PERM8 * 24)?;
    let edge_slice = r.values("edge_slice", N_PERM8 * 24)?;
    let slice_twist = r.values("slice_twist", N_SLICE * N_TWIST)?;
    let slice_flip = r.values("slice_flip", N_SLICE * N_FLIP)?;
    let classes_like = |n_raw: usize, n_class: usize| SymClasses {
        class_sym: vec![0; n_raw],
        rep: vec![0; n_class],
        stabilizer: vec![0; n_class],
    };
    let full = match mode {
        TableMode::Small => None,
        TableMode::Full => Some(RawFull {
            classes1: r.classes(&classes_like(N_SLICE * N_FLIP, N_FLIPSLICE_CLASS))?,
            twist_conj: r.values("twist_conj", N_TWIST * 16)?,
            phase1: r.values(
                "phase1_prune",
                Packed2::words_for(N_FLIPSLICE_CLASS * N_TWIST),
            )?,
            masks: r.values("near_masks", MASK_SLOTS)?,
            classes2: r.classes(&classes_like(N_PERM8, N_CORNER_CLASS))?,
            ud_conj: r.values("ud_conj", N_PERM8 * 16)?,
            phase2: r.values("phase2_prune", Packed4::words_for(N_CORNER_CLASS * N_PERM8))?,
        }),
    };
    Ok(RawTables {
        moves,
        cornslice,
        edge_slice,
        slice_twist,
        slice_flip,
        full,
    })
}

impl RawTables {
    /// The tables with everything derived from the stored ones.
    fn assemble(self, mode: TableMode) -> Result<Tables, TableBytesError> {
        let moves = self.moves;
        let (phase1, phase2) = match self.full {
            None => (Phase1Prune::Small, Phase2Prune::Small),
            Some(f) => {
                let masks = NearMasks::from_slots(f.masks).ok_or(TableBytesError::BadMasks)?;
                let p1 = Phase1Prune::full(
                    &moves,
                    &self.slice_flip,
                    f.classes1,
                    f.twist_conj,
                    Packed2 { words: f.phase1 },
                    masks,
                );
                let p2 = Phase2Prune::Full {
                    classes: f.classes2,
                    ud_conj: f.ud_conj,
                    table: Packed4 { words: f.phase2 },
                };
                (p1, p2)
            }
        };
        Ok(Tables {
            mode,
            slice_moves: super::tables::slice_move_table(&moves),
            moves,
            merge: UdEdgeMerge::build(),
            cornslice: self.cornslice,
            edge_slice: self.edge_slice,
            slice_twist: self.slice_twist,
            slice_flip: self.slice_flip,
            phase1,
            phase2,
            build_seconds: 0.0,
        })
    }
}
