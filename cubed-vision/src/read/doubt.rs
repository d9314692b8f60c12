//! What makes the reader doubt stickers (`Doubt`), and how much a legal reading costs over readings that keep fewer of the cube's rules (`Repairs`).

/// How much more a legal reading costs than readings that keep fewer of the cube's rules: what
/// the bounds against a cube that cannot exist and against stickers that make no cube judge.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Repairs {
    /// Over the readings taken as they are (any twist, flip and parity; a 3x3's corners also
    /// mirrored), judged against `IMPOSSIBLE_REPAIR`.
    pub as_read: f32,
    /// Over each sticker read as the colour it looks most like, judged against
    /// `UNSHOWN_REPAIR` (a 2x2: `POCKET_UNSHOWN_REPAIR`).
    pub unshown: f32,
    /// The most of that one sticker (centres aside) costs: one sticker clearly read as another
    /// colour than it looks (a sticker swapped or covered).
    pub worst_unshown: f32,
}

/// What makes the classifier doubt some stickers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doubt {
    /// Another legal cube that differs there is nearly as good a reading.
    Close,
    /// They kept changing as each face's light was re-estimated (no convergence).
    Unsettled,
    /// Stickers given one colour on one face look unlike each other, or
    /// stickers that read the same were given two colours, which one light
    /// cannot do: the reading fits the light, not the cube.
    Unlike,
    /// Stickers given different colours on one face look alike where the
    /// camera clipped: what tells their colours apart was not recorded.
    Alike,
    /// Stickers read blank white (every channel clipped) were given a hue:
    /// the camera recorded none (the 2x2, which has no centres to name colours).
    Blank,
    /// The stickers as read make a cube that cannot exist (a piece twisted,
    /// flipped, swapped or mirrored in place); the legal reading is a repair that
    /// differs from them there.
    Impossible,
}

impl std::fmt::Display for Doubt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Doubt::Close => "another legal reading is nearly as good",
            Doubt::Unsettled => "the colours did not settle as the light was re-estimated",
            Doubt::Unlike => {
                "stickers on one face look unlike the colour they were given: one colour that \
                 looks unlike itself, or one reading given two colours, which one light cannot do"
            }
            Doubt::Alike => {
                "stickers read as different colours on one face look alike where the camera clipped"
            }
            Doubt::Blank => "stickers the camera clipped to blank white were given another colour",
            Doubt::Impossible => {
                "the stickers as read make a cube that cannot exist: a corner twisted or \
                 mirrored (two of its stickers swapped), two pieces swapped, or on a 3x3 an \
                 edge flipped, in place, by a misread or by hand; these are where the nearest \
                 cube that can exist differs"
            }
        })
    }
}

impl Doubt {
    /// A short machine-readable name of the doubt.
    pub fn kind(&self) -> &'static str {
        match self {
            Doubt::Close => "unsure",
            Doubt::Unsettled => "not_converged",
            Doubt::Unlike => "unlike",
            Doubt::Alike => "alike",
            Doubt::Blank => "blank",
            Doubt::Impossible => "impossible",
        }
    }
}
