//! The data directory as a service owns it: one daemon per directory (a second one is refused and leaves the first one's live run alone), and a palette calibrated into it while the daemon runs read at the next start.

use super::{config, executing_with_done, finished, random, solver};
use cubed::daemon::{DaemonState, LaunchError, RunningDaemon, StartSource};
use std::path::Path;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_daemon_on_the_same_data_dir_is_refused_and_the_live_run_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = RunningDaemon::start(&config(dir.path(), "", 10.0), solver())
        .await
        .expect("the first daemon starts");
    first.sim.as_ref().expect("sim").load_cube(random(31));
    let run = first.handle.start(StartSource::Web).await.expect("start");
    executing_with_done(&first.handle, 2).await;

    let second = RunningDaemon::start(&config(dir.path(), "", 0.0), solver()).await;
    let Err(error) = second else {
        panic!("a second daemon started on the same data directory");
    };
    assert!(matches!(error, LaunchError::Locked(_)), "{error:?}");
    let text = error.to_string();
    assert!(text.contains(&dir.path().display().to_string()), "{text}");
    assert!(
        text.contains(&format!("pid {}", std::process::id())),
        "{text}"
    );
    // A separately written witness: the kernel's own flock on the lock file is taken.
    let file = std::fs::File::open(dir.path().join("cubed.lock")).expect("lock file");
    let witness = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock);
    assert!(witness.is_err(), "the lock file is not locked");

    let end = finished(&first.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    let detail = first.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("solved"));
    first.shutdown().await;
    RunningDaemon::start(&config(dir.path(), "", 0.0), solver())
        .await
        .expect("the directory is free once the first daemon has stopped")
        .shutdown()
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_palette_calibrated_into_the_data_dir_while_running_is_read_at_the_next_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = RunningDaemon::start(&config(dir.path(), "", 0.0), solver())
        .await
        .expect("starts");
    let white = |daemon: &RunningDaemon| {
        let palette = daemon.handle.status().palette;
        palette
            .iter()
            .find(|c| c.name == "white")
            .map(|c| c.rgb.clone())
    };
    assert_eq!(
        white(&daemon).as_deref(),
        Some("#ebebeb"),
        "the shipped palette"
    );
    // As `cubed calibrate --output DATA_DIR/palette.toml` writes it: white a little darker.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/palette.toml");
    let shipped = std::fs::read_to_string(shipped).expect("shipped palette");
    let calibrated = dir.path().join("palette.toml");
    let darker = shipped.replace("srgb = [235, 235, 235]", "srgb = [225, 226, 227]");
    std::fs::write(&calibrated, &darker).expect("written");
    daemon.sim.as_ref().expect("sim").load_cube(random(32));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    assert_eq!(white(&daemon).as_deref(), Some("#e1e2e3"), "read again");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    // One that does not load: the start is refused, naming it, and nothing moves.
    std::fs::write(&calibrated, "[[colour]]\nname = 3\n").expect("written");
    let refused = daemon.handle.start(StartSource::Web).await;
    let reason = refused.expect_err("a broken palette").reason;
    assert!(
        reason.contains("calibrated palette") && reason.contains("palette.toml"),
        "{reason}"
    );
    daemon.shutdown().await;
}

/// Root, or the loud reason the ownership tests cannot run (CI runs them as root).
fn running_as_root() -> bool {
    if nix::unistd::geteuid().is_root() {
        return true;
    }
    super::root_tests_not_run(
        "the ownership tests: they need root (to give folders to another user)",
    );
    false
}

/// `cubed run` with the shipped configuration (the simulated robot) on `data`, as the user
/// `as_uid` (None: this one); its stderr, once it has refused.
fn refused_run(data: &Path, as_uid: Option<u32>) -> String {
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/config/cubed.toml");
    let cubed = env!("CARGO_BIN_EXE_cubed");
    let args = [
        "run",
        "--config",
        config,
        "--data-dir",
        data.to_str().expect("utf-8"),
        "--http",
        "127.0.0.1:0",
        "--tables",
        "small",
    ];
    let mut command = match as_uid {
        Some(uid) => {
            let mut c = std::process::Command::new("setpriv");
            c.args([
                &format!("--reuid={uid}"),
                &format!("--regid={uid}"),
                "--clear-groups",
                cubed,
            ]);
            c
        }
        None => std::process::Command::new(cubed),
    };
    let mut child = (command.args(args))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cubed runs");
    // Refused at once; one still running after a minute has taken the folder.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the daemon started on {}", data.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let mut said = String::new();
    let mut stderr = child.stderr.take().expect("stderr");
    std::io::Read::read_to_string(&mut stderr, &mut said).expect("stderr");
    said
}

/// The package's data folder is its service user's. Root running the daemon there by hand is
/// refused before it leaves a file the service could not open; and a file root left there
/// anyway is named, with its owner and the chown that gives the folder back.
#[test]
fn root_is_refused_another_users_data_dir_and_a_file_root_left_there_is_named() {
    if !running_as_root() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    const NOBODY: u32 = 65534;
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).expect("data dir");
    let nobody = Some(nix::unistd::Uid::from_raw(NOBODY));
    let nogroup = Some(nix::unistd::Gid::from_raw(NOBODY));
    nix::unistd::chown(&data, nobody, nogroup).expect("chown");

    let said = refused_run(&data, None);
    assert!(
        said.contains("belongs to user 'nobody'") && said.contains("not as root"),
        "{said}"
    );
    let left: Vec<_> = std::fs::read_dir(&data).expect("read").flatten().collect();
    assert!(left.is_empty(), "root left {left:?}");

    // A lock file root left there (a daemon run as root before this check).
    let lock = data.join("cubed.lock");
    std::fs::write(&lock, "").expect("lock file");
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let said = refused_run(&data, Some(NOBODY));
    assert!(
        said.contains("belongs to user 'root'")
            && said.contains(&format!("sudo chown -R nobody: {}", data.display())),
        "{said}"
    );

    // A history file root left there: the daemon starts, not ready, and says whose it is,
    // instead of taking starts it cannot record and blaming the disk.
    std::fs::remove_file(&lock).expect("lock gone");
    drop(cubed::daemon::History::open(&data).expect("a history, root's"));
    let notice = status_of_daemon_as(&data, NOBODY);
    assert!(
        notice.contains("this user may not write it (it belongs to 'root')")
            && notice.contains("sudo chown -R nobody:")
            && !notice.contains("full disk"),
        "{notice}"
    );

    // The service's history read by a user who may not: said so, not "no history here".
    let private = dir.path().join("private");
    std::fs::create_dir(&private).expect("dir");
    std::fs::write(private.join("cubed.sqlite"), "").expect("file");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o750)).expect("chmod");
    let out = std::process::Command::new("setpriv")
        .args([
            &format!("--reuid={NOBODY}"),
            &format!("--regid={NOBODY}"),
            "--clear-groups",
        ])
        .args([env!("CARGO_BIN_EXE_cubed"), "history", "--data-dir"])
        .arg(&private)
        .output()
        .expect("cubed history runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("this user may not read it") && said.contains("sudo -u root cubed history"),
        "{said}"
    );
}

/// `cubed run` on `data` as the user `uid`: the JSON status it serves once up (then stopped).
fn status_of_daemon_as(data: &Path, uid: u32) -> String {
    use std::io::BufRead;
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/config/cubed.toml");
    let mut daemon = std::process::Command::new("setpriv")
        .args([
            &format!("--reuid={uid}"),
            &format!("--regid={uid}"),
            "--clear-groups",
        ])
        .arg(env!("CARGO_BIN_EXE_cubed"))
        .args([
            "run",
            "--config",
            config,
            "--http",
            "127.0.0.1:0",
            "--tables",
            "small",
        ])
        .arg("--data-dir")
        .arg(data)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cubed run starts");
    let stderr = std::io::BufReader::new(daemon.stderr.take().expect("stderr"));
    let mut said = Vec::new();
    let address = stderr.lines().map_while(Result::ok).find_map(|line| {
        said.push(line.clone());
        let rest = line.split("serving the page and API on http://").nth(1)?;
        Some(rest.split('/').next()?.to_string())
    });
    let status = address.map(|address| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cubed"))
            .args(["status", "--json", "--http", &address])
            .output()
            .expect("cubed status runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    });
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(daemon.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    );
    let _ = daemon.wait();
    status.unwrap_or_else(|| panic!("the daemon did not serve: {said:?}"))
}

/// A configuration kept from other users for its token (mode 0640, as the Pi's guide says):
/// `cubed status` as another user says it may not read it and how to go on without it.
#[test]
fn a_configuration_this_user_may_not_read_says_how_to_go_on() {
    if !running_as_root() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let config = dir.path().join("cubed.toml");
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/config/cubed.toml");
    std::fs::copy(shipped, &config).expect("copied");
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_cubed"))
        .args(["status", "--config"])
        .arg(&config)
        .output()
        .expect("cubed runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains(&config.display().to_string()), "{said}");
    assert!(
        said.contains("may not read it") && said.contains("--http"),
        "{said}"
    );
}
