//! Fixed-capacity FIFOs: the command queue and the outgoing byte buffer.

use firmware_protocol::message::Motion;

/// A queued command (`Home`, `Motion`, `Dwell`), as accepted from the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Home the actuators of `mask`.
    Home {
        /// Echoed in `MoveDone`.
        move_id: u32,
        /// Bit `i`: actuator `i`.
        mask: u16,
    },
    /// Actions that start together.
    Motion(Motion),
    /// Wait.
    Dwell {
        /// Echoed in `MoveDone`.
        move_id: u32,
        /// Milliseconds.
        ms: u16,
    },
}

impl Command {
    /// The id echoed in `MoveDone`.
    pub const fn move_id(&self) -> u32 {
        match *self {
            Command::Home { move_id, .. } | Command::Dwell { move_id, .. } => move_id,
            Command::Motion(motion) => motion.move_id,
        }
    }
}

/// A ring buffer of at most `N` items, no allocation.
#[derive(Debug, Clone)]
pub struct Ring<T: Copy, const N: usize> {
    items: [Option<T>; N],
    head: usize,
    len: usize,
}

impl<T: Copy, const N: usize> Ring<T, N> {
    /// An empty ring.
    pub const fn new() -> Self {
        Ring {
            items: [None; N],
            head: 0,
            len: 0,
        }
    }

    /// Items held.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is held.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Free slots.
    pub const fn free(&self) -> usize {
        N - self.len
    }

    /// Appends `item`; gives it back if the ring is full.
    pub fn push(&mut self, item: T) -> Result<(), T> {
        if self.len == N {
            return Err(item);
        }
        self.items[(self.head + self.len) % N] = Some(item);
        self.len += 1;
        Ok(())
    }

    /// The oldest item.
    pub fn front(&self) -> Option<&T> {
        if self.len == 0 {
            return None;
        }
        self.items[self.head].as_ref()
    }

    /// Removes and returns the oldest item.
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.items[self.head].take();
        self.head = (self.head + 1) % N;
        self.len -= 1;
        item
    }

    /// Removes everything.
    pub fn clear(&mut self) {
        self.items = [None; N];
        self.head = 0;
        self.len = 0;
    }

    /// The items, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).filter_map(move |offset| self.items[(self.head + offset) % N].as_ref())
    }
}

impl<T: Copy, const N: usize> Default for Ring<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

/// Outgoing bytes. Whole frames only: a frame that does not fit is dropped (a
/// sequenced one is retransmitted later from the link's window).
#[derive(Debug, Clone)]
pub struct TxBuffer<const N: usize> {
    bytes: [u8; N],
    head: usize,
    len: usize,
    dropped_frames: u32,
}

impl<const N: usize> TxBuffer<N> {
    /// An empty buffer.
    pub const fn new() -> Self {
        TxBuffer {
            bytes: [0; N],
            head: 0,
            len: 0,
            dropped_frames: 0,
        }
    }

    /// Queues a whole frame, or drops it if it does not fit.
    pub fn push_frame(&mut self, frame: &[u8]) -> bool {
        if N - self.len < frame.len() {
            self.dropped_frames = self.dropped_frames.saturating_add(1);
            return false;
        }
        for &byte in frame {
            self.bytes[(self.head + self.len) % N] = byte;
            self.len += 1;
        }
        true
    }

    /// The next byte to send.
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let byte = self.bytes[self.head];
        self.head = (self.head + 1) % N;
        self.len -= 1;
        Some(byte)
    }

    /// Bytes waiting.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether no byte is waiting.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Frames dropped because the buffer was full.
    pub const fn dropped_frames(&self) -> u32 {
        self.dropped_frames
    }
}

impl<const N: usize> Default for TxBuffer<N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_is_fifo_and_bounded() {
        let mut ring: Ring<u8, 3> = Ring::new();
        for item in 1..=3 {
            assert_eq!(ring.push(item), Ok(()));
        }
        assert_eq!(ring.push(4), Err(4));
        assert_eq!(ring.pop(), Some(1));
        assert_eq!(ring.push(4), Ok(()));
        let mut seen = [0u8; 3];
        for (slot, item) in seen.iter_mut().zip(ring.iter()) {
            *slot = *item;
        }
        assert_eq!(seen, [2, 3, 4]);
        assert_eq!(ring.free(), 0);
    }

    #[test]
    fn tx_buffer_keeps_frames_whole() {
        let mut tx: TxBuffer<4> = TxBuffer::new();
        assert!(tx.push_frame(&[1, 2, 3]));
        assert!(!tx.push_frame(&[4, 5]));
        assert_eq!(tx.dropped_frames(), 1);
        assert_eq!(tx.pop(), Some(1));
        assert!(tx.push_frame(&[4, 5]));
        assert_eq!(
            (tx.pop(), tx.pop(), tx.pop(), tx.pop()),
            (Some(2), Some(3), Some(4), Some(5))
        );
        assert_eq!(tx.pop(), None);
    }
}
