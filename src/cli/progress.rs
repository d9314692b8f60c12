//! Says on stderr how far a long planning-graph build has got (a large robot design takes
//! minutes and much memory to explore), so a command never sits silent for that long.

use std::time::{Duration, Instant};

/// A build shorter than this is not mentioned.
const QUIET_FOR: Duration = Duration::from_secs(3);
/// Time between two progress lines.
const EVERY: Duration = Duration::from_secs(10);

/// Watches for planning-graph builds from a background thread for the life of the process.
pub(crate) fn say_long_graph_builds() {
    let watcher = std::thread::Builder::new().name("graph-progress".into());
    let _ = watcher.spawn(|| {
        let (mut began, mut said): (Option<Instant>, Option<Instant>) = (None, None);
        loop {
            std::thread::sleep(Duration::from_millis(250));
            let Some((robot, explored, found)) = crate::robot::graph_build_progress() else {
                (began, said) = (None, None);
                continue;
            };
            let began = *began.get_or_insert_with(Instant::now);
            let due = said.map_or(began.elapsed() >= QUIET_FOR, |s| s.elapsed() >= EVERY);
            if due {
                eprintln!(
                    "cubed: exploring every state of robot '{robot}' for planning: {explored} of {found} found so far, {} s (a design with many actuators takes minutes and gigabytes; once per run)",
                    began.elapsed().as_secs()
                );
                said = Some(Instant::now());
            }
        }
    });
}
