//! Complete distance tables of the pocket cube in the half-turn and the quarter-turn metric (one byte per state, by breadth-first search), and their bytes for the cache: versioned, every table with its length, a CRC-32 over all of it.

use super::coord::{MoveTables, STATES};
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"CUBEDPKT";
/// Bump whenever a table's layout or meaning changes.
pub const POCKET_FORMAT_VERSION: u32 = 1;
/// Distance of a state the search has not reached (never left after a build).
const UNKNOWN: u8 = u8::MAX;
/// Turn indices (into `fixed_turns`) of the quarter turns U U' R R' F F'.
pub(crate) const QUARTER_TURNS: [usize; 6] = [0, 2, 3, 5, 6, 8];
/// Turn indices of all nine turns.
pub(crate) const ALL_TURNS: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// How solution length is counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Metric {
    /// Half-turn metric: every face turn counts 1.
    #[default]
    Htm,
    /// Quarter-turn metric: a half turn counts 2.
    Qtm,
}

impl Metric {
    /// The turns a search in this metric steps by (indices into `fixed_turns`).
    pub fn steps(self) -> &'static [usize] {
        match self {
            Metric::Htm => &ALL_TURNS,
            Metric::Qtm => &QUARTER_TURNS,
        }
    }

    /// Its name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }
}

/// Move tables and, for every state, its distance from solved in both metrics.
pub struct PocketTables {
    pub moves: MoveTables,
    pub htm: Vec<u8>,
    pub qtm: Vec<u8>,
    /// Seconds the distance tables took to build (0 when read from a cache).
    pub build_seconds: f64,
}

impl PocketTables {
    /// Builds everything by breadth-first search from the solved cube.
    pub fn build() -> PocketTables {
        let start = std::time::Instant::now();
        let moves = MoveTables::build();
        let htm = distances(&moves, Metric::Htm);
        let qtm = distances(&moves, Metric::Qtm);
        PocketTables {
            moves,
            htm,
            qtm,
            build_seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// Distances from solved in `metric`, indexed by state.
    pub fn distances(&self, metric: Metric) -> &[u8] {
        match metric {
            Metric::Htm => &self.htm,
            Metric::Qtm => &self.qtm,
        }
    }

    /// How many states lie at each distance (index = distance).
    pub fn distribution(&self, metric: Metric) -> Vec<u64> {
        let mut counts = Vec::new();
        for &d in self.distances(metric) {
            let d = d as usize;
            if counts.len() <= d {
                counts.resize(d + 1, 0);
            }
            counts[d] += 1;
        }
        counts
    }

    /// Writes the distance tables with a header and a CRC-32.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut crc = crc32fast::Hasher::new();
        let mut put = |b: &[u8]| {
            crc.update(b);
            out.write_all(b)
        };
        put(MAGIC)?;
        put(&POCKET_FORMAT_VERSION.to_le_bytes())?;
        for table in [&self.htm, &self.qtm] {
            put(&(table.len() as u64).to_le_bytes())?;
            put(table)?;
        }
        let sum = crc.finalize();
        out.write_all(&sum.to_le_bytes())
    }

    /// Reads what `write_to` wrote, refusing anything stale, short, corrupt or of the wrong size.
    pub fn read_from(input: impl Read) -> Result<PocketTables, PocketTableError> {
        let mut r = Reader {
            input,
            at: 0,
            crc: crc32fast::Hasher::new(),
        };
        if &r.array::<8>()? != MAGIC {
            return Err(PocketTableError::BadMagic);
        }
        let found = u32::from_le_bytes(r.array()?);
        if found != POCKET_FORMAT_VERSION {
            return Err(PocketTableError::StaleVersion { found });
        }
        let htm = r.table("htm")?;
        let qtm = r.table("qtm")?;
        let computed = r.crc.clone().finalize();
        let mut stored = [0u8; 4];
        r.input
            .read_exact(&mut stored)
            .map_err(|_| PocketTableError::Truncated { at: r.at })?;
        let stored = u32::from_le_bytes(stored);
        if stored != computed {
            return Err(PocketTableError::Checksum { stored, computed });
        }
        if r.input.read(&mut [0u8; 1]).map_or(true, |n| n > 0) {
            return Err(PocketTableError::TrailingBytes { at: r.at + 4 });
        }
        Ok(PocketTables {
            moves: MoveTables::build(),
            htm,
            qtm,
            build_seconds: 0.0,
        })
    }
}

/// Why bytes are not usable pocket-cube tables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PocketTableError {
    #[error("not a cubed pocket-cube table file (bad magic)")]
    BadMagic,
    #[error(
        "pocket table format version {found}, this build reads version {POCKET_FORMAT_VERSION}"
    )]
    StaleVersion { found: u32 },
    #[error("checksum mismatch: stored {stored:08x}, computed {computed:08x}")]
    Checksum { stored: u32, computed: u32 },
    #[error("truncated at byte {at}")]
    Truncated { at: usize },
    #[error("unexpected bytes after the checksum, at byte {at}")]
    TrailingBytes { at: usize },
    #[error("table {name} has {found} entries, expected {STATES}")]
    WrongSize { name: &'static str, found: u64 },
}

struct Reader<R: Read> {
    input: R,
    at: usize,
    crc: crc32fast::Hasher,
}

impl<R: Read> Reader<R> {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), PocketTableError> {
        self.input
            .read_exact(buf)
            .map_err(|_| PocketTableError::Truncated { at: self.at })?;
        self.crc.update(buf);
        self.at += buf.len();
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], PocketTableError> {
        let mut buf = [0u8; N];
        self.fill(&mut buf)?;
        Ok(buf)
    }

    fn table(&mut self, name: &'static str) -> Result<Vec<u8>, PocketTableError> {
        let found = u64::from_le_bytes(self.array()?);
        if found != STATES as u64 {
            return Err(PocketTableError::WrongSize { name, found });
        }
        let mut table = vec![0u8; STATES];
        self.fill(&mut table)?;
        Ok(table)
    }
}

/// Breadth-first search from the solved cube (state 0) over the metric's turns.
fn distances(moves: &MoveTables, metric: Metric) -> Vec<u8> {
    let mut dist = vec![UNKNOWN; STATES];
    dist[0] = 0;
    let mut frontier: Vec<u32> = vec![0];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        let mut next = Vec::with_capacity(frontier.len() * 4);
        for &s in &frontier {
            for &m in metric.steps() {
                let n = moves.next(s as usize, m);
                if dist[n] == UNKNOWN {
                    dist[n] = depth + 1;
                    next.push(n as u32);
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    dist
}
