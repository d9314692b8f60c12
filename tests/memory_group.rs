//! The planner under a real control-group memory limit (what systemd's `MemoryMax=` or a container sets): a design too large for the group's room is refused with a clear error, where without the limit read the kernel kills the process. Making a group needs root and a writable cgroup hierarchy: without them this says loudly that it did not run, and `CUBED_REQUIRE_CGROUP_TESTS=1` makes that a failure.

use super::common::shipped_design_file;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A memory control group of this process's own, with a limit, removed when dropped.
struct MemoryGroup {
    dir: PathBuf,
}

impl MemoryGroup {
    /// A new group under this process's own memory group, limited to `mb` MB.
    fn make(mb: u64) -> Option<MemoryGroup> {
        let made = Self::try_make(mb);
        if made.is_none() {
            let why = "the memory control group tests: cannot make a group here \
                       (they need root and a writable /sys/fs/cgroup)";
            crate::common::not_checked(why, Some("CUBED_REQUIRE_CGROUP_TESTS"));
        }
        made
    }

    fn try_make(mb: u64) -> Option<MemoryGroup> {
        let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let name = format!("cubed-test-{}", std::process::id());
        // Version one's memory hierarchy, else version two's single one.
        let (parent, limit_file) = match groups.lines().find_map(|l| {
            let mut fields = l.splitn(3, ':').skip(1);
            let controllers = fields.next()?;
            let path = fields.next()?;
            controllers
                .split(',')
                .any(|c| c == "memory")
                .then(|| path.to_string())
        }) {
            Some(path) => (
                Path::new("/sys/fs/cgroup/memory").join(path.trim_start_matches('/')),
                "memory.limit_in_bytes",
            ),
            None => {
                let path = groups.lines().find_map(|l| l.strip_prefix("0::"))?;
                let parent = Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
                (parent, "memory.max")
            }
        };
        let dir = parent.join(name);
        std::fs::create_dir(&dir).ok()?;
        let group = MemoryGroup { dir };
        std::fs::write(group.dir.join(limit_file), (mb << 20).to_string()).ok()?;
        Some(group)
    }

    /// Runs `cubed args` inside the group with `env` set (the variable unset otherwise).
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let procs = self.dir.join("cgroup.procs");
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(r#"echo $$ > "$1" && shift && exec "$@""#)
            .arg("sh")
            .arg(&procs)
            .arg(env!("CARGO_BIN_EXE_cubed"))
            .args(args)
            .env_remove("CUBED_PLANNER_MEMORY_MB");
        for (key, value) in env {
            command.env(key, value);
        }
        command.output().expect("sh runs")
    }
}

impl Drop for MemoryGroup {
    fn drop(&mut self) {
        // Its processes have ended: the group can go.
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[test]
fn a_design_too_large_for_the_control_groups_limit_is_refused_not_killed() {
    let Some(group) = MemoryGroup::make(60) else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let four_arm = std::fs::read_to_string(shipped_design_file("four-arm")).expect("shipped");
    // Each gripper two quarter turns either way: about 100 MB of states and steps.
    let wide = dir.path().join("wide.toml");
    std::fs::write(
        &wide,
        four_arm.replace("range = [-1, 1]", "range = [-2, 2]"),
    )
    .expect("write");
    let plan = [
        "plan",
        "--robot",
        wide.to_str().expect("utf-8"),
        "--moves",
        "R",
    ];
    let refused = group.run(&plan, &[]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    for needle in [
        "too many states",
        "control-group memory limit",
        "MemoryMax=",
    ] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
    // The limit is real: told it may take more, the planner outgrows the group and the kernel
    // stops it.
    let told_more = group.run(&plan, &[("CUBED_PLANNER_MEMORY_MB", "400")]);
    assert!(
        !told_more.status.success(),
        "{}",
        String::from_utf8_lossy(&told_more.stdout)
    );
    // The shipped design fits.
    let shipped = group.run(&["plan", "--robot", "four-arm", "--moves", "R"], &[]);
    assert!(
        shipped.status.success(),
        "{}",
        String::from_utf8_lossy(&shipped.stderr)
    );
}
