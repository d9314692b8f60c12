//! No byte sequence makes the firmware panic or break its invariants.

use crate::rig::{four_arm_configure, motion, rotate, Rig, ALL_EIGHT};
use cubed_firmware::examples::four_arm;
use firmware_protocol::message::FirmwareState;
use firmware_protocol::{encode, Frame, Message, Seq, MAX_WIRE_LEN};
use proptest::prelude::*;

fn valid_frames() -> Vec<Vec<u8>> {
    let messages = [
        Message::Hello {
            protocol_version: 1,
        },
        Message::Configure(four_arm_configure(150, 250)),
        Message::Home {
            move_id: 1,
            mask: ALL_EIGHT,
        },
        motion(2, &[rotate(1, 1), rotate(3, -1)]),
        Message::Dwell { move_id: 3, ms: 20 },
        Message::QueryStatus,
        Message::EmergencyStop,
        Message::ClearFault,
        Message::Ping { nonce: 9 },
    ];
    let mut frames = Vec::new();
    for (i, message) in messages.into_iter().enumerate() {
        let frame = if message.is_sequenced() {
            Frame::new(Seq(i as u8 % 4), Seq(0), message)
        } else {
            Frame::unsequenced(Seq(0), message)
        };
        let mut out = [0u8; MAX_WIRE_LEN];
        let len = encode(&frame, &mut out).expect("encodes");
        frames.push(out[..len].to_vec());
    }
    frames
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn no_panic_on_any_bytes_mixed_with_valid_frames(
        chunks in proptest::collection::vec((proptest::collection::vec(any::<u8>(), 0..40), 0usize..12, 0u64..50_000), 0..40),
    ) {
        let frames = valid_frames();
        let mut rig = Rig::new(four_arm());
        for (noise, pick, wait) in chunks {
            rig.send_bytes(&noise);
            if let Some(frame) = frames.get(pick) {
                rig.send_bytes(frame);
            }
            rig.run_until(rig.hw.now + wait);
            let status = rig.fw.status();
            prop_assert!(usize::from(status.queue_used) <= cubed_firmware::QUEUE_DEPTH);
            if status.state == FirmwareState::EStopped || status.state == FirmwareState::Faulted {
                prop_assert_eq!(status.queue_used, 0);
            }
        }
    }
}
