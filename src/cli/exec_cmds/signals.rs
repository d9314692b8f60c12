//! Ctrl-C and SIGTERM during `cubed exec`: an emergency stop sent to the firmware, the exit status the signal calls for, and a second signal that quits at once.

use super::super::{EXIT_SIGINT, EXIT_SIGTERM};
use crate::link::EStopHandle;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use tokio::signal::unix::{signal, Signal, SignalKind};

/// On Ctrl-C or SIGTERM, sends the firmware an emergency stop (the program then ends with its
/// fault) and notes the exit status the signal calls for; a second one quits at once, for a
/// link that cannot carry it.
pub(super) async fn estop_on_interrupt(
    mut signals: Interrupts,
    estop: EStopHandle,
    interrupted: Arc<AtomicU8>,
) {
    loop {
        let code = tokio::select! {
            _ = signals.interrupt.recv() => EXIT_SIGINT,
            _ = signals.terminate.recv() => EXIT_SIGTERM,
        };
        if interrupted.swap(code, Ordering::SeqCst) != 0 {
            eprintln!("cubed exec: quitting without waiting for the robot: the emergency stop may not have reached it; press the robot's e-stop button if it still moves");
            std::process::exit(i32::from(code));
        }
        eprintln!("cubed exec: interrupted, sending an emergency stop (a second Ctrl-C quits without waiting)");
        if estop.emergency_stop().is_err() {
            eprintln!("cubed exec: the link is closed: the emergency stop could not be sent; use the robot's e-stop button");
        }
    }
}

/// Ctrl-C and SIGTERM, caught from the moment this is made.
pub(super) struct Interrupts {
    interrupt: Signal,
    terminate: Signal,
}

impl Interrupts {
    pub(super) fn catch() -> std::io::Result<Interrupts> {
        Ok(Interrupts {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }
}
