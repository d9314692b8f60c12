//! The piece-level decision: assigns the 8 corners and 12 edges to positions (Hungarian method, `assignment.rs`) with legal twist, flip and parity, at the lowest total sticker cost. Pure.

use crate::assignment::{min_cost_assignment, MAX_N};
use crate::cube::{corner_colours, edge_colours, CORNER_STICKERS, EDGE_STICKERS};
use crate::cube::{CubieCube, Face};

/// Cost of each sticker (0..54, URFDLB) showing each colour (named by the
/// face whose centre has it). Lower is more likely.
pub(crate) type StickerCosts = [[f32; 6]; 54];

/// Cost of an option that is forbidden (larger than any real total).
const FORBIDDEN: f32 = 1.0e6;

/// One kind of piece: corners (3 stickers, 3 twists) or edges (2 stickers, 2 flips).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum PieceKind {
    Corner,
    Edge,
}

impl PieceKind {
    /// Number of positions (and pieces) of this kind.
    pub(crate) fn count(self) -> usize {
        match self {
            PieceKind::Corner => 8,
            PieceKind::Edge => 12,
        }
    }

    /// Number of orientations of a piece in its slot.
    pub(crate) fn orientations(self) -> usize {
        match self {
            PieceKind::Corner => 3,
            PieceKind::Edge => 2,
        }
    }

    /// Sticker indices of a position, in the cube core's reference order.
    pub(crate) fn stickers(self, pos: usize) -> &'static [usize] {
        match self {
            PieceKind::Corner => &CORNER_STICKERS[pos],
            PieceKind::Edge => &EDGE_STICKERS[pos],
        }
    }

    /// Colours of a piece, in the order of `stickers`.
    fn colours(self, piece: usize) -> Vec<Face> {
        match self {
            PieceKind::Corner => corner_colours(piece).to_vec(),
            PieceKind::Edge => edge_colours(piece).to_vec(),
        }
    }

    /// The colour `piece` shows on sticker `slot` of its position when in `orientation`
    /// (the cube core puts colour `n` on sticker `(n + orientation) % orientations`).
    pub(crate) fn colour_on(self, piece: usize, orientation: usize, slot: usize) -> Face {
        let k = self.orientations();
        self.colours(piece)[(slot + k - orientation) % k]
    }

    /// The colour the mirror image of `piece` (its colours in the other turning order, two
    /// stickers swapped) shows on sticker `slot` when in `orientation`; no real piece does.
    fn colour_on_mirrored(self, piece: usize, orientation: usize, slot: usize) -> Face {
        let k = self.orientations();
        self.colours(piece)[(orientation + k - slot) % k]
    }
}

/// The cost of every (position, piece, orientation) option of one kind of piece.
#[derive(Clone, Debug)]
pub(crate) struct OptionCosts {
    kind: PieceKind,
    cost: Vec<f32>,
}

impl OptionCosts {
    /// Sums the sticker costs of every option.
    pub(crate) fn new(kind: PieceKind, stickers: &StickerCosts) -> OptionCosts {
        let (n, k) = (kind.count(), kind.orientations());
        let mut cost = vec![0.0; n * n * k];
        for pos in 0..n {
            let slots = kind.stickers(pos);
            for piece in 0..n {
                let colours = kind.colours(piece);
                for o in 0..k {
                    cost[(pos * n + piece) * k + o] = colours
                        .iter()
                        .enumerate()
                        .map(|(c, face)| stickers[slots[(c + o) % k]][face.index()])
                        .sum();
                }
            }
        }
        OptionCosts { kind, cost }
    }

    fn get(&self, pos: usize, piece: usize, o: usize) -> f32 {
        let (n, k) = (self.kind.count(), self.kind.orientations());
        self.cost[(pos * n + piece) * k + o]
    }

    /// Forbids every option that would put `colour` on sticker `slot` of `pos`.
    pub(crate) fn forbid_colour(&mut self, pos: usize, slot: usize, colour: Face) {
        let (n, k) = (self.kind.count(), self.kind.orientations());
        for piece in 0..n {
            for o in 0..k {
                if self.kind.colour_on(piece, o, slot) == colour {
                    self.cost[(pos * n + piece) * k + o] = FORBIDDEN;
                }
            }
        }
    }
}

/// Pieces of one kind placed in their positions.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Placement {
    pub perm: Vec<u8>,
    pub orient: Vec<u8>,
    pub cost: f32,
}

/// The cheapest placement with even permutation parity (index 0) and with odd parity (index 1).
pub(crate) fn best_by_parity(options: &OptionCosts) -> [Placement; 2] {
    let best = assign_pieces(options);
    let parity = usize::from(crate::cube::permutation_parity(&best.perm));
    let other = best_transposition(options, &best.perm);
    if parity == 0 {
        [best, other]
    } else {
        [other, best]
    }
}

/// Kuhn–Munkres on the cheapest orientation of each (position, piece), then the orientation sum repaired.
fn assign_pieces(options: &OptionCosts) -> Placement {
    let (n, k) = (options.kind.count(), options.kind.orientations());
    let mut cheapest = [f32::MAX; MAX_N * MAX_N];
    for pos in 0..n {
        for piece in 0..n {
            cheapest[pos * n + piece] = (0..k)
                .map(|o| options.get(pos, piece, o))
                .fold(f32::MAX, f32::min);
        }
    }
    let perm = min_cost_assignment(n, |pos, piece| cheapest[pos * n + piece]);
    orient_pieces(options, perm[..n].to_vec())
}

/// The cheapest orientations for a fixed permutation whose sum is 0 modulo the orientation count.
fn orient_pieces(options: &OptionCosts, perm: Vec<u8>) -> Placement {
    let (cost, orient) = orientation_dp(options, &perm, true);
    Placement { perm, orient, cost }
}

/// Dynamic programme over positions with the orientation sum modulo k as
/// state: the cheapest total with sum ≡ 0, and (when `trace`) the orientations.
/// Allocation-free apart from the returned orientations.
fn orientation_dp(options: &OptionCosts, perm: &[u8], trace: bool) -> (f32, Vec<u8>) {
    let k = options.kind.orientations();
    let mut best = [0.0, f32::INFINITY, f32::INFINITY];
    // choice[pos][t] = (previous sum, orientation) that reached sum t at pos.
    let mut choice = [[(0u8, 0u8); 3]; 12];
    for (pos, &piece) in perm.iter().enumerate() {
        let mut next = [f32::INFINITY; 3];
        for (s, &cost) in best.iter().enumerate().take(k) {
            for o in 0..k {
                let c = cost + options.get(pos, piece as usize, o);
                let t = (s + o) % k;
                if c < next[t] {
                    next[t] = c;
                    choice[pos][t] = (s as u8, o as u8);
                }
            }
        }
        best = next;
    }
    if !trace {
        return (best[0], Vec::new());
    }
    let mut orient = vec![0u8; perm.len()];
    let mut state = 0usize;
    for pos in (0..perm.len()).rev() {
        let (prev, o) = choice[pos][state];
        orient[pos] = o;
        state = prev as usize;
    }
    (best[0], orient)
}

/// The cheapest placement that swaps two pieces of `perm` (so has the other
/// parity); of equally cheap swaps, the first pair in order. A swap costs at
/// least its positions' cheapest orientations ignoring the twist sum, so
/// swaps are tried cheapest bound first and those whose bound already exceeds
/// the best found are never orientated.
fn best_transposition(options: &OptionCosts, perm: &[u8]) -> Placement {
    let n = perm.len();
    let k = options.kind.orientations();
    let cheapest = |pos: usize, piece: u8| {
        (0..k)
            .map(|o| options.get(pos, piece as usize, o))
            .fold(f32::INFINITY, f32::min)
    };
    let own: Vec<f32> = (0..n).map(|pos| cheapest(pos, perm[pos])).collect();
    let base: f32 = own.iter().sum();
    let mut bounds: Vec<(f32, usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| {
            let changed = cheapest(i, perm[j]) + cheapest(j, perm[i]) - own[i] - own[j];
            (base + changed, i, j)
        })
        .collect();
    bounds.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut swapped = perm.to_vec();
    let mut best = (f32::INFINITY, (0, 1));
    for &(bound, i, j) in &bounds {
        if bound > best.0 * (1.0 + BOUND_SLACK) + BOUND_SLACK {
            break;
        }
        swapped.swap(i, j);
        let (cost, _) = orientation_dp(options, &swapped, false);
        if cost < best.0 || (cost == best.0 && (i, j) < best.1) {
            best = (cost, (i, j));
        }
        swapped.swap(i, j);
    }
    let (i, j) = best.1;
    swapped.swap(i, j);
    orient_pieces(options, swapped)
}

/// Rounding room for the bound (relative and absolute): it sums the same
/// costs in another order.
const BOUND_SLACK: f32 = 1e-4;

/// The cheapest legal cube for some sticker costs.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceSolution {
    pub cubies: CubieCube,
    pub cost: f32,
}

/// Combines corner and edge placements of equal parity into the cheapest legal cube.
pub(crate) fn combine(corners: &[Placement; 2], edges: &[Placement; 2]) -> PieceSolution {
    let parity = if corners[0].cost + edges[0].cost <= corners[1].cost + edges[1].cost {
        0
    } else {
        1
    };
    let (c, e) = (&corners[parity], &edges[parity]);
    let cubies = CubieCube {
        cp: c.perm.clone().try_into().expect("8 corners"),
        co: c.orient.clone().try_into().expect("8 corners"),
        ep: e.perm.clone().try_into().expect("12 edges"),
        eo: e.orient.clone().try_into().expect("12 edges"),
    };
    PieceSolution {
        cubies,
        cost: c.cost + e.cost,
    }
}

/// The cheapest legal cube: every piece once, twist and flip sums zero, equal parities.
pub(crate) fn solve_pieces(costs: &StickerCosts) -> PieceSolution {
    let corners = best_by_parity(&OptionCosts::new(PieceKind::Corner, costs));
    let edges = best_by_parity(&OptionCosts::new(PieceKind::Edge, costs));
    combine(&corners, &edges)
}

/// Each sticker's colour (by face index) in the cheapest placement of the pieces when the
/// cube need not be one that can exist: any twists and flips, either parity, and corners
/// mirrored (two of their stickers swapped, as a re-stickered cube has them). Where it
/// differs from the cheapest legal cube, the readings themselves break a rule of the cube
/// (a piece twisted, flipped, swapped or mirrored in place), and the legal cube is a repair.
pub(crate) fn colours_without_cube_rules(costs: &StickerCosts) -> [usize; 54] {
    let mut colours: [usize; 54] = std::array::from_fn(|s| s / 9);
    for kind in [PieceKind::Corner, PieceKind::Edge] {
        let n = kind.count();
        let cheapest = |pos: usize, piece: usize| cheapest_arrangement(kind, costs, pos, piece);
        let perm = min_cost_assignment(n, |pos, piece| cheapest(pos, piece).0);
        for (pos, &piece) in perm[..n].iter().enumerate() {
            let (_, shown) = cheapest(pos, piece as usize);
            for (&sticker, face) in kind.stickers(pos).iter().zip(shown) {
                colours[sticker] = face.index();
            }
        }
    }
    colours
}

/// The cheapest way `piece` can show its colours at `pos` with no rule kept: each
/// orientation, and for a corner also each orientation of its mirror image (its colours in
/// the other turning order). Returns the cost and the colour on each sticker of `pos`.
fn cheapest_arrangement(
    kind: PieceKind,
    costs: &StickerCosts,
    pos: usize,
    piece: usize,
) -> (f32, Vec<Face>) {
    let mirrors: &[bool] = match kind {
        PieceKind::Corner => &[false, true],
        PieceKind::Edge => &[false],
    };
    let slots = kind.stickers(pos);
    let arrangements = mirrors.iter().flat_map(|&mirrored| {
        (0..kind.orientations()).map(move |o| -> Vec<Face> {
            (0..slots.len())
                .map(|slot| match mirrored {
                    false => kind.colour_on(piece, o, slot),
                    true => kind.colour_on_mirrored(piece, o, slot),
                })
                .collect()
        })
    });
    let cost_of = |shown: &[Face]| -> f32 {
        slots
            .iter()
            .zip(shown)
            .map(|(&sticker, face)| costs[sticker][face.index()])
            .sum()
    };
    arrangements
        .map(|shown| (cost_of(&shown), shown))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or_else(|| (FORBIDDEN, kind.colours(piece)))
}

/// For each sticker, how much more the cheapest legal cube costs if that sticker
/// must show another colour than in `best` (infinite for centres, which define the faces).
pub(crate) fn sticker_gaps(costs: &StickerCosts, best: &PieceSolution) -> [f32; 54] {
    let mut gaps = [f32::INFINITY; 54];
    let facelets = best.cubies.to_facelets();
    let mut tables = [PieceKind::Corner, PieceKind::Edge].map(|kind| OptionCosts::new(kind, costs));
    let placed = tables.clone().map(|t| best_by_parity(&t));
    for (which, kind) in [PieceKind::Corner, PieceKind::Edge].into_iter().enumerate() {
        for pos in 0..kind.count() {
            for (slot, &sticker) in kind.stickers(pos).iter().enumerate() {
                let saved = tables[which].clone();
                tables[which].forbid_colour(pos, slot, facelets.stickers[sticker]);
                let changed = best_by_parity(&tables[which]);
                let alternative = if which == 0 {
                    combine(&changed, &placed[1])
                } else {
                    combine(&placed[0], &changed)
                };
                gaps[sticker] = (alternative.cost - best.cost).max(0.0);
                tables[which] = saved;
            }
        }
    }
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::random::random_cube;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Costs that are 0 for the true colour of each sticker and `wrong` otherwise.
    fn exact_costs(cube: &CubieCube, wrong: f32) -> StickerCosts {
        let f = cube.to_facelets();
        std::array::from_fn(|s| {
            std::array::from_fn(|c| {
                if f.stickers[s].index() == c {
                    0.0
                } else {
                    wrong
                }
            })
        })
    }

    #[test]
    fn exact_costs_give_back_the_cube() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..50 {
            let cube = random_cube(&mut rng);
            let solution = solve_pieces(&exact_costs(&cube, 10.0));
            assert_eq!(solution.cubies, cube);
            assert_eq!(solution.cost, 0.0);
        }
    }

    #[test]
    fn a_twisted_corner_reading_is_repaired_into_a_legal_cube() {
        let mut cube = CubieCube::default();
        cube.co[0] = 1; // one corner twisted in place: illegal
        let solution = solve_pieces(&exact_costs(&cube, 10.0));
        assert!(solution.cubies.check().is_ok());
        assert!(solution.cost > 0.0);
    }

    #[test]
    fn two_swapped_edges_are_repaired_for_parity() {
        let mut cube = CubieCube::default();
        cube.ep.swap(0, 1);
        let solution = solve_pieces(&exact_costs(&cube, 10.0));
        assert!(solution.cubies.check().is_ok());
    }

    #[test]
    fn readings_that_break_a_rule_differ_from_their_repair_exactly_where_it_changed_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for _ in 0..20 {
            let cube = random_cube(&mut rng);
            let legal = exact_costs(&cube, 10.0);
            let read = colours_without_cube_rules(&legal);
            assert_eq!(read, cube.to_facelets().stickers.map(|f| f.index()));
            for broken in [
                flip_one_edge(&cube),
                twist_one_corner(&cube),
                swap_two_edges(&cube),
            ] {
                let costs = exact_costs(&broken, 10.0);
                let read = colours_without_cube_rules(&costs);
                // The readings are given back as they are, and the repair differs from them.
                let as_read: [usize; 54] =
                    std::array::from_fn(|s| (0..6).find(|&c| costs[s][c] == 0.0).unwrap_or(99));
                assert_eq!(read, as_read);
                let repaired = colours_of_solution(&solve_pieces(&costs));
                assert_ne!(read, repaired);
            }
            // A corner mirrored: two of its stickers swapped, which no real piece shows.
            for (pos, &[a, b, _]) in CORNER_STICKERS.iter().enumerate() {
                let mut costs = legal;
                costs.swap(a, b);
                let as_read: [usize; 54] =
                    std::array::from_fn(|s| (0..6).find(|&c| costs[s][c] == 0.0).unwrap_or(99));
                assert_eq!(colours_without_cube_rules(&costs), as_read, "corner {pos}");
                assert_ne!(as_read, colours_of_solution(&solve_pieces(&costs)));
            }
        }
    }

    fn colours_of_solution(solution: &PieceSolution) -> [usize; 54] {
        solution.cubies.to_facelets().stickers.map(|f| f.index())
    }

    fn flip_one_edge(cube: &CubieCube) -> CubieCube {
        let mut broken = *cube;
        broken.eo[3] ^= 1;
        broken
    }

    fn twist_one_corner(cube: &CubieCube) -> CubieCube {
        let mut broken = *cube;
        broken.co[5] = (broken.co[5] + 1) % 3;
        broken
    }

    fn swap_two_edges(cube: &CubieCube) -> CubieCube {
        let mut broken = *cube;
        broken.ep.swap(2, 7);
        broken
    }

    #[test]
    fn gaps_are_small_exactly_where_a_legal_alternative_is_cheap() {
        let cube = CubieCube::default();
        let mut costs = exact_costs(&cube, 10.0);
        // Flipping both the UR and UF edges costs only 4: a cheap legal alternative.
        for (sticker, face) in [(5, Face::R), (10, Face::U), (7, Face::F), (19, Face::U)] {
            costs[sticker][face.index()] = 1.0;
        }
        let solution = solve_pieces(&costs);
        assert_eq!(solution.cubies, cube);
        let gaps = sticker_gaps(&costs, &solution);
        assert!(gaps[4].is_infinite(), "centres define faces");
        for (s, &g) in gaps.iter().enumerate() {
            let expected_small = [5, 10, 7, 19].contains(&s);
            assert_eq!(g == 4.0, expected_small, "sticker {s} gap {g}");
            assert!(g >= 4.0);
        }
    }
}
