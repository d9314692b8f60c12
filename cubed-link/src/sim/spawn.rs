//! Running a simulator in-process over a pty (tests, benchmarks, the soak): the host finds
//! it through a `SharedPath` that follows every reopened pty.

use super::faults::FaultPlan;
use super::firmware::SimFirmware;
use super::mechanics::Mechanics;
use super::pty::{serve, Control, ServeCounts, ServeOptions, Served};
use crate::link::SharedPath;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// A simulator running on the current tokio runtime.
pub struct RunningSim<M: Mechanics> {
    pub path: SharedPath,
    pub controls: mpsc::UnboundedSender<Control>,
    pub task: JoinHandle<std::io::Result<Served<M>>>,
    /// What has happened so far (see [`ServeOptions::counts`]).
    pub counts: Arc<ServeCounts>,
}

impl<M: Mechanics + Send + 'static> RunningSim<M> {
    /// Starts serving `firmware`; returns once its first pty exists.
    pub async fn start(
        firmware: SimFirmware<M>,
        faults: FaultPlan,
        seed: u64,
    ) -> std::io::Result<RunningSim<M>> {
        let path = SharedPath::new(PathBuf::new());
        let (first_tx, mut first_rx) = mpsc::unbounded_channel();
        let announce = path.clone();
        let counts = Arc::new(ServeCounts::default());
        let options = ServeOptions {
            counts: Arc::clone(&counts),
            faults,
            seed,
            on_path: Box::new(move |p| {
                announce.set(p.map(Path::to_path_buf).unwrap_or_default());
                let _ = first_tx.send(());
            }),
            on_fault: None,
        };
        let (controls, control_rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(serve(firmware, options, control_rx));
        if first_rx.recv().await.is_none() {
            return match task.await {
                Ok(Err(e)) => Err(e),
                _ => Err(std::io::Error::other(
                    "simulator stopped before opening a pty",
                )),
            };
        }
        Ok(RunningSim {
            path,
            controls,
            task,
            counts,
        })
    }

    /// Stops the simulator and returns its firmware and counts.
    pub async fn stop(self) -> std::io::Result<Served<M>> {
        let _ = self.controls.send(Control::Shutdown);
        self.task.await.map_err(std::io::Error::other)?
    }
}
