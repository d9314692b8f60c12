//! The daemon's view of the link: open it (handshake included), send queued commands,
//! emergency-stop, query the status, and receive events.

use super::clock::Clock;
use super::error::LinkError;
use super::events::{Connected, LinkEvent, LinkRequest, LinkSettings};
use super::task::LinkTask;
use super::transport::Connector;
use crate::robot::wiring::RobotSetup;
use crate::robot::MotionGroup;
use cubed_core::error_chain::error_chain;
use firmware_protocol::message::Status;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// Emergency stop of a link, usable while another task streams on it.
#[derive(Clone, Debug)]
pub struct EStopHandle(mpsc::UnboundedSender<()>);

impl EStopHandle {
    /// As [`LinkHandle::emergency_stop`].
    pub fn emergency_stop(&self) -> Result<(), LinkError> {
        self.0.send(()).map_err(|_| LinkError::Closed)
    }
}

/// A running link: owns the tokio task that owns the port.
pub struct LinkHandle {
    requests: mpsc::UnboundedSender<LinkRequest>,
    estop: mpsc::UnboundedSender<()>,
    events: mpsc::UnboundedReceiver<LinkEvent>,
    task: JoinHandle<()>,
    last_move_id: Option<u32>,
    /// Clears asked for that the firmware has not yet taken: until it has, the e-stop and
    /// faults it reports are from before the clear, and are not passed on.
    clears_untaken: usize,
    pub connected: Connected,
}

impl LinkHandle {
    /// Opens the port, handshakes (protocol version) and configures the firmware (checksum).
    /// Fails with a precise error if the firmware is of another version or configuration.
    pub async fn open(
        connector: Arc<dyn Connector>,
        setup: RobotSetup,
        settings: LinkSettings,
        clock: Arc<dyn Clock>,
    ) -> Result<LinkHandle, LinkError> {
        let (request_tx, request_rx) = mpsc::unbounded_channel();
        let (estop_tx, estop_rx) = mpsc::unbounded_channel();
        let (event_tx, event_rx) = mpsc::unbounded_channel();
        let (ready_tx, ready_rx) = oneshot::channel();
        let task = LinkTask::new(connector, setup, settings, clock, event_tx);
        let task = tokio::spawn(task.run(request_rx, estop_rx, ready_tx));
        let connected = ready_rx.await.map_err(|_| LinkError::Closed)??;
        Ok(LinkHandle {
            requests: request_tx,
            estop: estop_tx,
            events: event_rx,
            task,
            last_move_id: None,
            clears_untaken: 0,
            connected,
        })
    }

    /// Queues a command; it is sent when the firmware has room. Move ids must increase.
    pub fn send(&mut self, group: MotionGroup) -> Result<(), LinkError> {
        let given = group.move_id();
        if let Some(previous) = self.last_move_id.filter(|&p| given <= p) {
            return Err(LinkError::MoveIdNotIncreasing { previous, given });
        }
        self.last_move_id = Some(given);
        self.requests
            .send(LinkRequest::Send(group))
            .map_err(|_| LinkError::Closed)
    }

    /// Emergency stop: sent at once, ahead of anything queued, repeated until the firmware
    /// confirms; commands not yet run are dropped ([`LinkEvent::EStopped`]).
    pub fn emergency_stop(&self) -> Result<(), LinkError> {
        self.estop.send(()).map_err(|_| LinkError::Closed)
    }

    /// A handle that can emergency-stop this link from anywhere (another task, a signal handler).
    pub fn estop_handle(&self) -> EStopHandle {
        EStopHandle(self.estop.clone())
    }

    /// Clears a latched fault or e-stop (the robot must be homed again). An e-stop or fault
    /// the firmware reported before it took the clear is not passed on as an event.
    pub fn clear_fault(&mut self) -> Result<(), LinkError> {
        self.requests
            .send(LinkRequest::ClearFault)
            .map_err(|_| LinkError::Closed)?;
        self.clears_untaken += 1;
        Ok(())
    }

    /// Asks the firmware for its status.
    pub async fn status(&self) -> Result<Status, LinkError> {
        let (tx, rx) = oneshot::channel();
        self.requests
            .send(LinkRequest::Status(tx))
            .map_err(|_| LinkError::Closed)?;
        rx.await.map_err(|_| LinkError::Closed)
    }

    /// The status as text for diagnostics, or why it could not be had within 1 s.
    pub async fn status_now(&self) -> String {
        match tokio::time::timeout(Duration::from_secs(1), self.status()).await {
            Ok(Ok(status)) => format!(
                "state {:?}, last completed move {}, {} command(s) queued",
                status.state, status.last_completed_move_id, status.queue_used
            ),
            Ok(Err(e)) => error_chain(&e),
            Err(_) => "no Status within 1 s".into(),
        }
    }

    /// The next event; `None` once the task has ended and every event was read.
    pub async fn next_event(&mut self) -> Option<LinkEvent> {
        loop {
            let event = self.events.recv().await?;
            if let Some(event) = self.unless_cleared(event) {
                return Some(event);
            }
        }
    }

    /// The events already waiting, without waiting for more (e.g. refusals of commands that
    /// were in flight when a fault latched, before a new program starts).
    pub fn take_waiting_events(&mut self) -> Vec<LinkEvent> {
        std::iter::from_fn(|| self.events.try_recv().ok())
            .collect::<Vec<_>>()
            .into_iter()
            .filter_map(|event| self.unless_cleared(event))
            .collect()
    }

    /// `event`, unless it is an e-stop or fault from before a clear the firmware has taken
    /// since, or the news that it took one.
    fn unless_cleared(&mut self, event: LinkEvent) -> Option<LinkEvent> {
        match event {
            LinkEvent::FaultCleared => {
                self.clears_untaken = self.clears_untaken.saturating_sub(1);
                None
            }
            LinkEvent::EStopped { .. } | LinkEvent::Fault(_) if self.clears_untaken > 0 => None,
            LinkEvent::Stopped { .. } => {
                self.clears_untaken = 0;
                Some(event)
            }
            other => Some(other),
        }
    }

    /// Closes the port and ends the task.
    pub async fn shutdown(self) {
        let _ = self.requests.send(LinkRequest::Shutdown);
        let _ = self.task.await;
    }
}
