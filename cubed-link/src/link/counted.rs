//! What the link counts for the daemon's Prometheus metrics: frames sent again, and frames with
//! a bad CRC by direction. Process-wide; the daemon's registry (`cubed::metrics`) serves them.

use prometheus::{IntCounter, IntCounterVec, Opts};
use std::sync::OnceLock;

/// The link's counters.
pub struct LinkCounters {
    /// `cubed_link_retransmits_total`.
    pub retransmits: IntCounter,
    /// `cubed_link_crc_errors_total{direction}`: `to_robot` when the firmware Nak'd ours,
    /// `from_robot` for one we received.
    pub crc_errors: IntCounterVec,
}

/// The process's link counters.
pub fn counters() -> &'static LinkCounters {
    static COUNTERS: OnceLock<LinkCounters> = OnceLock::new();
    COUNTERS.get_or_init(|| LinkCounters {
        // Constant, valid names and help: these cannot fail.
        retransmits: IntCounter::new(
            "cubed_link_retransmits_total",
            "Frames sent to the robot again (timeout or Nak).",
        )
        .expect("a valid counter"),
        crc_errors: IntCounterVec::new(
            Opts::new(
                "cubed_link_crc_errors_total",
                "Frames with a bad CRC, by direction (to_robot: the firmware Nak'd ours; from_robot: ours to decode).",
            ),
            &["direction"],
        )
        .expect("a valid counter"),
    })
}

pub(crate) fn retransmitted(frames: u64) {
    counters().retransmits.inc_by(frames);
}

/// A frame with a bad CRC: `to_robot` when the firmware says so, else one we received.
pub(crate) fn crc_error(to_robot: bool) {
    let direction = if to_robot { "to_robot" } else { "from_robot" };
    counters().crc_errors.with_label_values(&[direction]).inc();
}
