//! The bounds that refuse a cube that cannot exist rather than repair it into another: the legal reading's cost over the readings as read (a piece wrong in place), over each sticker read as the colour it looks (pieces that do not exist, a face photographed turned), and one sticker's share of that (a sticker swapped between pieces). Pure.

use crate::read::doubt::Repairs;
use crate::read::pieces::{colours_without_cube_rules, StickerCosts};

/// What the bounds make of the legal reading `colours` under `costs`: its repairs, and the
/// stickers in doubt when it repairs a cube that cannot exist (none when it does not).
pub(crate) fn judge(costs: &StickerCosts, colours: &[usize; 54]) -> (Repairs, Vec<usize>) {
    let (as_read, as_read_colours) = repair_over_the_readings(costs, colours);
    let (unshown, worst_unshown, nearest_colours) = repair_over_the_nearest(costs, colours);
    let repairs = Repairs {
        as_read,
        unshown,
        worst_unshown,
    };
    let impossible = if as_read > IMPOSSIBLE_REPAIR {
        // A piece twisted, flipped, swapped or mirrored in place (a misread, or a cube put
        // together wrong), which a legal reading only repairs: where the two differ.
        differing(&as_read_colours, colours, |_| true)
    } else if unshown > UNSHOWN_REPAIR || worst_unshown > WORST_UNSHOWN_REPAIR {
        // Stickers given another colour than they look, many or one clearly (a sticker swapped
        // between two pieces): the readings make no cube.
        differing(&nearest_colours, colours, |s| s % 9 != 4)
    } else {
        Vec::new()
    };
    (repairs, impossible)
}

/// How much more a legal cube may cost than the readings taken as they are (the pieces with
/// any twists, flips and parity, corners also mirrored) before the readings are taken to break
/// a rule of the cube. Noise makes a legal reading cost more now and then (in the development
/// part's readings under every lighting condition, up to 38.7 where the legal reading is right;
/// up to 20.2 in the 2x2s of their corners, which allow no mirror: `cubed-bench vision`); an
/// edge flipped, a corner twisted or mirrored in place makes it cost two or three clearly read
/// stickers (47 to 229 on the ten real scans). The 2x2 reader uses the same bound (its costs
/// are the same).
pub const IMPOSSIBLE_REPAIR: f32 = 40.0;

/// The stickers (those `which` allows) where `other` gives another colour than `colours`.
fn differing(
    other: &[usize; 54],
    colours: &[usize; 54],
    which: impl Fn(usize) -> bool,
) -> Vec<usize> {
    (0..54)
        .filter(|&s| which(s) && other[s] != colours[s])
        .collect()
}

/// How much more `colours` cost than the readings taken as they are, and those colours.
fn repair_over_the_readings(costs: &StickerCosts, colours: &[usize; 54]) -> (f32, [usize; 54]) {
    let as_read = colours_without_cube_rules(costs);
    let repair = (0..54)
        .map(|s| costs[s][colours[s]] - costs[s][as_read[s]])
        .sum();
    (repair, as_read)
}

/// How much more the legal cube may cost than each sticker read as the colour it looks most
/// like (no rule of the cube kept, not even that its pieces exist) before the readings are
/// taken to show no cube. Chosen on the development part: its right readings then cost up to
/// 99.0 over their nearest colours (strong drift: a few stickers the cube's rules read right
/// against their look), median 0; the bound leaves a fifth more. Today one right reading of
/// its 12 012 first and final takes costs more, 123.7, and is refused (`cubed-bench vision`).
/// A face photographed turned makes pieces that do not exist, which a piece-by-piece repair
/// cannot see; read with the palette's own colours, 71 of the 78 turned faces of 100 random
/// cubes that the light correction would otherwise read as another cube cost more
/// (`vision::turned`).
pub const UNSHOWN_REPAIR: f32 = 120.0;

/// The most one sticker (centres aside) may cost over the colour it looks most like before the
/// readings are taken to show no cube: a cube re-stickered, two stickers swapped between two
/// pieces, can give every legal reading a sticker of a colour it clearly does not have. Noise
/// spreads its cost over many stickers
/// instead: in the development part's readings under every lighting condition, first and final
/// takes, one sticker of a right reading costs up to 40.5 (`cubed-bench vision`); the bound
/// leaves a fifth more. 45 refused 3 of 200 cubes under the simulated lamp with roll-off after
/// re-capture; 50 refuses none there (seeds 1, 3, 7), nor on any other row of the bench, and
/// reads a quarter fewer swaps surely. The 2x2 reader has no such bound: its swapped stickers
/// read surely cost no more than its right readings do.
pub const WORST_UNSHOWN_REPAIR: f32 = 50.0;

/// How much more `colours` cost, centres aside, than each sticker read as the colour it looks
/// most like, the most one sticker adds to that, and those colours.
fn repair_over_the_nearest(costs: &StickerCosts, colours: &[usize; 54]) -> (f32, f32, [usize; 54]) {
    let nearest: [usize; 54] = std::array::from_fn(|s| {
        (0..6)
            .min_by(|&a, &b| costs[s][a].total_cmp(&costs[s][b]))
            .unwrap_or(colours[s])
    });
    let each = (0..54)
        .filter(|s| s % 9 != 4)
        .map(|s| costs[s][colours[s]] - costs[s][nearest[s]]);
    let (repair, worst) = each.fold((0.0, 0.0f32), |(sum, worst), c| (sum + c, worst.max(c)));
    (repair, worst, nearest)
}
