//! Calibration ("set valid colors"): new palette references from a scan of a solved cube, with each colour's distances before and after. Pure.

mod mirror;
mod named;
#[cfg(test)]
mod tests;

use crate::cube::Face;
use crate::light::colour::{LabColour, Rgb};
use crate::light::palette::Palette;
use mirror::{alike_in, explaining_exchange};
use named::Named;

/// One colour's line of the calibration report.
#[derive(Clone, Debug, PartialEq)]
pub struct CalibratedColour {
    pub name: String,
    pub symbol: char,
    /// The face of the scan it was found on.
    pub face: char,
    /// Mean CIEDE2000 of its nine stickers to the old and to the new reference.
    pub before: f32,
    pub after: f32,
    pub new_reference: LabColour,
}

/// The new palette and the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub palette: Palette,
    pub colours: Vec<CalibratedColour>,
    /// When the colours sit on the faces as on no cube that can be held: which faces look
    /// like which colour, and what the palette's scheme made them (see `mirrored_faces`).
    pub mirrored: Option<String>,
}

/// A colour whose stickers spread so far under this light that some may read as another.
#[derive(Clone, Debug, PartialEq)]
pub struct WideSpread {
    pub name: String,
    pub face: char,
    /// Mean CIEDE2000 of its nine stickers to its new reference.
    pub spread: f32,
    /// The nearest other colour, and how far its new reference is.
    pub nearest: String,
    pub apart: f32,
}

impl std::fmt::Display for WideSpread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} stickers (face {}) spread {:.1} from their colour on average, more than half the way to {} ({:.1} away): some may read as {}",
            self.name, self.face, self.spread, self.nearest, self.apart, self.nearest
        )
    }
}

impl Calibration {
    /// The colours whose stickers lie, on average, more than halfway to the nearest other
    /// colour's new reference: beyond that midpoint a sticker is nearer the other colour.
    /// Uneven light or a glare on that face does it.
    pub fn wide_spreads(&self) -> Vec<WideSpread> {
        let colours = &self.colours;
        let nearest = |i: usize| {
            (colours.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, c)| (c, colours[i].new_reference.delta_e(c.new_reference)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
        };
        (colours.iter().enumerate())
            .filter_map(|(i, c)| {
                let (other, apart) = nearest(i)?;
                (c.after > apart / 2.0).then(|| WideSpread {
                    name: c.name.clone(),
                    face: c.face,
                    spread: c.after,
                    nearest: other.name.clone(),
                    apart,
                })
            })
            .collect()
    }
}

/// Why a scan cannot calibrate the palette.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CalibrateError {
    #[error("the scan is not of a solved cube: face {face} does not read as one colour (calibrate from a solved cube)")]
    NotSolved { face: char },
    #[error("face {face} does not read as one colour: sticker {sticker} reads {reading:?}, clipped by the camera on a face the light brought to the top of its range: if the cube is solved, the light changed that sticker's colour (take the photos again with less light or a shorter exposure, then calibrate again); if not, calibrate from a solved cube (nothing was written)")]
    StrayWhereClipped {
        face: char,
        sticker: String,
        reading: Rgb,
    },
    #[error("the photos of faces {first} and {second} were likely swapped (each shows the other face): as they are, the colours sit as on no cube that can be held, and exchanged they do, each face most like its colour, and no light makes those two colours alike: check which photo is which face, then calibrate again (nothing was written)")]
    PhotosSwapped { first: char, second: char },
    #[error("faces {first} and {second} look the same to the camera ({apart:.1} apart in CIEDE2000, at least {} needed): light the cube evenly and check the camera's white balance, then calibrate again", crate::light::palette::LEAST_APART)]
    TooAlike {
        first: char,
        second: char,
        apart: f32,
    },
}

/// The faces of a solved cube (URFDLB readings) the light washed out, told by the camera's
/// physics as scans tell them: in a webcam's highlight roll-off (`ROLL_OFF_CODE` or over) a
/// channel no longer keeps its ratio to the others, so two faces recorded there in the channel
/// that tells their colours apart (an orange and a yellow in green) were pressed together, and a
/// face recorded there in every channel, not the palest colour, lost its hue. Their colours
/// would be calibrated wrong; photographed darker, they are not. Each face is judged by the
/// median of its stickers in each channel, and given its colour one each (`colours_one_each`).
pub fn washed_out_faces(readings: &[Rgb; 54], palette: &Palette) -> Vec<Face> {
    use crate::light::lighting::ROLL_OFF_CODE;
    let looks: [Rgb; 6] = std::array::from_fn(|f| channel_medians(&readings[f * 9..f * 9 + 9]));
    let colours = palette.colours_one_each(&looks.map(LabColour::from_rgb));
    let references = palette.references_rgb();
    let in_roll_off = |f: usize, channel: usize| looks[f][channel] >= ROLL_OFF_CODE;
    let blank = |f: usize| (0..3).all(|c| in_roll_off(f, c)) && colours[f] != palette.palest();
    let pressed_with = |f: usize, g: usize| {
        let (a, b) = (references[colours[f]], references[colours[g]]);
        let telling = (0..3).max_by_key(|&c| a[c].abs_diff(b[c])).unwrap_or(0);
        colours[f] != colours[g] && in_roll_off(f, telling) && in_roll_off(g, telling)
    };
    (Face::ALL.into_iter())
        .filter(|face| {
            let f = face.index();
            blank(f) || (0..6).any(|g| g != f && pressed_with(f, g))
        })
        .collect()
}

impl CalibrateError {
    /// The face of the solved cube with a sticker the light may have changed: clipped,
    /// astray, on a face the light brought to the top of the camera's range
    /// ([`CalibrateError::StrayWhereClipped`]). Photographed darker, a solved cube's sticker
    /// reads its colour again, and another colour's shows as one.
    pub fn face_clipped_astray(&self) -> Option<Face> {
        match self {
            CalibrateError::StrayWhereClipped { face, .. } => Face::from_letter(*face),
            _ => None,
        }
    }
}

/// Each channel's median over `readings` (nine: the middle one).
fn channel_medians(readings: &[Rgb]) -> Rgb {
    std::array::from_fn(|channel| {
        let mut values: Vec<f32> = readings.iter().map(|r| f32::from(r[channel])).collect();
        values.sort_unstable_by(f32::total_cmp);
        crate::light::colour::median_of_sorted(&values).map_or(0, |m| m.round() as u8)
    })
}

/// Calibrates `palette` from readings (URFDLB) of a solved cube.
pub fn calibrate(readings: &[Rgb; 54], palette: &Palette) -> Result<Calibration, CalibrateError> {
    let named = Named::of(readings, palette)?;
    let mut mirrored = named.mirrored.clone();
    if mirrored.is_some() {
        match explaining_exchange(readings, palette) {
            Some((first, second, colours)) if !alike_in(palette, colours) => {
                return Err(CalibrateError::PhotosSwapped {
                    first: first.letter(),
                    second: second.letter(),
                })
            }
            Some((first, second, _)) => {
                mirrored = mirrored.map(|looks| {
                    format!(
                        "{looks}; exchanged, the photos of faces {} and {} read as a cube that \
                         can be held",
                        first.letter(),
                        second.letter()
                    )
                })
            }
            None => {}
        }
    }
    let mut references = palette.colours.clone().map(|c| c.reference);
    let mut colours = Vec::new();
    for face in 0..6 {
        let name = named.names[face];
        let old = &palette.colours[name];
        colours.push(CalibratedColour {
            name: old.name.clone(),
            symbol: old.symbol,
            face: b"URFDLB"[face] as char,
            before: named.mean_to(face, old.reference),
            after: named.mean_to(face, named.medians[face]),
            new_reference: named.medians[face],
        });
        references[name] = named.medians[face];
    }
    Ok(Calibration {
        palette: palette.with_references(references),
        colours,
        mirrored,
    })
}
