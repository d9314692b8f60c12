//! Colour and light: sRGB and CIELAB arithmetic with CIEDE2000 distances, the palette of valid colours, per-face exposure and white balance. Pure.

pub mod colour;
pub(crate) mod colour_difference;
pub mod lighting;
pub mod palette;
