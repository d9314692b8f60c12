//! Reading a cube from its 54 (or 24) sticker colours: classification into a legal cube or a refusal naming the doubtful stickers, the piece assignment and refinement behind it, the bounds that refuse a cube that cannot exist, and what explains a refused reading (turned, swapped or mirrored photos) and what a person can do. Pure.

pub mod advice;
pub mod calibrate;
pub(crate) mod centres;
pub mod classify;
pub(crate) mod doubt;
pub(crate) mod face_consistency;
pub(crate) mod mirrored;
pub(crate) mod options;
pub(crate) mod pieces;
pub mod pocket;
pub mod reading;
pub(crate) mod refine;
pub(crate) mod repairs;
pub mod swapped;
pub mod turned;
pub mod washed_out;
