//! The tokio task that owns the serial port and the protocol's `HostLink`: handshake,
//! streaming with queue credits, acks, retransmission, heartbeat, e-stop, and reconnection
//! after a lost port (keeping the session, so nothing is repeated or skipped).

use super::clock::Clock;
use super::error::LinkError;
use super::events::{Connected, LinkEvent, LinkRequest, LinkSettings};
use super::transport::{Connector, Transport};
use crate::robot::wiring::RobotSetup;
use crate::robot::MotionGroup;
use cubed_core::error_chain::error_chain;
use firmware_protocol::message::{ChipInfo, HelloReply, ResetCause, Status};
use firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS;
use firmware_protocol::{Decoder, HostLink, Message};
use progress::Progress;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::sync::{mpsc, oneshot};

mod handshake;
mod held_refusal;
mod incoming;
mod progress;
mod recovery;

/// Retransmit window capacity (the usable window is the firmware's `rx_window` if smaller).
pub(crate) const WINDOW: usize = 32;
/// How often timers are checked when nothing arrives.
const TICK: Duration = Duration::from_millis(5);
/// Without any acknowledgement progress for this long the link counts as lost.
const STALL_MS: u64 = RETRANSMIT_TIMEOUT_MS * firmware_protocol::timing::MAX_RETRANSMISSIONS as u64;
/// How long a write may block before the port counts as lost.
const WRITE_STALL: Duration = Duration::from_secs(1);
/// Least time between early retransmissions triggered by a `Nak`.
const NAK_RESEND_SPACING_MS: u64 = 30;

enum Stage {
    Hello {
        started: u64,
        last_sent: u64,
    },
    Configuring {
        started: u64,
    },
    Running,
    Reconnecting {
        since: u64,
        last_try: u64,
    },
    Verifying {
        since: u64,
        attempt: u64,
        last_query: u64,
    },
}

struct Port {
    reader: ReadHalf<Box<dyn Transport>>,
    writer: WriteHalf<Box<dyn Transport>>,
}

enum Wake {
    EStop,
    Read(std::io::Result<usize>),
    Request(Option<LinkRequest>),
    Tick,
}

pub(crate) struct LinkTask {
    connector: Arc<dyn Connector>,
    setup: RobotSetup,
    checksum: u16,
    settings: LinkSettings,
    clock: Arc<dyn Clock>,
    events: mpsc::UnboundedSender<LinkEvent>,
    link: HostLink<WINDOW>,
    decoder: Decoder,
    port: Option<Port>,
    path: PathBuf,
    outbox: Vec<u8>,
    stage: Stage,
    pending: VecDeque<MotionGroup>,
    pending_control: VecDeque<Message>,
    outstanding: BTreeSet<u32>,
    /// Moves the firmware reported done after a reopen, before its Status confirmed the
    /// session: reported after the restore.
    done_before_restore: Vec<u32>,
    /// Highest move id reported done, and highest sent, in this session.
    highest_done: u32,
    highest_sent: u32,
    /// The firmware's last completed move as the handshake found it (an earlier session's).
    done_at_handshake: u32,
    /// When the host's oldest unacked frame last made progress (or none was unacked).
    pub(super) last_progress: u64,
    seq_moves: HashMap<u8, u32>,
    status_waiters: Vec<oneshot::Sender<Status>>,
    estop_last_sent: Option<u64>,
    /// Sequence numbers of ClearFault frames sent and not yet acknowledged.
    clears_unacked: Vec<u8>,
    last_nak_resend: u64,
    hello: Option<HelloReply>,
    /// What the firmware's chip offers (its `BoardInfo`), once it said.
    pub(super) chip: Option<ChipInfo>,
    /// Why the firmware last started, from its `Event Boot` (best effort: a board that
    /// started long before the port was opened has said it to nobody).
    pub(super) boot_cause: Option<ResetCause>,
    ready: Option<oneshot::Sender<Result<Connected, LinkError>>>,
    /// How the handshake is going (`handshake.rs`).
    handshake: Progress,
    /// Refusals for the firmware's state: explained by a fault, or waiting for one.
    refusals: held_refusal::Refusals,
    /// The e-stop switch's level last told (`LinkEvent::EStopButton`), once the handshake
    /// said it.
    estop_held: Option<bool>,
}

impl LinkTask {
    pub(crate) fn new(
        connector: Arc<dyn Connector>,
        setup: RobotSetup,
        settings: LinkSettings,
        clock: Arc<dyn Clock>,
        events: mpsc::UnboundedSender<LinkEvent>,
    ) -> LinkTask {
        let now = clock.now_ms();
        LinkTask {
            connector,
            checksum: setup.configure.checksum().unwrap_or(0),
            setup,
            chip: None,
            settings,
            clock,
            events,
            link: HostLink::new(now),
            decoder: Decoder::new(),
            port: None,
            path: PathBuf::new(),
            outbox: Vec::new(),
            stage: Stage::Hello {
                started: now,
                last_sent: now,
            },
            pending: VecDeque::new(),
            pending_control: VecDeque::new(),
            outstanding: BTreeSet::new(),
            done_before_restore: Vec::new(),
            highest_done: 0,
            highest_sent: 0,
            done_at_handshake: 0,
            last_progress: now,
            seq_moves: HashMap::new(),
            status_waiters: Vec::new(),
            estop_last_sent: None,
            boot_cause: None,
            clears_unacked: Vec::new(),
            last_nak_resend: 0,
            hello: None,
            ready: None,
            handshake: Progress::new(now),
            refusals: held_refusal::Refusals::default(),
            estop_held: None,
        }
    }

    pub(crate) async fn run(
        mut self,
        mut requests: mpsc::UnboundedReceiver<LinkRequest>,
        mut estop: mpsc::UnboundedReceiver<()>,
        ready: oneshot::Sender<Result<Connected, LinkError>>,
    ) {
        self.ready = Some(ready);
        let result = self.serve(&mut requests, &mut estop).await;
        self.port = None;
        match (self.ready.take(), result) {
            (Some(ready), Err(error)) => {
                let _ = ready.send(Err(self.with_what_was_cleared(error)));
            }
            (_, result) => self.emit(LinkEvent::Stopped {
                error: result.err(),
            }),
        }
    }

    fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    fn emit(&self, event: LinkEvent) {
        let _ = self.events.send(event);
    }

    async fn serve(
        &mut self,
        requests: &mut mpsc::UnboundedReceiver<LinkRequest>,
        estop: &mut mpsc::UnboundedReceiver<()>,
    ) -> Result<(), LinkError> {
        self.open_port()?;
        self.begin_hello();
        let mut buf = vec![0u8; 4096];
        loop {
            self.on_timers()?;
            self.flush().await;
            let woke = tokio::select! {
                biased;
                Some(()) = estop.recv() => Wake::EStop,
                read = read_some(&mut self.port, &mut buf) => Wake::Read(read),
                request = requests.recv() => Wake::Request(request),
                _ = tokio::time::sleep(TICK) => Wake::Tick,
            };
            match woke {
                Wake::EStop => self.start_estop(),
                Wake::Read(Ok(0)) => self.lose("hang-up: the port closed (unplugged?)".into()),
                Wake::Read(Ok(n)) => self.on_bytes(&buf[..n])?,
                Wake::Read(Err(e)) => self.lose(error_chain(&e)),
                Wake::Request(None | Some(LinkRequest::Shutdown)) => return Ok(()),
                Wake::Request(Some(request)) => self.on_request(request),
                Wake::Tick => {}
            }
        }
    }

    fn open_port(&mut self) -> Result<(), LinkError> {
        let (transport, path) = self.connector.connect()?;
        let (reader, writer) = tokio::io::split(transport);
        self.port = Some(Port { reader, writer });
        self.path = path;
        self.decoder.reset();
        Ok(())
    }

    async fn flush(&mut self) {
        if self.outbox.is_empty() {
            return;
        }
        let bytes = std::mem::take(&mut self.outbox);
        let Some(port) = self.port.as_mut() else {
            return;
        };
        match tokio::time::timeout(WRITE_STALL, port.writer.write_all(&bytes)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => self.lose(error_chain(&e)),
            Err(_) => self.lose(format!(
                "a write blocked for {} ms: the device does not read",
                WRITE_STALL.as_millis()
            )),
        }
    }

    /// Encodes `message` into the outbox (sequenced ones are kept for retransmission).
    fn emit_frame(&mut self, message: &Message) -> Result<(), LinkError> {
        let mut out = [0u8; firmware_protocol::MAX_WIRE_LEN];
        let len = self.link.send(message, self.now(), &mut out)?;
        self.outbox.extend_from_slice(&out[..len]);
        Ok(())
    }

    fn on_timers(&mut self) -> Result<(), LinkError> {
        let now = self.now();
        match self.stage {
            Stage::Hello { started, last_sent } => self.on_hello_timers(now, started, last_sent),
            Stage::Configuring { started } => self.on_configuring_timers(now, started),
            Stage::Running => self.on_running_timers(now),
            Stage::Reconnecting { since, last_try } => self.try_reconnect(now, since, last_try),
            Stage::Verifying {
                since,
                attempt,
                last_query,
            } => self.on_verifying_timers(now, since, attempt, last_query),
        }
    }

    fn on_running_timers(&mut self, now: u64) -> Result<(), LinkError> {
        if self.link.unacked() == 0 {
            self.last_progress = now;
        }
        // The protocol's rule (20 unanswered retransmissions, about 2 s), measured here so
        // that it starts afresh after a reconnect.
        if now.saturating_sub(self.last_progress) > STALL_MS {
            self.lose(format!("no acknowledgement for {STALL_MS} ms"));
            return Ok(());
        }
        self.repeat_estop(now)?;
        self.release_held_refusal(now);
        self.retransmit_due(now)?;
        self.send_pending()?;
        if self.link.heartbeat_due(now) {
            self.emit_frame(&Message::QueryStatus)?;
        }
        Ok(())
    }

    fn retransmit_due(&mut self, now: u64) -> Result<(), LinkError> {
        let mut out = [0u8; firmware_protocol::MAX_WIRE_LEN];
        while let Some(seq) = self.link.due_for_retransmit(now) {
            let len = self.link.retransmit(seq, now, &mut out)?;
            self.outbox.extend_from_slice(&out[..len]);
            crate::link::counted::retransmitted(1);
        }
        Ok(())
    }

    fn send_pending(&mut self) -> Result<(), LinkError> {
        if self.estop_last_sent.is_some() {
            return Ok(());
        }
        while let Some(message) = self.pending_control.front().copied() {
            if self.link.check_can_send(&message).is_err() {
                return Ok(());
            }
            self.emit_frame(&message)?;
            self.pending_control.pop_front();
            if message == Message::ClearFault {
                self.clear_sent();
            }
        }
        while let Some(group) = self.pending.front().copied() {
            let message = group.to_message();
            if self.link.check_can_send(&message).is_err() {
                break;
            }
            self.emit_frame(&message)?;
            self.pending.pop_front();
            self.highest_sent = self.highest_sent.max(group.move_id());
            if let Some((seq, _)) = self.link.unacked_messages().last() {
                self.seq_moves.insert(seq.0, group.move_id());
            }
        }
        Ok(())
    }

    fn on_request(&mut self, request: LinkRequest) {
        match request {
            LinkRequest::Send(group) => {
                self.outstanding.insert(group.move_id());
                self.pending.push_back(group);
            }
            LinkRequest::ClearFault => self.pending_control.push_back(Message::ClearFault),
            LinkRequest::Status(reply) => {
                self.status_waiters.push(reply);
                let _ = self.emit_frame(&Message::QueryStatus);
            }
            LinkRequest::Shutdown => {}
        }
    }
}

async fn read_some(port: &mut Option<Port>, buf: &mut [u8]) -> std::io::Result<usize> {
    match port {
        Some(port) => port.reader.read(buf).await,
        None => std::future::pending().await,
    }
}
