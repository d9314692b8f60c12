//! What a person can do about stickers the classifier doubts, by why it doubts them, how they came out and what taking the photos again can bring: one table for the daemon and the command line. Pure.

use crate::camera::Retake;
use crate::read::classify::Doubt;
use crate::recapture::Step;

/// What a person can do about stickers the classifier doubts, by how they came out, why it
/// doubts them, and whether the camera's exposure can be changed.
pub fn what_to_do(doubt: Doubt, light: Step, retake: Retake) -> &'static str {
    // What to do with a camera whose exposure the daemon sets, and with photos from a folder.
    let (camera, photos) = match (doubt, light) {
        (Doubt::Impossible, _) => (
            "check the cube: a piece turned in place by hand (a corner twisted, or on a 3x3 an edge flipped), two stickers swapped (re-stickered), or a cube put back together wrong, cannot be solved; if it is sound, check the lighting on those stickers",
            "check the cube: a piece turned in place by hand (a corner twisted, or on a 3x3 an edge flipped), two stickers swapped (re-stickered), or a cube put back together wrong, cannot be solved; if it is sound, take the photos again with those stickers lit evenly",
        ),
        (Doubt::Alike | Doubt::Blank, _) | (_, Step::Darker) => (
            "they came out too bright for the camera (clipped at full, so colours look alike: near white, or a yellow at full red and green): dim the lamp or lower `[camera] exposure` (on the simulator, `[sim] exposure`)",
            "they came out too bright (clipped at full, so colours look alike: near white, or a yellow at full red and green): take the photos again with less light or a shorter exposure",
        ),
        (_, Step::Brighter) => (
            "they came out near black: light the cube better or raise `[camera] exposure` (on the simulator, `[sim] exposure`)",
            "they came out near black: take the photos again with more light or a longer exposure",
        ),
        (Doubt::Unlike, Step::Same) => (
            "light each face evenly (glare or a shadow across a face), and check that nothing covers a sticker",
            "take the photos again with each face lit evenly (glare or a shadow across a face), and check that nothing covers a sticker",
        ),
        (Doubt::Close | Doubt::Unsettled, Step::Same) => (
            "check the lighting and the camera, or recalibrate the palette",
            "take the photos again under the light the palette was calibrated in, or recalibrate the palette from them (`cubed calibrate`)",
        ),
    };
    match retake {
        Retake::Exposure => camera,
        Retake::NextFrame | Retake::SamePhoto => photos,
    }
}
