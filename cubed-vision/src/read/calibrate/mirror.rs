//! Colours that sit on the faces as on no cube that can be held, explained by two faces' photos exchanged, and whether a light could make two palette colours look alike.

use super::named::Named;
use crate::cube::Face;
use crate::light::colour::Rgb;
use crate::light::palette::Palette;

/// For readings whose colours sit as on no cube that can be held: the two faces whose photos,
/// exchanged, make them sit as on one (each face then looks most like the colour it is taken
/// as), and the palette colours (indices) they then show; the exchange that leaves the
/// colours nearest the palette's if several do.
pub(super) fn explaining_exchange(
    readings: &[Rgb; 54],
    palette: &Palette,
) -> Option<(Face, Face, [usize; 2])> {
    let pairs = (0..6).flat_map(|a| (a + 1..6).map(move |b| (Face::ALL[a], Face::ALL[b])));
    pairs
        .filter_map(|(a, b)| {
            let exchanged = crate::read::swapped::exchange(readings, (a, b));
            let named = Named::of(&exchanged, palette).ok()?;
            let colours = [named.names[a.index()], named.names[b.index()]];
            (named.mirrored.is_none()).then(|| ((a, b, colours), named.worst_before(palette)))
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(found, _)| found)
}

/// Whether a light could make the two palette colours look like each other: one is the
/// other's nearest in the palette (white and yellow, red and orange). Two colours farther
/// apart than that are never confused by the light, so faces showing them swapped were
/// photos swapped.
pub(super) fn alike_in(palette: &Palette, [first, second]: [usize; 2]) -> bool {
    let nearest_other = |c: usize| {
        let reference = palette.colours[c].reference;
        (0..palette.colours.len())
            .filter(|&o| o != c)
            .min_by(|&x, &y| {
                let to = |o: usize| reference.delta_e(palette.colours[o].reference);
                to(x).total_cmp(&to(y))
            })
    };
    nearest_other(first) == Some(second) || nearest_other(second) == Some(first)
}
