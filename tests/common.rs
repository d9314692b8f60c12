//! Helpers shared by the integration tests: running the real `cubed` binary, a two-thread tokio runtime, the shipped four-arm design, scrambled cubes with the programs that solve them, six simulated photos of a cube written to a folder.

use cubed::cube::{random::random_scramble, FaceletCube, Move, Turn};
use cubed::robot::{Planner, Program, RobotModel};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Says that a test could not check what it is for, and why, on the process's own stderr:
/// the harness captures `eprintln!`, so a passing run would hide it, but not a direct write.
/// Where CI forces the test (`forced_by`, a variable set to 1), it is a failure instead.
pub fn not_checked(why: &str, forced_by: Option<&str>) {
    if let Some(variable) = forced_by {
        assert!(
            std::env::var_os(variable).is_none(),
            "NOT CHECKED: {why} ({variable}=1 makes this a failure)"
        );
    }
    let bar = "!".repeat(78);
    // Nowhere else to say it if stderr is closed.
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n{bar}\nNOT CHECKED: {why}\n{bar}"
    );
}

/// Runs `cubed` with `args` (and `stdin`, if any) and returns its output. Its default data
/// directory is an empty one of the tests' own, so a palette calibrated on this machine is
/// never read.
pub fn cubed(args: &[&str], stdin: Option<&str>) -> Output {
    let no_data = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-data-home");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(args)
        .env("XDG_DATA_HOME", no_data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cubed binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).expect("writing stdin");
    }
    drop(input);
    child.wait_with_output().expect("cubed finishes")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

/// The file of a shipped design (`name` without `.toml`: "four-arm", "six-motor", ...).
pub fn shipped_design_file(name: &str) -> std::path::PathBuf {
    shipped_designs_dir().join(format!("{name}.toml"))
}

/// The folder of the shipped designs.
pub fn shipped_designs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("config/robots")
}

/// The path of a shipped design's file as a command-line argument.
pub fn shipped_design_arg(name: &str) -> String {
    shipped_design_file(name).display().to_string()
}

/// The shipped four-arm design.
pub fn four_arm() -> RobotModel {
    cubed::robot::shipped_design("four-arm").expect("four-arm design loads")
}

/// A cube scrambled by `length` seeded face turns, and the program undoing them on `model`.
pub fn scrambled(model: &RobotModel, seed: u64, length: usize) -> (FaceletCube, Program) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scramble = random_scramble(&mut rng, length, false);
    let cube = FaceletCube::default().apply_all(&scramble);
    let solution: Vec<Turn> = scramble
        .iter()
        .rev()
        .filter_map(|m| match m.inverse() {
            Move::Turn(t) => Some(t),
            Move::Rotate(_) => None,
        })
        .collect();
    let planner = Planner::new(model.clone());
    let plan = planner.plan(&planner.home(), &solution).expect("plannable");
    (cube, plan.program)
}

/// A two-thread tokio runtime, for tests that tear one down or run blocking code beside it.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// `cubed sim --pty` with `args`, its report at `report` and its link at `link`, once the link
/// points at its pty.
pub fn start_sim(args: &[&str], report: &Path, link: &Path) -> Child {
    let mut sim = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["sim", "--pty"])
        .args(args)
        .arg("--report")
        .arg(report)
        .arg("--link")
        .arg(link)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the simulator starts");
    let mut lines = BufReader::new(sim.stdout.take().expect("stdout is piped")).lines();
    let pty = lines
        .next()
        .expect("the simulator prints its pty")
        .expect("readable stdout");
    // The link points at the pty while the simulator runs, as /dev/serial/by-id does.
    // (A link another simulator made is taken over: wait for it to point here.)
    let at_this_pty = |target: &Path| target.to_string_lossy() == pty;
    let pointed = (0..500).find_map(|_| {
        let target = std::fs::read_link(link).ok().filter(|t| at_this_pty(t));
        if target.is_none() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        target
    });
    let last = std::fs::read_link(link).ok();
    assert!(
        pointed.is_some(),
        "the link points at {last:?}, not at the pty {pty}"
    );
    sim
}

/// A TCP port free on loopback right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Polls `cubed status` until its output contains `want` (at most 120 s).
pub fn wait_status(http: &str, want: &str) -> String {
    let began = Instant::now();
    loop {
        let out = cubed(&["status", "--http", http], None);
        let text = stdout(&out);
        if text.contains(want) {
            return text;
        }
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "never {want:?}; last: {text}{}",
            stderr(&out)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The shipped configuration written into `dir`, its robot on `port` and a folder of
/// real photos as its camera.
pub fn robot_config(port: &Path, dir: &Path) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = root.join("config");
    let photos = root.join("tests/data/vision/photos/3x3x3-random-01");
    let text = std::fs::read_to_string(shipped.join("cubed.toml")).expect("shipped config");
    let config = text
        .replace("\"robots/", &format!("\"{}/robots/", shipped.display()))
        .replace(
            "\"palette.toml\"",
            &format!("\"{}/palette.toml\"", shipped.display()),
        )
        .replace("port = \"sim\"", &format!("port = \"{}\"", port.display()))
        .replace(
            "source = \"sim\"",
            &format!("source = \"dir:{}\"", photos.display()),
        );
    let file = dir.join("cubed.toml");
    std::fs::write(&file, config).expect("config written");
    file
}

/// `cubed run` with `config`, its data in `dir`/data, on a free loopback port; the child
/// and its `--http` address.
pub fn run_daemon(config: &Path, dir: &Path) -> (Child, String) {
    let http = format!("127.0.0.1:{}", free_port());
    let daemon = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["run", "--http", &http, "--tables", "small", "--data-dir"])
        .arg(dir.join("data"))
        .arg("--config")
        .arg(config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cubed run starts");
    (daemon, http)
}

/// What the host sends at connect for `model`: its machine (the design's wiring) and
/// its configuration.
pub fn setup_for(model: &RobotModel) -> cubed::robot::wiring::RobotSetup {
    let map = cubed::robot::ActuatorMap::new(model).expect("design fits the protocol");
    cubed::robot::wiring::RobotSetup::for_design(model, &map).expect("design is wired")
}

/// Busy threads on every core while it lives: a machine under load, for a test that the
/// output does not depend on it.
pub struct BusyCores {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyCores {
    pub fn start(threads: usize) -> BusyCores {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..threads)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6364136223846793005) + 1);
                    }
                })
            })
            .collect();
        BusyCores { stop, threads }
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.threads
            .drain(..)
            .for_each(|t| t.join().expect("busy thread"));
    }
}

/// Six photos of `cube` by the simulated camera (seed 5) under `lighting`, its stickers on
/// plastic of colour `body`, written as U.png … B.png.
pub fn simulated_photos(
    cube: FaceletCube,
    dir: &Path,
    lighting: cubed::vision::camera::sim::SimLighting,
    body: [u8; 3],
) {
    use cubed::vision::camera::sim::{SimCamera, SimScene};
    use cubed::vision::camera::{Camera, CaptureRequest};
    let mut camera = SimCamera::new(5, lighting);
    *camera.scene().lock().expect("scene") = SimScene {
        cube,
        body,
        ..SimScene::default()
    };
    for face in cubed::cube::Face::ALL {
        let image = camera
            .capture(&CaptureRequest {
                camera: 0,
                face,
                image_rotation: 0,
                exposure: cubed::vision::camera::Exposure::NORMAL,
            })
            .expect("render");
        image.save(dir.join(format!("{face}.png"))).expect("save");
    }
}
