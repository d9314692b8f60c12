//! `cubed-bench web`: a real `cubed run` daemon (simulated robot) in a child process, measured
//! from outside over TCP: e-stop latency alone and with many connections hanging mid-header,
//! how soon the hung ones are closed, and the daemon's memory with many open WebSockets.

use anyhow::{bail, Context};
use clap::Args;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct WebBenchArgs {
    /// The daemon's configuration (its simulated robot and camera); found as `cubed run`
    /// finds it when not given (see `cubed config show`).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Connections that send half a request header and hang.
    #[arg(long, default_value_t = 200, value_parser = cubed::command_line::counts::at_least_one)]
    pub hung: usize,
    /// E-stop requests timed in each condition.
    #[arg(long, default_value_t = 50, value_parser = cubed::command_line::counts::at_least_one)]
    pub estops: usize,
    /// Event WebSockets held open for the memory measurement.
    #[arg(long, default_value_t = 50, value_parser = cubed::command_line::counts::at_least_one)]
    pub sockets: usize,
}

/// A `cubed run` child; killed when dropped.
struct Daemon {
    child: Child,
    addr: SocketAddr,
    _data: tempfile::TempDir,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long the daemon may take to come up (it may build the solver's tables first).
const STARTUP: Duration = Duration::from_secs(120);
/// How long one request may take before the bench calls it lost.
const REQUEST_LIMIT: Duration = Duration::from_secs(30);

fn start_daemon(config: Option<&PathBuf>) -> anyhow::Result<Daemon> {
    let data = tempfile::tempdir().context("a temporary data directory")?;
    let exe = super::cubed_exe()?;
    let mut command = Command::new(exe);
    command.arg("run");
    if let Some(config) = config {
        command.arg("--config").arg(config);
    }
    let mut child = command
        .args(["--http", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .context("starting `cubed run`")?;
    let stderr = child.stderr.take().context("the daemon's stderr")?;
    let (tell, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("serving the page and API on http://").nth(1) {
                let _ = tell.send(rest.split('/').next().unwrap_or("").to_string());
            }
        }
    });
    let addr = match told.recv_timeout(STARTUP) {
        Ok(text) => text
            .parse()
            .with_context(|| format!("the daemon's address {text:?}"))?,
        Err(_) => bail!("`cubed run` did not say where it listens within {STARTUP:?}"),
    };
    Ok(Daemon {
        child,
        addr,
        _data: data,
    })
}

/// One request on a new connection; the time from connecting to the whole answer.
fn timed_request(addr: SocketAddr, method: &str, path: &str) -> anyhow::Result<(u16, Duration)> {
    let began = Instant::now();
    let mut stream = TcpStream::connect(addr).context("connecting")?;
    stream.set_read_timeout(Some(REQUEST_LIMIT))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .with_context(|| format!("{method} {path}: reading the answer"))?;
    let elapsed = began.elapsed();
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("{method} {path}: not an HTTP answer: {text:?}"))?;
    Ok((status, elapsed))
}

fn estop_latencies(addr: SocketAddr, n: usize) -> anyhow::Result<Vec<Duration>> {
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let (status, took) = timed_request(addr, "POST", "/api/estop")?;
        if status != 200 {
            bail!("e-stop answered {status}");
        }
        samples.push(took);
    }
    samples.sort();
    Ok(samples)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn at(sorted: &[Duration], q: f64) -> Duration {
    let index = ((sorted.len().max(1) - 1) as f64 * q).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

fn describe(sorted: &[Duration]) -> String {
    format!(
        "median {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} e-stops)",
        ms(at(sorted, 0.5)),
        ms(at(sorted, 0.99)),
        ms(at(sorted, 1.0)),
        sorted.len()
    )
}

/// Resident memory of `pid`, in KiB.
fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("reading /proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .context("no VmRSS line")
}

fn hang(addr: SocketAddr) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(addr).context("a hung connection")?;
    stream.write_all(b"POST /api/estop HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait")?;
    Ok(stream)
}

/// Waits until the server closes every stream; the time from `since` until the last closed.
fn all_closed(streams: &mut [TcpStream], since: Instant, limit: Duration) -> Option<Duration> {
    let mut last = Duration::ZERO;
    for stream in streams {
        let left = limit.checked_sub(since.elapsed())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .ok()?;
        let mut buf = [0u8; 256];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(_) => return None,
            }
        }
        last = last.max(since.elapsed());
    }
    Some(last)
}

fn open_socket(addr: SocketAddr) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(addr).context("a WebSocket")?;
    stream.set_read_timeout(Some(REQUEST_LIMIT))?;
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head)?;
    if &head[9..12] != b"101" {
        bail!(
            "the WebSocket upgrade answered {}",
            String::from_utf8_lossy(&head)
        );
    }
    Ok(stream)
}

pub fn web_bench(args: WebBenchArgs) -> anyhow::Result<ExitCode> {
    let daemon = start_daemon(args.config.as_ref())?;
    let addr = daemon.addr;
    let deadline = Instant::now() + STARTUP;
    while !matches!(timed_request(addr, "GET", "/api/status"), Ok((200, _))) {
        if Instant::now() > deadline {
            bail!("the daemon on {addr} never answered /api/status");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!("daemon: pid {} on {addr}", daemon.child.id());
    let idle_rss = rss_kib(daemon.child.id())?;

    let alone = estop_latencies(addr, args.estops)?;
    println!("e-stop, nothing else open: {}", describe(&alone));
    let opened = Instant::now();
    let mut hung = (0..args.hung)
        .map(|_| hang(addr))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let loaded = estop_latencies(addr, args.estops)?;
    println!(
        "e-stop with {} connections hanging mid-header: {}; median ratio {:.2}",
        args.hung,
        describe(&loaded),
        ms(at(&loaded, 0.5)) / ms(at(&alone, 0.5)).max(1e-9)
    );
    match all_closed(&mut hung, opened, Duration::from_secs(60)) {
        Some(last) => println!(
            "hung connections: all {} closed by the daemon, the last {:.1} s after opening",
            args.hung,
            last.as_secs_f64()
        ),
        None => println!("hung connections: NOT all closed within 60 s"),
    }
    drop(hung);

    let before = rss_kib(daemon.child.id())?;
    let sockets = (0..args.sockets)
        .map(|_| open_socket(addr))
        .collect::<anyhow::Result<Vec<_>>>()?;
    std::thread::sleep(Duration::from_millis(500));
    let after = rss_kib(daemon.child.id())?;
    println!(
        "memory: {:.1} MiB idle; {:.1} MiB before and {:.1} MiB with {} WebSockets open ({:.1} KiB each)",
        idle_rss as f64 / 1024.0,
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        sockets.len(),
        after.saturating_sub(before) as f64 / sockets.len() as f64
    );
    drop(sockets);
    Ok(ExitCode::SUCCESS)
}
