//! What the bench commands measure and print alike: the median of a sample, a closure timed over runs, the calling thread's CPU time, and a vision tally's line.

use cubed_bench::measure::evaluate::Tally;
use std::time::Instant;

/// The median of a sample (the upper middle of an even count; 0 when empty).
pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The median wall time of `runs` calls of `f` (at least one), in ms.
pub(crate) fn time_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut ms: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    median(&mut ms)
}

/// CPU time of the calling thread (so that nodes/s do not depend much on the machine's load).
pub(crate) fn thread_cpu_secs() -> f64 {
    match nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID) {
        Ok(ts) => ts.tv_sec() as f64 + ts.tv_nsec() as f64 * 1e-9,
        Err(_) => f64::NAN,
    }
}

pub(crate) fn report(label: &str, t: &Tally) {
    println!(
        "{label}: {}/{} right ({:.1} %), {} refused, {} confidently wrong, {} illegal",
        t.right,
        t.total(),
        t.percent_right(),
        t.unsure,
        t.wrong,
        t.illegal
    );
}
