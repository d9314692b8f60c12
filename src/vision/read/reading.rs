//! What a 3x3's and a 2x2's readings have alike (`CubeReading`): the face each sticker was given, the palette colour naming each face, the symbols and confidences shown and recorded, whether the cube is solved, and its stickers too bright to tell apart.

use crate::cube::Face;
use crate::vision::light::colour::Rgb;
use crate::vision::light::palette::Palette;
use crate::vision::read::classify::Classification;
use crate::vision::read::pocket::PocketClassification;
use crate::vision::recapture::overexposed_cube;

/// A cube read from its photos, of either size.
pub(crate) trait CubeReading {
    /// Stickers on a face (9 or 4).
    const PER_FACE: usize;
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
}

impl CubeReading for Classification {
    const PER_FACE: usize = 9;

    fn faces(&self) -> &[Face] {
        &self.facelets.stickers
    }

    fn colour_names(&self) -> &[usize; 6] {
        &self.names
    }

    fn symbols(&self) -> String {
        Classification::symbols(self)
    }

    fn confidence(&self) -> Vec<f32> {
        self.sticker_confidence().to_vec()
    }

    fn is_solved(&self) -> bool {
        self.cubies.is_solved()
    }
}

impl CubeReading for PocketClassification {
    const PER_FACE: usize = 4;

    fn faces(&self) -> &[Face] {
        &self.facelets.stickers
    }

    fn colour_names(&self) -> &[usize; 6] {
        &self.names
    }

    fn symbols(&self) -> String {
        PocketClassification::symbols(self)
    }

    fn confidence(&self) -> Vec<f32> {
        self.sticker_confidence().to_vec()
    }

    fn is_solved(&self) -> bool {
        self.facelets.is_solved()
    }
}
