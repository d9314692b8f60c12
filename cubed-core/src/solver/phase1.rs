//! Phase-1 nodes as the search carries them, and their children: by flip-slice symmetry class (full tables) or by raw coordinates (small tables).

use super::class_move::{ClassRow, MaskRemap, ALL_TURNS};
use super::coord::{N_FLIP, N_TWIST};
use super::endings::{EndPath, Endings, ENDING_DEPTH};
use super::memory::prefetch;
use super::movetables::PHASE2_MASK;
use super::near_masks::{NearMasks, MASK_DEPTH};
use super::pruning::{next_depth, Packed2};
use super::symmetry::{Symmetries, N_SYM_D4H};
use super::symtables::SymClasses;
use super::tables::{Phase1Prune, Tables};
use super::turn_order::{followers, moves_in};

/// A cube in phase 2 that leaves it and comes back within this many turns
/// used phase-2 turns only (checked by a test): such a path ends in a
/// phase-2 turn, which the search never lets a phase-1 solution end with.
pub(crate) const NO_SHORT_RETURN: usize = 4;

/// `Pending::index` of a candidate whose distance is already known (no table entry to read).
const KNOWN: u32 = u32::MAX;

/// A child of a phase-1 node: the turn that leads to it, and the node.
#[derive(Clone, Copy, Default)]
pub(crate) struct Child<N> {
    pub mv: u8,
    pub node: N,
}

/// A node's candidate children between `Phase1::expand` and `Phase1::settle`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Pending<N> {
    pub kids: [Child<N>; 18],
    index: [u32; 18],
    count: usize,
}

/// How the search sees phase 1: nodes with their distance to phase 2, and their children.
pub(crate) trait Phase1 {
    type Node: Copy + Default;
    /// The node of a cube with these coordinates.
    fn root(&self, flip: u16, slice_sorted: u16, twist: u16) -> Self::Node;
    /// The node's distance to phase 2 (exact, or a lower bound on the small tables).
    fn dist(node: &Self::Node) -> u8;
    /// First half of finding a node's children: writes the candidates after
    /// turns in `allowed` that may reach phase 2 in `togo - 1` more turns
    /// (`togo >= 2`) and asks memory for what deciding them needs.
    fn expand(&self, node: &Self::Node, allowed: u32, togo: usize, out: &mut Pending<Self::Node>);
    /// Second half: keeps the candidates that may reach phase 2 in `togo - 1`
    /// more turns at the front of `pending.kids`, with their distances; returns how many.
    fn settle(&self, node: &Self::Node, togo: usize, pending: &mut Pending<Self::Node>) -> usize;
    /// The turns in `allowed` that take the node into phase 2, as a bit mask.
    fn entries(&self, node: &Self::Node, allowed: u32) -> u32;
    /// Nodes at most this many turns from the end of phase 1 are finished by `endings`, not searched (0: none).
    fn ending_depth(&self) -> usize;
    /// The paths of exactly `togo` turns into phase 2 from the node
    /// (`1 <= togo <= ending_depth()`), and the symmetry to read them in.
    fn endings(&self, node: &Self::Node, togo: usize) -> NodeEndings<'_>;
}

/// A node's precomputed ends of phase 1: the paths, in the frame that
/// `sym` maps the node to, and that symmetry's map back to real turns.
pub(crate) struct NodeEndings<'a> {
    pub paths: &'a [EndPath],
    pub sym: u8,
    pub to_real: &'a [u8; 18],
}

/// A full-table node: flip-slice class and the symmetry that maps the cube
/// onto its representative, twist, and the exact distance.
#[derive(Clone, Copy, Default)]
pub(crate) struct SymNode {
    twist: u16,
    class: u16,
    sym: u8,
    dist: u8,
}

/// Phase 1 on the full tables: the flip-slice class is carried from node to
/// node by a move table on classes, so a child's table entry needs no
/// raw-to-class look-up.
pub(crate) struct SymPhase1<'a> {
    twist_move: &'a [u16],
    classes: &'a SymClasses,
    class_move: &'a [ClassRow],
    twist_conj: &'a [u16],
    table: &'a Packed2,
    conj_move: [[u8; 18]; N_SYM_D4H],
    /// `product[s][t]`: the symmetry of a child whose row says `t`, under a parent seen by `s`.
    product: [[u8; N_SYM_D4H]; N_SYM_D4H],
    remap: &'static MaskRemap,
    endings: &'a Endings,
    masks: &'a NearMasks,
}

impl<'a> SymPhase1<'a> {
    /// None unless `t` holds the full tables.
    pub(crate) fn new(t: &'a Tables) -> Option<SymPhase1<'a>> {
        let Phase1Prune::Full {
            classes,
            twist_conj,
            table,
            class_move,
            endings,
            masks,
        } = &t.phase1
        else {
            return None;
        };
        let syms = Symmetries::get();
        Some(SymPhase1 {
            twist_move: &t.moves.twist,
            classes,
            class_move,
            twist_conj,
            table,
            conj_move: std::array::from_fn(|s| syms.conj_move[s]),
            product: {
                let p = syms.d4h_products();
                std::array::from_fn(|s| std::array::from_fn(|t| p[t][s]))
            },
            remap: MaskRemap::get(),
            endings,
            masks,
        })
    }

    /// Table position of the cube with class `class`, symmetry `sym` and twist `twist`.
    #[inline(always)]
    fn index(&self, class: u16, sym: u8, twist: u16) -> u32 {
        let t = self.twist_conj[twist as usize * N_SYM_D4H + sym as usize];
        class as u32 * N_TWIST as u32 + t as u32
    }
}

impl Phase1 for SymPhase1<'_> {
    type Node = SymNode;

    fn root(&self, flip: u16, slice_sorted: u16, twist: u16) -> SymNode {
        let raw = slice_sorted as usize / 24 * N_FLIP + flip as usize;
        let (class, sym) = self.classes.class_and_sym(raw);
        let mut node = SymNode {
            twist,
            class: class as u16,
            sym: sym as u8,
            dist: 0,
        };
        node.dist = self.descend(node);
        node
    }

    #[inline(always)]
    fn dist(node: &SymNode) -> u8 {
        node.dist
    }

    #[inline(always)]
    fn expand(&self, node: &SymNode, allowed: u32, togo: usize, out: &mut Pending<SymNode>) {
        let twists = &self.twist_move[node.twist as usize * 18..][..18];
        let row = &self.class_move[node.class as usize];
        let conj = &self.conj_move[node.sym as usize];
        let product = &self.product[node.sym as usize];
        let known = self.known_turns(node);
        let near = allowed
            & match known {
                // The child distances are known: exactly the children that may still arrive in time.
                Some((lower, keep)) => match togo - node.dist as usize {
                    0 => lower,
                    1 => lower | keep,
                    _ => ALL_TURNS,
                },
                None => self.remap.to_real(node.sym, row.closer_than(togo)),
            };
        let mut count = 0;
        for mv in moves_in(near) {
            let k = conj[mv as usize] as usize;
            let twist = twists[mv as usize];
            let class = row.class[k];
            let back_in_phase2 = class == 0 && twist == 0 && togo <= NO_SHORT_RETURN + 1;
            // (`count` stays below 18: `near` has at most 18 turns.)
            if back_in_phase2 || count >= 18 {
                continue;
            }
            let sym = product[row.sym[k] as usize];
            let i = self.index(class, sym, twist);
            let (index, dist) = match known {
                Some((lower, keep)) => {
                    let dist = node.dist + 1 - (2 * (lower >> mv & 1) + (keep >> mv & 1)) as u8;
                    if dist as usize <= MASK_DEPTH {
                        self.masks.prefetch(i);
                    }
                    (KNOWN, dist)
                }
                None => {
                    prefetch(&self.table.words, i as usize >> 5);
                    (i, 0)
                }
            };
            // The row the child will need if it survives, fetched while its
            // entry is (twist rows are few enough to stay in cache).
            prefetch(self.class_move, class as usize);
            out.index[count] = index;
            out.kids[count] = Child {
                mv,
                node: SymNode {
                    twist,
                    class,
                    sym,
                    dist,
                },
            };
            count += 1;
        }
        out.count = count;
    }

    #[inline(always)]
    fn settle(&self, node: &SymNode, togo: usize, pending: &mut Pending<SymNode>) -> usize {
        let mut kept = 0;
        for i in 0..pending.count.min(18) {
            let position = pending.index[i];
            let dist = match position {
                KNOWN => pending.kids[i].node.dist,
                _ => next_depth(node.dist, self.table.get(position as usize)),
            };
            if (dist as usize) < togo {
                if position != KNOWN && dist as usize <= MASK_DEPTH {
                    self.masks.prefetch(position);
                }
                pending.kids[kept] = pending.kids[i];
                pending.kids[kept].node.dist = dist;
                kept += 1;
            }
        }
        kept
    }

    fn ending_depth(&self) -> usize {
        ENDING_DEPTH
    }

    #[inline(always)]
    fn endings(&self, node: &SymNode, togo: usize) -> NodeEndings<'_> {
        NodeEndings {
            paths: (self.endings).of(self.index(node.class, node.sym, node.twist), togo),
            sym: node.sym,
            to_real: self.endings.to_real(node.sym),
        }
    }

    #[inline(always)]
    fn entries(&self, node: &SymNode, allowed: u32) -> u32 {
        let twists = &self.twist_move[node.twist as usize * 18..][..18];
        let row = &self.class_move[node.class as usize];
        let conj = &self.conj_move[node.sym as usize];
        let near = self.remap.to_real(node.sym, row.closer_than(1));
        moves_in(allowed & near & !PHASE2_MASK)
            .filter(|&mv| twists[mv as usize] == 0 && row.class[conj[mv as usize] as usize] == 0)
            .fold(0, |mask, mv| mask | 1 << mv)
    }
}

impl SymPhase1<'_> {
    /// The real turns that lower a node's distance and those that keep it,
    /// if its position is near enough to phase 2 to have masks.
    #[inline(always)]
    fn known_turns(&self, node: &SymNode) -> Option<(u32, u32)> {
        if node.dist as usize > MASK_DEPTH {
            return None;
        }
        let (lower, keep) = (self.masks).get(self.index(node.class, node.sym, node.twist))?;
        Some((
            self.remap.to_real(node.sym, lower),
            self.remap.to_real(node.sym, keep),
        ))
    }

    /// Exact distance of a node, by walking down: some turn always lowers the distance by one.
    fn descend(&self, mut node: SymNode) -> u8 {
        let mut depth = 0u8;
        let mut dist_mod3 = self
            .table
            .get(self.index(node.class, node.sym, node.twist) as usize);
        while node.class != 0 || node.twist != 0 {
            let want = (dist_mod3 + 2) % 3;
            let step = moves_in(followers(None)).find_map(|mv| {
                let row = &self.class_move[node.class as usize];
                let k = self.conj_move[node.sym as usize][mv as usize] as usize;
                let child = SymNode {
                    twist: self.twist_move[node.twist as usize * 18 + mv as usize],
                    class: row.class[k],
                    sym: self.product[node.sym as usize][row.sym[k] as usize],
                    dist: 0,
                };
                let entry = self
                    .table
                    .get(self.index(child.class, child.sym, child.twist) as usize);
                (entry == want).then_some(child)
            });
            let Some(child) = step else { break };
            (node, dist_mod3) = (child, want);
            depth += 1;
        }
        depth
    }
}

/// Every turn mapped to itself.
const IDENTITY_TURNS: [u8; 18] = {
    let mut t = [0u8; 18];
    let mut m = 0;
    while m < 18 {
        t[m] = m as u8;
        m += 1;
    }
    t
};

/// A small-table node: raw coordinates and a lower bound on the distance.
#[derive(Clone, Copy, Default)]
pub(crate) struct RawNode {
    flip: u16,
    twist: u16,
    slice: u16,
    dist: u8,
}

/// Phase 1 on the small tables: raw coordinates, bounded by the exact slice×twist and slice×flip distances.
pub(crate) struct RawPhase1<'a> {
    t: &'a Tables,
}

impl<'a> RawPhase1<'a> {
    pub(crate) fn new(t: &'a Tables) -> RawPhase1<'a> {
        RawPhase1 { t }
    }

    #[inline(always)]
    fn child(&self, node: &RawNode, mv: u8) -> RawNode {
        let (m, k) = (&self.t.moves, mv as usize);
        RawNode {
            flip: m.flip[node.flip as usize * 18 + k],
            twist: m.twist[node.twist as usize * 18 + k],
            slice: self.t.slice_moves[node.slice as usize * 18 + k],
            dist: 0,
        }
    }
}

impl Phase1 for RawPhase1<'_> {
    type Node = RawNode;

    fn root(&self, flip: u16, slice_sorted: u16, twist: u16) -> RawNode {
        RawNode {
            flip,
            twist,
            slice: slice_sorted / 24,
            dist: self.t.phase1_small_bound(flip, slice_sorted, twist),
        }
    }

    fn dist(node: &RawNode) -> u8 {
        node.dist
    }

    fn expand(&self, node: &RawNode, allowed: u32, togo: usize, out: &mut Pending<RawNode>) {
        let mut count = 0;
        for mv in moves_in(allowed) {
            let mut kid = self.child(node, mv);
            if kid.flip == 0 && kid.twist == 0 && kid.slice == 0 && togo <= NO_SHORT_RETURN + 1 {
                continue;
            }
            kid.dist = self
                .t
                .phase1_small_bound(kid.flip, kid.slice * 24, kid.twist);
            if (kid.dist as usize) < togo && count < 18 {
                out.kids[count] = Child { mv, node: kid };
                count += 1;
            }
        }
        out.count = count;
    }

    fn settle(&self, _: &RawNode, _: usize, pending: &mut Pending<RawNode>) -> usize {
        pending.count
    }

    fn ending_depth(&self) -> usize {
        0
    }

    fn endings(&self, _: &RawNode, _: usize) -> NodeEndings<'_> {
        NodeEndings {
            paths: &[],
            sym: 0,
            to_real: &IDENTITY_TURNS,
        }
    }

    fn entries(&self, node: &RawNode, allowed: u32) -> u32 {
        moves_in(allowed & !PHASE2_MASK)
            .filter(|&mv| {
                let kid = self.child(node, mv);
                kid.flip == 0 && kid.twist == 0 && kid.slice == 0
            })
            .fold(0, |mask, mv| mask | 1 << mv)
    }
}
