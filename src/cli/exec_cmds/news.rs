//! What `cubed exec` tells a person watching it about the link (lost, restored, buttons), and its wait for a port that is not there yet.

use crate::link::LinkEvent;
use std::time::Duration;

/// What a person watching `exec` should read about `event`, if anything.
pub(super) fn link_news(event: &LinkEvent) -> Option<String> {
    match event {
        LinkEvent::LinkLost { path, reason } => {
            Some(format!("link lost on {}: {reason}", path.display()))
        }
        LinkEvent::LinkRestored {
            path,
            last_completed_move_id,
            completed_meanwhile,
        } => Some(format!(
            "link restored on {}: {} while it was away (firmware's last completed move: {last_completed_move_id})",
            path.display(),
            crate::words::count(*completed_meanwhile, "command completed", "commands completed"),
        )),
        LinkEvent::Button { button: 0 } => Some(
            "the start button ([board] button) was pressed: exec runs only its own program; the daemon (`cubed run`) starts a run on it".to_string(),
        ),
        LinkEvent::Button { button } => Some(format!("button {button} pressed (exec takes no buttons)")),
        LinkEvent::EStopButton { held: true } => Some("e-stop button held down".to_string()),
        LinkEvent::EStopButton { held: false } => {
            Some("e-stop button released (the stop stays latched until a reset)".to_string())
        }
        _ => None,
    }
}

/// How long `exec` waits for a port that is not there yet (a simulator just started, a robot
/// being plugged in).
pub(super) const PORT_APPEAR_SECS: u64 = 10;

/// Waits until `port` exists, up to `longest` (then opening it says what is missing).
pub(super) async fn wait_for_port(port: &std::path::Path, longest: Duration) {
    if port.exists() {
        return;
    }
    // A link left behind (a simulator killed, a board unplugged) comes back only when
    // something points it somewhere again: say where it points now.
    let gone = crate::link::dangling_link(port).map_or(String::new(), |to| {
        format!(" (it is a link to {}, which is gone)", to.display())
    });
    eprintln!(
        "cubed exec: waiting up to {} s for {}{gone} to appear",
        longest.as_secs(),
        port.display()
    );
    let began = tokio::time::Instant::now();
    while !port.exists() && began.elapsed() < longest {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
