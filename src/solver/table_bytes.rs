//! Tables to and from bytes: a versioned header, every table with its length, and a CRC-32 over all of it, so a corrupt or stale cache is detected and never trusted.

use super::memory::huge_vec;
use super::movetables::{MoveTables, UdEdgeMerge};
use super::pruning::{Packed2, Packed4};
use super::symtables::SymClasses;
use super::tables::{Phase1Prune, Phase2Prune, TableMode, Tables};

const MAGIC: &[u8; 8] = b"CUBEDTBL";
/// Bump whenever any table's layout or meaning changes.
pub const FORMAT_VERSION: u32 = 8;

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
    #[error("table {name} has {found} entries, expected {expected}")]
    WrongSize {
        name: &'static str,
        found: usize,
        expected: usize,
    },
    #[error("unknown table mode {0}")]
    UnknownMode(u8),
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8s(&mut self, v: &[u8]) {
        self.0.extend_from_slice(&(v.len() as u64).to_le_bytes());
        self.0.extend_from_slice(v);
    }
    fn u16s(&mut self, v: &[u16]) {
        self.0.extend_from_slice(&(v.len() as u64).to_le_bytes());
        v.iter()
            .for_each(|x| self.0.extend_from_slice(&x.to_le_bytes()));
    }
    fn u32s(&mut self, v: &[u32]) {
        self.0.extend_from_slice(&(v.len() as u64).to_le_bytes());
        v.iter()
            .for_each(|x| self.0.extend_from_slice(&x.to_le_bytes()));
    }
    fn u64s(&mut self, v: &[u64]) {
        self.0.extend_from_slice(&(v.len() as u64).to_le_bytes());
        v.iter()
            .for_each(|x| self.0.extend_from_slice(&x.to_le_bytes()));
    }
    fn classes(&mut self, c: &SymClasses) {
        self.u32s(&c.class_sym);
        self.u32s(&c.rep);
        self.u16s(&c.stabilizer);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], TableBytesError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(TableBytesError::Truncated { at: self.at })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn len(&mut self, name: &'static str, expected: usize) -> Result<usize, TableBytesError> {
        let raw = self.take(8)?;
        let found = u64::from_le_bytes(
            raw.try_into()
                .map_err(|_| TableBytesError::Truncated { at: self.at })?,
        ) as usize;
        if found != expected {
            return Err(TableBytesError::WrongSize {
                name,
                found,
                expected,
            });
        }
        Ok(found)
    }
    fn u8s(&mut self, name: &'static str, n: usize) -> Result<Vec<u8>, TableBytesError> {
        let n = self.len(name, n)?;
        Ok(self.take(n)?.to_vec())
    }
    fn u16s(&mut self, name: &'static str, n: usize) -> Result<Vec<u16>, TableBytesError> {
        let n = self.len(name, n)?;
        Ok(self
            .take(n * 2)?
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
    fn u32s(&mut self, name: &'static str, n: usize) -> Result<Vec<u32>, TableBytesError> {
        let n = self.len(name, n)?;
        let mut v = huge_vec(n);
        let words = self.take(n * 4)?.chunks_exact(4);
        v.extend(words.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        Ok(v)
    }
    fn u64s(&mut self, name: &'static str, n: usize) -> Result<Vec<u64>, TableBytesError> {
        let n = self.len(name, n)?;
        let mut v = huge_vec(n);
        let words = self.take(n * 8)?.chunks_exact(8);
        v.extend(words.map(|c| u64::from_le_bytes(std::array::from_fn(|i| c[i]))));
        Ok(v)
    }
    fn classes(&mut self, like: &SymClasses) -> Result<SymClasses, TableBytesError> {
        Ok(SymClasses {
            class_sym: self.u32s("class_sym", like.class_sym.len())?,
            rep: self.u32s("rep", like.rep.len())?,
            stabilizer: self.u16s("stabilizer", like.stabilizer.len())?,
        })
    }
}

impl Tables {
    /// The tables as bytes (little-endian), checksummed.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(80 << 20));
        w.0.extend_from_slice(MAGIC);
        w.0.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        w.0.push(match self.mode {
            TableMode::Small => 0,
            TableMode::Full => 1,
        });
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
            w.u16s(t);
        }
        w.u8s(&self.cornslice);
        w.u8s(&self.edge_slice);
        w.u8s(&self.slice_twist);
        w.u8s(&self.slice_flip);
        match &self.phase1 {
            Phase1Prune::Small => {}
            Phase1Prune::Full {
                classes,
                twist_conj,
                table,
                ..
            } => {
                w.classes(classes);
                w.u16s(twist_conj);
                w.u64s(&table.words);
            }
        }
        match &self.phase2 {
            Phase2Prune::Small => {}
            Phase2Prune::Full {
                classes,
                ud_conj,
                table,
            } => {
                w.classes(classes);
                w.u16s(ud_conj);
                w.u64s(&table.words);
            }
        }
        let crc = crc32fast::hash(&w.0);
        w.0.extend_from_slice(&crc.to_le_bytes());
        w.0
    }

    /// Reads tables written by `to_bytes`, checking magic, version, sizes and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tables, TableBytesError> {
        if bytes.len() < 17 || &bytes[..8] != MAGIC {
            return Err(TableBytesError::BadMagic);
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        let version = u32::from_le_bytes([body[8], body[9], body[10], body[11]]);
        if version != FORMAT_VERSION {
            return Err(TableBytesError::StaleVersion { found: version });
        }
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(TableBytesError::Checksum { stored, computed });
        }
        let mode = match body[12] {
            0 => TableMode::Small,
            1 => TableMode::Full,
            other => return Err(TableBytesError::UnknownMode(other)),
        };
        read_body(
            &mut Reader {
                bytes: body,
                at: 13,
            },
            mode,
        )
    }
}

fn read_body(r: &mut Reader, mode: TableMode) -> Result<Tables, TableBytesError> {
    use super::coord::*;
    use super::symtables::{N_CORNER_CLASS, N_FLIPSLICE_CLASS};
    let moves = MoveTables {
        twist: r.u16s("twist_move", N_TWIST * 18)?,
        flip: r.u16s("flip_move", N_FLIP * 18)?,
        slice_sorted: r.u16s("slice_sorted_move", N_SLICE_SORTED * 18)?,
        u_edges: r.u16s("u_edges_move", N_SLICE_SORTED * 18)?,
        d_edges: r.u16s("d_edges_move", N_SLICE_SORTED * 18)?,
        corners: r.u16s("corners_move", N_PERM8 * 18)?,
        ud_edges: r.u16s("ud_edges_move", N_PERM8 * 18)?,
    };
    let cornslice = r.u8s("cornslice", N_PERM8 * 24)?;
    let edge_slice = r.u8s("edge_slice", N_PERM8 * 24)?;
    let slice_twist = r.u8s("slice_twist", N_SLICE * N_TWIST)?;
    let slice_flip = r.u8s("slice_flip", N_SLICE * N_FLIP)?;
    let classes_like = |n_raw: usize, n_class: usize| SymClasses {
        class_sym: vec![0; n_raw],
        rep: vec![0; n_class],
        stabilizer: vec![0; n_class],
    };
    let (phase1, phase2) = match mode {
        TableMode::Small => (Phase1Prune::Small, Phase2Prune::Small),
        TableMode::Full => {
            let classes = r.classes(&classes_like(N_SLICE * N_FLIP, N_FLIPSLICE_CLASS))?;
            let twist_conj = r.u16s("twist_conj", N_TWIST * 16)?;
            let words = r.u64s(
                "phase1_prune",
                Packed2::words_for(N_FLIPSLICE_CLASS * N_TWIST),
            )?;
            let p1 = Phase1Prune::full(&moves, &slice_flip, classes, twist_conj, Packed2 { words });
            let classes = r.classes(&classes_like(N_PERM8, N_CORNER_CLASS))?;
            let ud_conj = r.u16s("ud_conj", N_PERM8 * 16)?;
            let words = r.u64s("phase2_prune", Packed4::words_for(N_CORNER_CLASS * N_PERM8))?;
            (
                p1,
                Phase2Prune::Full {
                    classes,
                    ud_conj,
                    table: Packed4 { words },
                },
            )
        }
    };
    Ok(Tables {
        mode,
        slice_moves: super::tables::slice_move_table(&moves),
        moves,
        merge: UdEdgeMerge::build(),
        cornslice,
        edge_slice,
        slice_twist,
        slice_flip,
        phase1,
        phase2,
        build_seconds: 0.0,
    })
}
