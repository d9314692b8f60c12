//! The link's handshake under trouble, over real pseudo-terminals: byte noise of 3 % (every handshake must succeed), a firmware that answers `Hello` but never confirms the configuration (the error names that stage, after the retries), and refusals an earlier session left unread on the port (they refuse nothing of the next).

use crate::common::{four_arm, runtime};
use cubed::cube::FaceletCube;
use cubed::link::{LinkError, LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::{ActuatorMap, RobotModel};
use cubed::sim::faults::FaultPlan;
use cubed::sim::spawn::RunningSim;
use cubed::sim::{PhysicsMechanics, SimFirmware};
use firmware_protocol::message::{FirmwareVersion, HelloReply};
use firmware_protocol::{encode, Decoder, Frame, Message, Seq, MAX_WIRE_LEN, PROTOCOL_VERSION};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[test]
fn every_handshake_succeeds_at_three_percent_byte_noise() {
    let model = four_arm();
    let map = ActuatorMap::new(&model).expect("fits");
    // Each handshake mostly waits (on retries after a corrupted frame), so the 25 run at once,
    // each on a simulator and a pseudo-terminal of its own.
    let failures = runtime().block_on(async {
        let mut handshakes = tokio::task::JoinSet::new();
        for seed in 1..=25 {
            handshakes.spawn(handshake_through_noise(model.clone(), map.clone(), seed));
        }
        let mut failures = Vec::new();
        while let Some(done) = handshakes.join_next().await {
            if let Err(failure) = done.expect("a handshake's task ends without panicking") {
                failures.push(failure);
            }
        }
        failures
    });
    assert!(failures.is_empty(), "{failures:#?}");
}

/// One handshake with the simulator on a port whose bytes are corrupted at 3 %.
async fn handshake_through_noise(
    model: RobotModel,
    map: ActuatorMap,
    seed: u64,
) -> Result<(), String> {
    let mechanics = PhysicsMechanics::new(model.clone(), map, &FaceletCube::default());
    let sim = RunningSim::start(
        SimFirmware::new(mechanics, 0.0, 0).expect("the four-arm board"),
        FaultPlan::parse("corrupt=0.03").expect("faults"),
        seed,
    )
    .await
    .expect("THIS TEST NEEDS PSEUDO-TERMINALS (/dev/ptmx); none could be opened here");
    let connector = Arc::new(SerialConnector::new(sim.path.clone(), 115_200));
    let opened = LinkHandle::open(
        connector,
        crate::common::setup_for(&model),
        LinkSettings::default(),
        Arc::new(TokioClock::new()),
    )
    .await;
    let result = match opened {
        Ok(link) => {
            link.shutdown().await;
            Ok(())
        }
        Err(e) => Err(format!("seed {seed}: {e}")),
    };
    let served = sim.stop().await.expect("the simulator stops");
    assert!(
        served.injected.bytes_corrupted > 0,
        "seed {seed}: no noise injected"
    );
    result
}

/// A v2 `HelloReply` frame, as a firmware that does nothing else would send it.
fn hello_reply() -> Vec<u8> {
    let reply = HelloReply {
        protocol_version: PROTOCOL_VERSION,
        firmware_version: FirmwareVersion {
            major: 0,
            minor: 1,
            patch: 0,
        },
        queue_depth: 32,
        rx_window: 8,
        firmware_name: *b"mute-configure\0\0",
    };
    let mut out = [0u8; MAX_WIRE_LEN];
    let len = encode(
        &Frame::unsequenced(Seq(0), Message::HelloReply(reply)),
        &mut out,
    )
    .expect("encodes");
    out[..len].to_vec()
}

#[test]
fn a_firmware_that_never_confirms_the_configuration_is_named_as_that_stage() {
    runtime().block_on(async {
        let pty = cubed::sim::pty::open_pty()
            .expect("THIS TEST NEEDS PSEUDO-TERMINALS (/dev/ptmx); none could be opened here");
        let path = pty.path.clone();
        let mut master = pty.master;
        let reply = hello_reply();
        // Answers every Hello, ignores everything else (a Configure is never confirmed).
        let mute = tokio::spawn(async move {
            let (mut decoder, mut buf, mut hellos) = (Decoder::new(), [0u8; 512], 0u32);
            loop {
                let Ok(n) = master.read(&mut buf).await else {
                    return hellos;
                };
                if n == 0 {
                    return hellos;
                }
                let frames: Vec<_> = decoder.feed(&buf[..n]).flatten().collect();
                for frame in frames {
                    if matches!(frame.message, Message::Hello { .. }) {
                        hellos += 1;
                        if master.write_all(&reply).await.is_err() {
                            return hellos;
                        }
                    }
                }
            }
        });
        let connector = Arc::new(SerialConnector::new(cubed::link::FixedPath(path), 115_200));
        let settings = LinkSettings {
            handshake_timeout: Duration::from_millis(300),
            ..LinkSettings::default()
        };
        let result = LinkHandle::open(
            connector,
            crate::common::setup_for(&four_arm()),
            settings,
            Arc::new(TokioClock::new()),
        )
        .await;
        mute.abort();
        let Err(error) = result else {
            panic!("a firmware that never confirms the configuration must be refused");
        };
        let LinkError::NoConfigureReply { attempts, .. } = &error else {
            panic!("the configuration stage must be named: {error:?}");
        };
        assert_eq!(*attempts, 4, "{error}");
        let text = error.to_string();
        assert!(text.contains("no ConfigureReply"), "{text}");
        assert!(!text.contains("no HelloReply"), "{text}");
    });
}

/// Reads `stale` first (what the port still held of an earlier session when this host
/// opened it), then the port.
struct StaleFirst {
    stale: Vec<u8>,
    port: Box<dyn cubed::link::Transport>,
}

impl tokio::io::AsyncRead for StaleFirst {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        if self.stale.is_empty() {
            return std::pin::Pin::new(&mut self.port).poll_read(cx, buf);
        }
        let n = self.stale.len().min(buf.remaining());
        buf.put_slice(&self.stale[..n]);
        self.stale.drain(..n);
        std::task::Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncWrite for StaleFirst {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.port).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.port).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.port).poll_shutdown(cx)
    }
}

/// The simulator's port, whose first opening reads what an earlier session left.
struct LeftoverConnector {
    serial: SerialConnector,
    leftover: std::sync::Mutex<Vec<u8>>,
}

impl cubed::link::Connector for LeftoverConnector {
    fn connect(&self) -> Result<(Box<dyn cubed::link::Transport>, std::path::PathBuf), LinkError> {
        let (port, path) = self.serial.connect()?;
        let stale = std::mem::take(&mut *self.leftover.lock().expect("leftover lock"));
        Ok((Box::new(StaleFirst { stale, port }), path))
    }
}

/// A `cubed exec` refused at its configuration (an e-stop latched) leaves the refusals of
/// its later frames unread; the next session may read them before its `HelloReply`. They
/// refuse nothing of that session: its program runs.
#[test]
fn refusals_left_by_an_earlier_session_refuse_nothing_of_the_next() {
    let model = four_arm();
    let map = ActuatorMap::new(&model).expect("fits");
    runtime().block_on(async {
        let mechanics = PhysicsMechanics::new(model.clone(), map.clone(), &FaceletCube::default());
        let sim = RunningSim::start(
            SimFirmware::new(mechanics, 0.0, 0).expect("the four-arm board"),
            FaultPlan::default(),
            1,
        )
        .await
        .expect("THIS TEST NEEDS PSEUDO-TERMINALS (/dev/ptmx); none could be opened here");
        let mut leftover = Vec::new();
        for seq in 1..=10 {
            let nak = Message::Nak {
                seq: Seq(seq),
                reason: firmware_protocol::message::NakReason::BadState,
            };
            let mut out = [0u8; MAX_WIRE_LEN];
            let len = encode(&Frame::unsequenced(Seq(0), nak), &mut out).expect("encodes");
            leftover.extend_from_slice(&out[..len]);
        }
        let connector = Arc::new(LeftoverConnector {
            serial: SerialConnector::new(sim.path.clone(), 115_200),
            leftover: std::sync::Mutex::new(leftover),
        });
        let mut link = LinkHandle::open(
            connector,
            crate::common::setup_for(&model),
            LinkSettings::default(),
            Arc::new(TokioClock::new()),
        )
        .await
        .expect("handshake");
        let groups = [cubed::robot::MotionGroup::Home {
            move_id: 1,
            mask: map.home_mask(),
        }];
        for group in groups {
            link.send(group).expect("queued");
        }
        // Past the time a refusal is held for the fault that would explain it.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let mut events = Vec::new();
        while let Ok(Some(event)) = tokio::time::timeout_at(deadline, link.next_event()).await {
            events.push(event);
        }
        let refused = events
            .iter()
            .any(|e| matches!(e, cubed::link::LinkEvent::Refused { .. }));
        assert!(
            !refused,
            "a leftover refusal was taken as this session's: {events:?}"
        );
        let homed = events
            .iter()
            .any(|e| matches!(e, cubed::link::LinkEvent::MoveDone { move_id: 1, .. }));
        assert!(homed, "the session's homing ran: {events:?}");
        link.shutdown().await;
        sim.stop().await.expect("sim stops");
    });
}
