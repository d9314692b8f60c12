//! `cubed exec` as a user runs it, against `cubed sim --pty` in another process: the shared helpers (exec on a simulator's link, the simulator's report) and one submodule per topic.

use crate::common::{cubed, stderr};

mod actions;
mod refusals;
mod solving;
mod stops_and_links;

/// `cubed exec --port link` with `args`: its exit code and its stderr.
pub(super) fn exec_on(link: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let port = link.to_string_lossy().into_owned();
    let mut all = vec!["exec", "--port", port.as_str()];
    all.extend_from_slice(args);
    let out = cubed(&all, None);
    (out.status.code(), stderr(&out))
}

/// The simulator's JSON report at `path`, and its text (for messages).
pub(super) fn sim_report(path: &std::path::Path) -> (serde_json::Value, String) {
    let text = std::fs::read_to_string(path).expect("the simulator wrote its report");
    let report = serde_json::from_str(&text).expect("the report is JSON");
    (report, text)
}
