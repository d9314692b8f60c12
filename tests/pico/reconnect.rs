//! The link finding the emulated Pico again after its cable was out, in a session that has sent no move yet: the firmware's last move is an earlier session's, as the handshake found it, and the session goes on.

use super::session::{four_arm_pico, four_rotations, home, next, open, run_all, FourArmPico};
use crate::common::runtime;
use cubed::link::{LinkEvent, LinkSettings};

/// One session homes and turns; the next, idle, loses the cable and gets it back: it is
/// restored (it ended "not the same firmware session; refusing to guess", the firmware's
/// last move being above the none this session had sent), and homes and turns after.
#[test]
fn an_idle_session_finds_the_board_again_after_an_earlier_sessions_moves() {
    let Some(FourArmPico { pico, map, .. }) =
        four_arm_pico("an idle reconnect on the emulated Pico", 14)
    else {
        return;
    };
    runtime().block_on(async {
        let mut first = open(&pico, &map, LinkSettings::default()).await;
        run_all(&mut first, &[home(&map, 1), four_rotations(2, 1)]).await;
        first.shutdown().await;
        // The port's return is waited for in wall time, which a busy machine stretches.
        let patient = LinkSettings {
            reconnect_timeout: std::time::Duration::from_secs(180),
            ..LinkSettings::default()
        };
        let mut idle = open(&pico, &map, patient).await;
        pico.unplug();
        loop {
            match next(&mut idle, 180).await {
                LinkEvent::LinkLost { .. } => break,
                LinkEvent::Stopped { error } => panic!("the link stopped: {error:?}"),
                _ => {}
            }
        }
        pico.plug();
        loop {
            match next(&mut idle, 180).await {
                LinkEvent::LinkRestored { .. } => break,
                LinkEvent::Stopped { error } => panic!("the link stopped: {error:?}"),
                _ => {}
            }
        }
        run_all(&mut idle, &[home(&map, 1), four_rotations(2, -1)]).await;
        idle.shutdown().await;
    });
}
