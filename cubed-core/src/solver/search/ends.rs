//! The ends of phase 1, checked in batches: the precomputed endings of many nodes are queued, then walked a turn at a time for all of them together (their move-table reads overlap instead of waiting one after another), their corner-slice entries fetched together, and phase 2 started from those that may finish in time.

use super::{Search, MAX_PHASE1};
use crate::solver::endings::ENDING_DEPTH;
use crate::solver::memory::prefetch;
use crate::solver::phase1::NodeEndings;
use crate::solver::turn_order::may_follow;

/// Ends queued before they are checked (measured: 16 and 256 are a few per cent slower).
const QUEUE: usize = 64;

/// An end of phase 1 waiting to be checked.
#[derive(Clone, Copy)]
struct QueuedEnd {
    /// Its last turns, real.
    turns: [u8; ENDING_DEPTH],
    /// Corners and slice before those turns; after them once walked.
    corners: u16,
    slice: u16,
    /// Which of the queue's prefixes comes before the turns.
    prefix: u16,
}

/// Ends of phase 1 of one search depth and direction, waiting to be checked.
pub(super) struct EndQueue {
    ends: Vec<QueuedEnd>,
    /// The first turns of the path of each node whose ends are queued.
    prefixes: Vec<[u8; MAX_PHASE1]>,
    /// Turns of each queued end.
    togo: usize,
}

impl EndQueue {
    pub(super) fn new() -> EndQueue {
        EndQueue {
            ends: Vec::with_capacity(2 * QUEUE),
            prefixes: Vec::with_capacity(QUEUE),
            togo: 0,
        }
    }
}

impl Search<'_, '_> {
    /// Queues a node's ends of phase 1 (its precomputed endings, `togo`
    /// turns each after turn `n`) and checks the queue once it is full.
    pub(super) fn enqueue(
        &mut self,
        ends: NodeEndings<'_>,
        corners: u16,
        slice: u16,
        togo: usize,
        n: usize,
    ) {
        let last = n.checked_sub(1).map(|i| self.path[i]);
        let prefix = self.queue.prefixes.len() as u16;
        let before = self.queue.ends.len();
        for ending in ends.paths {
            let first = ends.to_real[ending.turns[0] as usize];
            if ending.frames & 1 << ends.sym == 0 || !may_follow(last, first) {
                continue;
            }
            let mut turns = [0u8; ENDING_DEPTH];
            for (real, &k) in turns.iter_mut().zip(&ending.turns[..togo]) {
                *real = ends.to_real[k as usize];
            }
            (self.queue.ends).push(QueuedEnd {
                turns,
                corners,
                slice,
                prefix,
            });
        }
        if self.queue.ends.len() > before {
            let mut path = [0u8; MAX_PHASE1];
            path[..n].copy_from_slice(&self.path[..n]);
            self.queue.prefixes.push(path);
            self.queue.togo = togo;
        }
        if self.queue.ends.len() >= QUEUE {
            self.flush();
        }
    }

    /// Checks every queued end and empties the queue; the path is left as it was.
    pub(super) fn flush(&mut self) {
        let togo = self.queue.togo;
        let mut ends = std::mem::take(&mut self.queue.ends);
        if !ends.is_empty() {
            let saved = self.path;
            self.walk(&mut ends, togo);
            self.check(&ends, togo);
            self.set_prefix(&saved[..self.len1]);
        }
        ends.clear();
        self.queue.ends = ends;
        self.queue.prefixes.clear();
    }

    /// Brings corners and slice to the end of each queued path, a turn at a
    /// time for all of them, and asks memory for their corner-slice entries.
    fn walk(&self, ends: &mut [QueuedEnd], togo: usize) {
        let m = &self.t.moves;
        for j in 0..togo {
            for e in ends.iter_mut() {
                let mv = e.turns[j] as usize;
                e.corners = m.corners[e.corners as usize * 18 + mv];
                e.slice = m.slice_sorted[e.slice as usize * 18 + mv];
            }
        }
        for e in ends.iter() {
            prefetch(
                &self.t.cornslice,
                e.corners as usize * 24 + e.slice as usize,
            );
        }
    }

    /// Starts phase 2 from each walked end whose corner-slice bound allows it.
    fn check(&mut self, ends: &[QueuedEnd], togo: usize) {
        let n = self.len1 - togo;
        for e in ends {
            self.tick();
            let Some(limit) = self.phase2_limit() else {
                return;
            };
            if self.stop {
                return;
            }
            if self.t.cornslice[e.corners as usize * 24 + e.slice as usize] as usize > limit {
                continue;
            }
            let Some(prefix) = self.queue.prefixes.get(e.prefix as usize).copied() else {
                continue;
            };
            self.set_prefix(&prefix[..n]);
            for (j, &mv) in e.turns[..togo].iter().enumerate() {
                self.set_turn(n + j, mv);
            }
            self.start_phase2(e.corners, e.slice, Some(e.turns[togo - 1]));
        }
    }

    /// Sets the first turns of the path (the coordinates after them stay valid as far as they agree).
    fn set_prefix(&mut self, prefix: &[u8]) {
        let same = (self.path.iter().zip(prefix))
            .take_while(|(a, b)| a == b)
            .count();
        self.valid_ud = self.valid_ud.min(same);
        self.path[..prefix.len()].copy_from_slice(prefix);
    }
}
