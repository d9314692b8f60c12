//! Firmware in the loop: the real firmware (firmware/boards/qemu, built by
//! firmware/build.sh) on QEMU's emulated Cortex-M3, driven by the real host link over
//! QEMU's serial pty: handshake, configure, a 20-turn program with every MoveDone, an
//! e-stop mid-program, ClearFault, re-home, and a second program.
//!
//! Needs `qemu-system-arm` and the ELF; without them the test says so loudly and
//! passes, unless `CUBED_REQUIRE_FIRMWARE=1` (firmware/ci.sh sets it): then it fails.

use crate::common::{four_arm, scrambled};
use cubed::link::{FixedPath, LinkEvent, LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::ActuatorMap;
use cubed::robot::MotionGroup;
use cubed::robot::{Program, RobotModel};
use firmware_protocol::message::{Fault, FirmwareState};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// The ELF within the target directory.
const ELF: &str = "thumbv7m-none-eabi/release/cubed-fw-qemu";

/// QEMU running the firmware; killed on drop.
struct Qemu {
    child: Child,
    pty: PathBuf,
}

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts QEMU, or explains why it cannot (the caller decides whether that fails).
fn start_qemu() -> Result<Qemu, String> {
    // Where firmware/build.sh puts it: $CARGO_TARGET_DIR, as cargo, else target/.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let elf = std::env::var_os("CUBED_FW_QEMU_ELF")
        .map(PathBuf::from)
        .unwrap_or_else(|| target.join(ELF));
    if !elf.is_file() {
        return Err(format!(
            "no firmware ELF at {} (run firmware/build.sh qemu)",
            elf.display()
        ));
    }
    let mut child = Command::new("qemu-system-arm")
        .args([
            "-M",
            "lm3s6965evb",
            "-nographic",
            "-monitor",
            "none",
            "-serial",
            "pty",
            "-kernel",
        ])
        .arg(&elf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("cannot start qemu-system-arm ({e}); apt-get install qemu-system-arm")
        })?;
    // "char device redirected to /dev/pts/N (label serial0)", on stdout or stderr.
    let streams: [Box<dyn std::io::Read + Send>; 2] =
        match (child.stdout.take(), child.stderr.take()) {
            (Some(out), Some(err)) => [Box::new(out), Box::new(err)],
            _ => return Err("qemu-system-arm without stdout/stderr pipes".into()),
        };
    let (tx, rx) = std::sync::mpsc::channel();
    for stream in streams {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if let Some(start) = line.find("/dev/pts/") {
                    let path: String = line[start..]
                        .chars()
                        .take_while(|c| !c.is_whitespace())
                        .collect();
                    let _ = tx.send(path);
                }
            }
        });
    }
    let mut qemu = Qemu {
        child,
        pty: PathBuf::new(),
    };
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(path) => qemu.pty = PathBuf::from(path),
        Err(_) => return Err("qemu-system-arm printed no /dev/pts/N within 10 s".into()),
    }
    Ok(qemu)
}

/// `Home` then the program, move ids from `first`.
fn groups(
    map: &ActuatorMap,
    model: &RobotModel,
    program: &Program,
    first: u32,
) -> Vec<MotionGroup> {
    let encoded = map
        .encode_program(program, &model.home(), first + 1)
        .expect("encodes");
    let mut groups = vec![MotionGroup::Home {
        move_id: first,
        mask: map.home_mask(),
    }];
    groups.extend(encoded.groups.into_iter().map(|(_, group)| group));
    groups
}

async fn next(link: &mut LinkHandle) -> LinkEvent {
    tokio::time::timeout(Duration::from_secs(30), link.next_event())
        .await
        .expect("a link event within 30 s")
        .expect("link running")
}

/// Sends `groups` and waits for every MoveDone, in order.
async fn run_all(link: &mut LinkHandle, groups: &[MotionGroup]) {
    for group in groups {
        link.send(*group).expect("queued");
    }
    for group in groups {
        match next(link).await {
            LinkEvent::MoveDone { move_id, .. } => assert_eq!(move_id, group.move_id()),
            other => panic!("expected MoveDone {}, got {other:?}", group.move_id()),
        }
    }
}

#[test]
fn firmware_on_qemu_runs_programs_estops_clears_and_rehomes() {
    let qemu = match start_qemu() {
        Ok(qemu) => qemu,
        Err(why) if std::env::var_os("CUBED_REQUIRE_FIRMWARE").is_some() => panic!("{why}"),
        Err(why) => {
            eprintln!("\n*** SKIPPED firmware_on_qemu test: {why} ***\n");
            return;
        }
    };
    let model = four_arm();
    let map = ActuatorMap::new(&model).expect("fits the protocol");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let connector = Arc::new(SerialConnector::new(FixedPath(qemu.pty.clone()), 115_200));
        let mut link = LinkHandle::open(
            connector,
            map.configure(),
            LinkSettings::default(),
            Arc::new(TokioClock::new()),
        )
        .await
        .expect("handshake and configure with the QEMU firmware");
        assert_eq!(link.connected.hello.name_bytes(), b"cubed-fw");
        assert!(link.connected.hello.queue_depth >= 32);

        let first = scrambled(&model, 1, 20).1;
        let first_groups = groups(&map, &model, &first, 1);
        run_all(&mut link, &first_groups).await;
        assert_eq!(
            link.status().await.expect("status").state,
            FirmwareState::Idle
        );

        // The same program again, e-stopped after its third command.
        let again = groups(&map, &model, &first, 1000);
        for group in &again {
            link.send(*group).expect("queued");
        }
        loop {
            if let LinkEvent::MoveDone { move_id: 1002, .. } = next(&mut link).await {
                break;
            }
        }
        link.emergency_stop().expect("e-stop");
        // The link reports the cancelled commands; the firmware reports its latched e-stop.
        let (mut cancelled, mut latched) = (None, false);
        while cancelled.is_none() || !latched {
            match next(&mut link).await {
                LinkEvent::EStopped { cancelled: ids } => cancelled = Some(ids),
                LinkEvent::Fault(Fault::EStopLatched) => latched = true,
                LinkEvent::MoveDone { .. } => {}
                other => panic!("expected EStopped and Fault EStopLatched, got {other:?}"),
            }
        }
        assert!(
            cancelled.is_some_and(|ids| !ids.is_empty()),
            "commands were cancelled"
        );
        assert_eq!(
            link.status().await.expect("status").state,
            FirmwareState::EStopped
        );

        link.clear_fault().expect("clear fault");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            link.status().await.expect("status").state,
            FirmwareState::Unhomed
        );

        let second = scrambled(&model, 2, 20).1;
        run_all(&mut link, &groups(&map, &model, &second, 2000)).await;
        let status = link.status().await.expect("status");
        assert_eq!(status.state, FirmwareState::Idle);
        link.shutdown().await;
    });
}
