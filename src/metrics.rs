//! The daemon's Prometheus metrics: one process-wide registry, one short function per thing
//! counted (called from where it happens in the daemon; the link keeps its own counters,
//! registered here), and the text exposition that `GET /metrics` serves. Names are
//! documented in `deploy/METRICS.md`.

use crate::link::counted::counters as link_counters;
use prometheus::{
    Encoder, Gauge, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts, Registry,
    TextEncoder,
};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

/// Every metric the daemon keeps.
struct Metrics {
    registry: Registry,
    started: Instant,
    uptime: Gauge,
    runs: IntCounterVec,
    run_seconds: HistogramVec,
    phase_seconds: HistogramVec,
    moves: IntCounter,
    crc_errors: IntCounterVec,
    faults: IntCounterVec,
    estops: IntCounterVec,
    vision_refusals: IntCounter,
    recaptures: IntCounter,
    /// When each run still going began (for its duration).
    running: Mutex<HashMap<u64, Instant>>,
}

/// Buckets for whole runs, in seconds (a solve with the robot takes ~10 s to ~2 min).
const RUN_BUCKETS: &[f64] = &[5.0, 10.0, 20.0, 30.0, 45.0, 60.0, 90.0, 120.0, 180.0, 300.0];
/// Buckets for the phases (classify and solve take ms; scan and execute seconds).
const PHASE_BUCKETS: &[f64] = &[
    0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

fn counter(registry: &Registry, name: &str, help: &str) -> IntCounter {
    let c = IntCounter::with_opts(Opts::new(name, help)).expect("a valid metric name");
    registered(registry, &c)
}

/// `c`, served by `registry` from now on: the daemon's own metrics, and the link's counters
/// (it counts where it happens).
fn registered<C: prometheus::core::Collector + Clone + 'static>(registry: &Registry, c: &C) -> C {
    registry
        .register(Box::new(c.clone()))
        .expect("registered once");
    c.clone()
}

fn counter_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), labels).expect("a valid metric name");
    registered(registry, &c)
}

fn histogram(
    registry: &Registry,
    name: &str,
    help: &str,
    labels: &[&str],
    buckets: &[f64],
) -> HistogramVec {
    let opts = HistogramOpts::new(name, help).buckets(buckets.to_vec());
    let h = HistogramVec::new(opts, labels).expect("a valid metric name");
    registered(registry, &h)
}

impl Metrics {
    /// The names are fixed and distinct, so building them cannot fail (tests build them).
    fn new() -> Metrics {
        let r = Registry::new();
        let uptime = Gauge::with_opts(Opts::new(
            "cubed_uptime_seconds",
            "Seconds since the daemon started.",
        ))
        .expect("a valid metric name");
        let uptime = registered(&r, &uptime);
        registered(&r, &link_counters().retransmits);
        Metrics {
            started: Instant::now(),
            uptime,
            runs: counter_vec(
                &r,
                "cubed_runs_total",
                "Runs finished, by outcome.",
                &["outcome"],
            ),
            run_seconds: histogram(
                &r,
                "cubed_run_duration_seconds",
                "Whole runs, start to outcome.",
                &["outcome"],
                RUN_BUCKETS,
            ),
            phase_seconds: histogram(
                &r,
                "cubed_phase_duration_seconds",
                "Phases of runs (scan, classify, solve, execute).",
                &["phase"],
                PHASE_BUCKETS,
            ),
            moves: counter(
                &r,
                "cubed_moves_executed_total",
                "Face turns the robot made.",
            ),
            crc_errors: registered(&r, &link_counters().crc_errors),
            faults: counter_vec(
                &r,
                "cubed_faults_total",
                "Firmware faults, by kind and actuator index (\"none\" when no actuator).",
                &["kind", "actuator"],
            ),
            estops: counter_vec(
                &r,
                "cubed_estops_total",
                "Emergency stops, by source (request: page/CLI; robot: its switch or firmware).",
                &["source"],
            ),
            vision_refusals: counter(
                &r,
                "cubed_vision_refusals_total",
                "Runs refused because the stickers could not be read surely.",
            ),
            recaptures: counter(
                &r,
                "cubed_vision_recaptures_total",
                "Rounds of photographing faces again because stickers were unsure.",
            ),
            running: Mutex::new(HashMap::new()),
            registry: r,
        }
    }

    fn text(&self) -> String {
        self.uptime.set(self.started.elapsed().as_secs_f64());
        let mut out = Vec::new();
        // Encoding our own well-formed families into memory does not fail.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

/// The content type of [`exposition`].
pub(crate) const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// All metrics in Prometheus' text format.
pub fn exposition() -> String {
    metrics().text()
}

/// What the daemon may report, named at its start so that every series is exported from then on
/// (zero where nothing happened yet), as Prometheus recommends: a dashboard and its alerts
/// work before the first fault.
pub(crate) struct KnownSeries<'a> {
    /// How a run may end (`cubed_runs_total`, `cubed_run_duration_seconds`).
    pub outcomes: &'a [&'a str],
    /// The phases of a run (`cubed_phase_duration_seconds`).
    pub phases: &'a [&'a str],
    /// The robot's firmware actuators (a fault names one by index).
    pub actuators: usize,
}

/// Fault kinds that name an actuator, and those that do not (`actuator="none"`).
const ACTUATOR_FAULTS: [&str; 3] = ["stall", "limit", "home_not_found"];
const ROBOT_FAULTS: [&str; 3] = ["brown_out", "comms_timeout", "estop_latched"];

/// Starts the uptime clock and exports every series the daemon may report, at zero.
pub(crate) fn daemon_started(known: &KnownSeries) {
    let m = metrics();
    for outcome in known.outcomes {
        m.runs.with_label_values(&[outcome]);
        m.run_seconds.with_label_values(&[outcome]);
    }
    for phase in known.phases {
        m.phase_seconds.with_label_values(&[phase]);
    }
    for direction in ["to_robot", "from_robot"] {
        m.crc_errors.with_label_values(&[direction]);
    }
    for source in ["request", "robot"] {
        m.estops.with_label_values(&[source]);
    }
    for kind in ACTUATOR_FAULTS {
        for actuator in 0..known.actuators {
            m.faults.with_label_values(&[kind, &actuator.to_string()]);
        }
    }
    for kind in ROBOT_FAULTS {
        m.faults.with_label_values(&[kind, "none"]);
    }
}

pub(crate) fn run_started(run: u64) {
    let m = metrics();
    m.running
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(run, Instant::now());
}

/// A run is over: counted, and its duration observed, `recorded_seconds` as the history has
/// it (from its start to its end, in whichever process they were) or else since it started in
/// this one.
pub(crate) fn run_finished(run: u64, outcome: &str, recorded_seconds: Option<f64>) {
    let m = metrics();
    m.runs.with_label_values(&[outcome]).inc();
    let began = m
        .running
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&run);
    let seconds = recorded_seconds.or_else(|| began.map(|b| b.elapsed().as_secs_f64()));
    if let Some(seconds) = seconds {
        m.run_seconds.with_label_values(&[outcome]).observe(seconds);
    }
}

pub(crate) fn phase(name: &str, ms: f64) {
    if ms.is_finite() && ms >= 0.0 {
        metrics()
            .phase_seconds
            .with_label_values(&[name])
            .observe(ms / 1000.0);
    }
}

pub(crate) fn moves_executed(turns: u32) {
    metrics().moves.inc_by(u64::from(turns));
}

/// A fault's kind label, and the actuator it names.
fn fault_labels(fault: &firmware_protocol::message::Fault) -> (&'static str, Option<u8>) {
    use firmware_protocol::message::Fault;
    let [stall, limit, home_not_found] = ACTUATOR_FAULTS;
    let [brown_out, comms_timeout, estop_latched] = ROBOT_FAULTS;
    match fault {
        Fault::Stall { actuator } => (stall, Some(*actuator)),
        Fault::Limit { actuator } => (limit, Some(*actuator)),
        Fault::HomeNotFound { actuator } => (home_not_found, Some(*actuator)),
        Fault::BrownOut => (brown_out, None),
        Fault::CommsTimeout => (comms_timeout, None),
        Fault::EStopLatched => (estop_latched, None),
    }
}

pub(crate) fn fault(fault: &firmware_protocol::message::Fault) {
    let (kind, actuator) = fault_labels(fault);
    let actuator = actuator.map_or_else(|| "none".to_string(), |a| a.to_string());
    metrics()
        .faults
        .with_label_values(&[kind, actuator.as_str()])
        .inc();
}

/// An e-stop: asked for (page, CLI, shutdown) or reported by the robot.
pub(crate) fn estop(requested: bool) {
    let source = if requested { "request" } else { "robot" };
    metrics().estops.with_label_values(&[source]).inc();
}

pub(crate) fn vision_refused() {
    metrics().vision_refusals.inc();
}

pub(crate) fn recaptured() {
    metrics().recaptures.inc();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the sample line `name` (with its labels, as printed) in `text`.
    pub(crate) fn sample(text: &str, name: &str) -> Option<f64> {
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn every_metric_is_exposed_with_help_and_type() {
        let m = Metrics::new();
        m.runs.with_label_values(&["solved"]).inc();
        m.phase_seconds.with_label_values(&["solve"]).observe(0.003);
        m.faults.with_label_values(&["stall", "5"]).inc();
        m.crc_errors.with_label_values(&["to_robot"]).inc();
        m.estops.with_label_values(&["request"]).inc();
        m.run_seconds.with_label_values(&["solved"]).observe(12.0);
        let text = m.text();
        for name in [
            "cubed_uptime_seconds",
            "cubed_runs_total",
            "cubed_run_duration_seconds",
            "cubed_phase_duration_seconds",
            "cubed_moves_executed_total",
            "cubed_link_retransmits_total",
            "cubed_link_crc_errors_total",
            "cubed_faults_total",
            "cubed_estops_total",
            "cubed_vision_refusals_total",
            "cubed_vision_recaptures_total",
        ] {
            assert!(text.contains(&format!("# HELP {name} ")), "{name}:\n{text}");
            assert!(text.contains(&format!("# TYPE {name} ")), "{name}");
        }
        assert_eq!(
            sample(&text, "cubed_runs_total{outcome=\"solved\"}"),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, "cubed_faults_total{actuator=\"5\",kind=\"stall\"}"),
            Some(1.0),
            "{text}"
        );
        // 3 ms falls in the 5 ms bucket and every one above it, not in the 1 ms one.
        let bucket = |le: &str| {
            sample(
                &text,
                &format!("cubed_phase_duration_seconds_bucket{{phase=\"solve\",le=\"{le}\"}}"),
            )
        };
        assert_eq!(
            (bucket("0.001"), bucket("0.005"), bucket("+Inf")),
            (Some(0.0), Some(1.0), Some(1.0))
        );
    }

    #[test]
    fn every_series_is_exported_at_zero_from_the_start() {
        let known = KnownSeries {
            outcomes: &["solved", "estopped"],
            phases: &["solve"],
            actuators: 2,
        };
        daemon_started(&known);
        let text = exposition();
        for series in [
            "cubed_runs_total{outcome=\"estopped\"}",
            "cubed_run_duration_seconds_count{outcome=\"solved\"}",
            "cubed_phase_duration_seconds_count{phase=\"solve\"}",
            "cubed_estops_total{source=\"robot\"}",
            "cubed_estops_total{source=\"request\"}",
            "cubed_link_crc_errors_total{direction=\"from_robot\"}",
            "cubed_faults_total{actuator=\"1\",kind=\"stall\"}",
            "cubed_faults_total{actuator=\"none\",kind=\"brown_out\"}",
        ] {
            assert!(sample(&text, series).is_some(), "{series}:\n{text}");
        }
    }

    #[test]
    fn a_run_is_counted_once_with_its_duration() {
        let before = exposition();
        let count = |text: &str| {
            sample(
                text,
                "cubed_run_duration_seconds_count{outcome=\"metrics_test\"}",
            )
            .unwrap_or(0.0)
        };
        run_started(u64::MAX);
        run_finished(u64::MAX, "metrics_test", None);
        run_finished(u64::MAX, "metrics_test", None);
        let after = exposition();
        assert_eq!(count(&after) - count(&before), 1.0, "timed once");
        assert_eq!(
            sample(&after, "cubed_runs_total{outcome=\"metrics_test\"}"),
            Some(2.0),
            "counted each time it is said"
        );
    }

    /// A run begun in another process (resumed after a restart) is timed as its record says.
    #[test]
    fn a_run_begun_before_a_restart_is_timed_as_recorded() {
        let series = |text: &str, what: &str| {
            let name = format!("cubed_run_duration_seconds_{what}{{outcome=\"metrics_restart\"}}");
            sample(text, &name).unwrap_or(0.0)
        };
        let before = exposition();
        run_finished(u64::MAX - 1, "metrics_restart", Some(754.5));
        let after = exposition();
        assert_eq!(series(&after, "count") - series(&before, "count"), 1.0);
        assert_eq!(series(&after, "sum") - series(&before, "sum"), 754.5);
    }
}
