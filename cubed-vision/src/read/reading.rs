//! What a 3x3's and a 2x2's readings have alike (`CubeReading`), and why either is refused (`Unsure`): the face each sticker was given, the palette colour naming each face, the symbols and confidences shown and recorded, whether the cube is solved, and its stickers too bright to tell apart.

use crate::cube::Face;
use crate::light::colour::Rgb;
use crate::light::palette::Palette;
use crate::read::doubt::Doubt;
use crate::recapture::overexposed_cube;

/// A cube read from its photos, of either size.
pub trait CubeReading {
    /// Stickers on a face (9 or 4).
    const PER_FACE: usize;
    /// How a refusal names the cube after its stickers: "" for a 3x3, " of the 2x2".
    const OF_CUBE: &'static str;
    /// The face each sticker was given, URFDLB.
    fn faces(&self) -> &[Face];
    /// Which palette colour names each face.
    fn colour_names(&self) -> &[usize; 6];
    /// The palette symbols of every sticker, URFDLB.
    fn symbols(&self) -> String;
    /// Per sticker, the calibrated probability (0..=1) that it is read right.
    fn confidence(&self) -> Vec<f32>;
    fn is_solved(&self) -> bool;
    /// The stickers of this reading that were too bright to tell apart, whose faces are taken
    /// again darker (`recapture::overexposed_cube`).
    fn overexposed(&self, readings: &[Rgb], palette: &Palette) -> Vec<usize> {
        let faces = (self.faces(), self.colour_names());
        overexposed_cube(readings, faces, palette, Self::PER_FACE)
    }
    /// The stickers that show their face was washed out by the light
    /// (`washed_out::washed_out_stickers`, judged by the pieces as read), whose faces are taken
    /// again darker.
    fn washed_out(&self) -> &[usize];
}

/// Why the classifier refuses to give a cube of either size: the stickers it is unsure of, why,
/// and its best guess (recorded, and shown to a person).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("unsure of {} {}{} ({doubt}; least confidence wanted {threshold})", cubed_core::words::count(stickers.len(), "sticker", "stickers"), crate::cube::sticker_names(stickers, R::PER_FACE), R::OF_CUBE)]
pub struct Unsure<R: CubeReading> {
    pub stickers: Vec<usize>,
    pub threshold: f32,
    pub doubt: Doubt,
    pub best_guess: Box<R>,
}

impl<R: CubeReading> Unsure<R> {
    /// A short machine-readable name of the refusal.
    pub fn kind(&self) -> &'static str {
        self.doubt.kind()
    }
}
