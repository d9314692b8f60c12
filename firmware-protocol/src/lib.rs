//! Wire format between the cubed host and the robot firmware (`no_std`, no alloc).
//!
//! Frames are `COBS(header + payload + CRC-16) 0x00`; `PROTOCOL.md` documents every
//! byte. Layers, bottom up:
//!
//! - [`crc`] and [`cobs`]: checksum and byte stuffing;
//! - [`message`]: the message catalogue and payload layouts;
//! - [`frame`]: one-shot [`encode`] / [`decode_frame`]; [`Decoder`] for byte streams;
//! - [`seq`], [`rx`], [`window`], [`timing`]: sequence numbers, duplicate detection,
//!   retransmission and timers, pure (the caller passes the time in ms);
//! - [`FirmwareLink`] and [`HostLink`]: the two ends of a session.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod cobs;
pub mod crc;
mod decoder;
mod error;
mod firmware_link;
mod fixed;
pub mod frame;
mod host_link;
pub mod message;
pub mod rx;
pub mod seq;
pub mod timing;
pub mod window;
mod wire;

pub use decoder::{Decoder, Feed};
pub use error::Error;
pub use firmware_link::{FirmwareLink, Inbound};
pub use fixed::FixedList;
pub use frame::{
    decode_content, decode_frame, encode, encode_content, Frame, Header, MAX_FRAME_LEN,
    MAX_PAYLOAD_LEN, MAX_WIRE_LEN, PROTOCOL_VERSION,
};
pub use host_link::{HostInbound, HostLink, HostPhase, HOST_FREE_SLOTS};
pub use message::{Message, MessageType};
pub use rx::{RxTracker, RxVerdict};
pub use seq::{Seq, MAX_WINDOW};
pub use window::TxWindow;
