//! Colour and light: sRGB and CIELAB arithmetic with CIEDE2000 distances, the palette of valid colours, calibration from a solved cube, per-face exposure and white balance. Pure.

pub mod calibrate;
pub mod colour;
pub(crate) mod colour_difference;
pub mod lighting;
pub mod palette;
