//! Wire format between the cubed host and the robot firmware (`no_std`, no alloc).
//!
//! Frames are `COBS(header + payload + CRC-16) 0x00`; `PROTOCOL.md` (next to this
//! crate's `Cargo.toml`) documents every byte. Layers, bottom up:
//!
//! - [`crc`] and [`cobs`]: checksum and byte stuffing;
//! - [`message`]: the message catalogue and payload layouts;
//! - [`frame`]: one-shot [`encode`] / [`decode_frame`]; [`Decoder`] for byte streams;
//! - [`seq`], [`rx`], [`window`], [`timing`]: sequence numbers, duplicate detection,
//!   retransmission and timers, all pure (the caller passes the time in ms);
//! - [`FirmwareLink`] and [`HostLink`]: the two ends of a session.
//!
//! Host side, in outline (`write` is the serial port):
//!
//! ```
//! use firmware_protocol::{Decoder, HostInbound, HostLink, Message, MAX_WIRE_LEN};
//! # let mut write = |_bytes: &[u8]| {};
//! # let now = 0;
//! let mut link = HostLink::<16>::new(now);
//! let mut decoder = Decoder::new();
//! let mut out = [0u8; MAX_WIRE_LEN];
//! let len = link.start_handshake(now, &mut out).expect("buffer is large enough");
//! write(&out[..len]);
//! // For each chunk read from the port:
//! # let chunk: &[u8] = &[];
//! for frame in decoder.feed(chunk).flatten() {
//!     match link.on_frame(&frame) {
//!         HostInbound::DeliverAndAck(message) => {
//!             // act on MoveDone / Event / ConfigureReply, then:
//!             let len = link.ack(now, &mut out).expect("ack");
//!             write(&out[..len]);
//!         }
//!         HostInbound::AckOnly => { /* same ack, nothing to act on */ }
//!         HostInbound::Deliver(message) => { /* HelloReply, Status, Nak, Boot… */ }
//!         HostInbound::Ignore => {}
//!     }
//! }
//! // Every few ms: resend what is due, keep the link alive.
//! while let Some(seq) = link.due_for_retransmit(now) {
//!     let len = link.retransmit(seq, now, &mut out).expect("retransmit");
//!     write(&out[..len]);
//! }
//! if link.heartbeat_due(now) {
//!     let len = link.send(&Message::QueryStatus, now, &mut out).expect("heartbeat");
//!     write(&out[..len]);
//! }
//! ```
//!
//! Firmware side, per received frame:
//!
//! ```
//! use firmware_protocol::{Decoder, FirmwareLink, Inbound, Message, MAX_WIRE_LEN};
//! # let mut write = |_bytes: &[u8]| {};
//! # let (now, queue_free) = (0, 4);
//! let mut link = FirmwareLink::<8>::new(8, now);
//! let mut decoder = Decoder::new();
//! let mut out = [0u8; MAX_WIRE_LEN];
//! # let byte = 0u8;
//! if let Some(result) = decoder.push(byte) {
//!     let reply = match result {
//!         Err(error) => Some(link.nak_for_decode_error(&error)),
//!         Ok(frame) => match link.on_frame(&frame, queue_free, now) {
//!             Inbound::Execute(message) => None, // run it; reply HelloReply/Status/Pong/Ack…
//!             Inbound::Duplicate => Some(Message::Ack { free_slots: queue_free }),
//!             Inbound::Refuse { seq, reason } => Some(Message::Nak { seq, reason }),
//!             Inbound::Ignore => None,
//!         },
//!     };
//!     if let Some(reply) = reply {
//!         let len = link.send(&reply, now, &mut out).expect("reply");
//!         write(&out[..len]);
//!     }
//! }
//! ```
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
    decode_content, decode_frame, encode, encode_content, Frame, Header, MAX_ENCODED_LEN,
    MAX_FRAME_LEN, MAX_PAYLOAD_LEN, MAX_WIRE_LEN, PROTOCOL_VERSION,
};
pub use host_link::{HostInbound, HostLink, HostPhase, HOST_FREE_SLOTS};
pub use message::{Message, MessageType};
pub use rx::{RxTracker, RxVerdict};
pub use seq::{Seq, MAX_WINDOW};
pub use window::TxWindow;
