//! The memory the planner may take on this machine: `CUBED_PLANNER_MEMORY_MB` if set, else three quarters of what the kernel says is available (`/proc/meminfo`, and the room left under this process's control-group limits, such as systemd's `MemoryMax=` or a container's).

use crate::graph::memory::{MemoryLimit, PLANNER_MEMORY_VAR};
use std::path::{Path, PathBuf};

/// A planner memory limit that is not a whole number of megabytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{PLANNER_MEMORY_VAR}='{value}': expected a whole number of megabytes, 1 or more")]
pub struct BadMemoryLimit {
    pub value: String,
}

/// Where the kernel mounts control groups.
const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// The limit for a state graph built now (reads the environment, `/proc/meminfo` and this
/// process's control groups; where none says, no limit).
pub fn planner_memory_limit() -> Result<MemoryLimit, BadMemoryLimit> {
    let set = std::env::var_os(PLANNER_MEMORY_VAR).map(|v| v.to_string_lossy().into_owned());
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let meminfo = read(Path::new("/proc/meminfo"));
    let room = (read(Path::new("/proc/self/cgroup")))
        .and_then(|groups| cgroup_room(&groups, Path::new(CGROUP_ROOT), read));
    limit_from(set.as_deref(), meminfo.as_deref(), room)
}

/// The limit `set` (the variable's value; empty, as unset) asks for, else three quarters of
/// the least of `meminfo`'s `MemAvailable` and the control groups' `cgroup_room` (bytes).
fn limit_from(
    set: Option<&str>,
    meminfo: Option<&str>,
    cgroup_room: Option<u64>,
) -> Result<MemoryLimit, BadMemoryLimit> {
    if let Some(value) = set.filter(|value| !value.trim().is_empty()) {
        return match value.trim().parse::<u64>() {
            Ok(mb) if mb >= 1 => Ok(MemoryLimit::Set { mb }),
            _ => Err(BadMemoryLimit {
                value: value.to_string(),
            }),
        };
    }
    let available = meminfo.and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? << 10)
    });
    let share = |bytes: u64| (bytes >> 20) * 3 / 4;
    Ok(match (available, cgroup_room) {
        (Some(machine), Some(group)) if group < machine => {
            MemoryLimit::InGroup { mb: share(group) }
        }
        (None, Some(group)) => MemoryLimit::InGroup { mb: share(group) },
        (Some(machine), _) => MemoryLimit::Available { mb: share(machine) },
        (None, None) => MemoryLimit::None,
    })
}

/// Limits at or above this many bytes are none (cgroup v1 writes "no limit" as a number near
/// 2⁶³).
const NO_CGROUP_LIMIT: u64 = 1 << 62;

/// The least room left under the memory limits of this process's control groups and their
/// parents (`groups`: `/proc/self/cgroup`; `root`: where control groups are mounted), in
/// bytes: each limit less what its group uses other than the page cache (which the kernel
/// gives back when it must). None where no group has a limit.
fn cgroup_room(groups: &str, root: &Path, read: impl Fn(&Path) -> Option<String>) -> Option<u64> {
    let mut least: Option<u64> = None;
    for line in groups.lines() {
        let mut fields = line.splitn(3, ':').skip(1);
        let (Some(controllers), Some(path)) = (fields.next(), fields.next()) else {
            continue;
        };
        let version = match controllers {
            "" => CgroupVersion::Two,
            list if list.split(',').any(|c| c == "memory") => CgroupVersion::One,
            _ => continue,
        };
        let mount = version.mount(root);
        for dir in group_and_parents(&mount, path) {
            if let Some(room) = version.room(&dir, &read) {
                least = Some(least.map_or(room, |l| l.min(room)));
            }
        }
    }
    least
}

/// The group at `path` under `mount`, then each parent up to the mount itself (inside a
/// container the group's path may name one the container cannot see: then the mount's own
/// limit is the container's).
fn group_and_parents(mount: &Path, path: &str) -> Vec<PathBuf> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    (0..=parts.len())
        .rev()
        .map(|depth| {
            parts[..depth]
                .iter()
                .fold(mount.to_path_buf(), |dir, p| dir.join(p))
        })
        .collect()
}

#[derive(Clone, Copy)]
enum CgroupVersion {
    /// One hierarchy for every controller (`0::/path`).
    Two,
    /// A hierarchy per controller (`4:memory:/path`).
    One,
}

impl CgroupVersion {
    fn mount(self, root: &Path) -> PathBuf {
        match self {
            CgroupVersion::Two => root.to_path_buf(),
            CgroupVersion::One => root.join("memory"),
        }
    }

    /// The group's limit less what it uses other than the page cache, if it has a limit.
    fn room(self, dir: &Path, read: &impl Fn(&Path) -> Option<String>) -> Option<u64> {
        let (limit, usage, cache) = match self {
            CgroupVersion::Two => ("memory.max", "memory.current", "file"),
            CgroupVersion::One => (
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_cache",
            ),
        };
        let number = |file: &str| read(&dir.join(file))?.trim().parse::<u64>().ok();
        // "max" (cgroup v2) does not parse: no limit.
        let limit = number(limit).filter(|&bytes| bytes < NO_CGROUP_LIMIT)?;
        let cache = read(&dir.join("memory.stat")).and_then(|stat| {
            let line = stat.lines().find(|l| l.split(' ').next() == Some(cache))?;
            line.split(' ').nth(1)?.trim().parse::<u64>().ok()
        });
        let used = number(usage)
            .unwrap_or(0)
            .saturating_sub(cache.unwrap_or(0));
        Some(limit.saturating_sub(used))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const MEMINFO: &str = "MemTotal:        1919264 kB\nMemFree:          213000 kB\nMemAvailable:    1433600 kB\nBuffers:           40000 kB\n";
    const MB: u64 = 1 << 20;

    #[test]
    fn the_variable_comes_first_then_three_quarters_of_what_is_available() {
        assert_eq!(
            limit_from(Some("300"), Some(MEMINFO), Some(100 * MB)),
            Ok(MemoryLimit::Set { mb: 300 })
        );
        // 1,433,600 kB = 1400 MB available: the planner may take 1050.
        assert_eq!(
            limit_from(None, Some(MEMINFO), None),
            Ok(MemoryLimit::Available { mb: 1050 })
        );
        assert_eq!(limit_from(None, None, None), Ok(MemoryLimit::None));
        assert_eq!(
            limit_from(Some(" "), None, None),
            Ok(MemoryLimit::None),
            "empty, as unset"
        );
        assert_eq!(
            limit_from(None, Some("MemTotal: 5 kB\n"), None),
            Ok(MemoryLimit::None)
        );
    }

    #[test]
    fn a_control_group_with_less_room_than_the_machine_sets_the_limit() {
        let limit = |room| limit_from(None, Some(MEMINFO), room);
        assert_eq!(limit(Some(400 * MB)), Ok(MemoryLimit::InGroup { mb: 300 }));
        assert_eq!(
            limit(Some(4000 * MB)),
            Ok(MemoryLimit::Available { mb: 1050 }),
            "the machine has less"
        );
        assert_eq!(
            limit_from(None, None, Some(400 * MB)),
            Ok(MemoryLimit::InGroup { mb: 300 })
        );
    }

    #[test]
    fn a_limit_that_is_not_whole_megabytes_is_refused_with_its_value() {
        for value in ["0", "-5", "1.5", "2GB"] {
            let err = limit_from(Some(value), Some(MEMINFO), None).expect_err(value);
            assert!(err.to_string().contains(&format!("'{value}'")), "{err}");
            assert!(err.to_string().contains(PLANNER_MEMORY_VAR), "{err}");
        }
    }

    /// The room `cgroup_room` finds for `groups` among `files` (paths under `/cg`).
    fn room(groups: &str, files: &[(&str, String)]) -> Option<u64> {
        let files: HashMap<PathBuf, String> = (files.iter())
            .map(|(path, text)| (Path::new("/cg").join(path), text.clone()))
            .collect();
        cgroup_room(groups, Path::new("/cg"), |path: &Path| {
            files.get(path).cloned()
        })
    }

    #[test]
    fn a_systemd_service_limit_leaves_its_limit_less_what_is_used_beside_the_page_cache() {
        let service = "system.slice/cubed.service";
        let files = [
            (format!("{service}/memory.max"), format!("{}\n", 1024 * MB)),
            (
                format!("{service}/memory.current"),
                format!("{}\n", 300 * MB),
            ),
            (
                format!("{service}/memory.stat"),
                format!("anon {}\nfile {}\nkernel 0\n", 90 * MB, 200 * MB),
            ),
            ("system.slice/memory.max".into(), "max\n".into()),
            ("memory.max".into(), "max\n".into()),
        ];
        let files: Vec<(&str, String)> =
            files.iter().map(|(p, t)| (p.as_str(), t.clone())).collect();
        assert_eq!(
            room("0::/system.slice/cubed.service\n", &files),
            Some(924 * MB)
        );
        // The same group without a limit, and no limit above it.
        assert_eq!(room("0::/system.slice/cubed.service\n", &files[1..]), None);
    }

    #[test]
    fn the_tightest_group_on_the_way_up_counts() {
        let files = [
            ("a/b/memory.max", format!("{}", 800 * MB)),
            ("a/b/memory.current", format!("{}", 100 * MB)),
            ("a/memory.max", format!("{}", 500 * MB)),
            ("a/memory.current", format!("{}", 400 * MB)),
        ];
        assert_eq!(room("0::/a/b\n", &files), Some(100 * MB));
    }

    #[test]
    fn a_container_sees_its_own_limit_at_the_mount_under_version_one() {
        let groups =
            "12:pids:/docker/4f2e\n4:cpu,memory:/docker/4f2e\n1:name=systemd:/docker/4f2e\n";
        let files = [
            ("memory/memory.limit_in_bytes", format!("{}", 2048 * MB)),
            ("memory/memory.usage_in_bytes", format!("{}", 1100 * MB)),
            (
                "memory/memory.stat",
                format!("cache {}\nrss 1\ntotal_cache {}\n", 9, 1000 * MB),
            ),
        ];
        assert_eq!(room(groups, &files), Some(1948 * MB));
        // Version one's "no limit", as this machine writes it.
        let unlimited = [(
            "memory/memory.limit_in_bytes",
            "9223372036854771712\n".to_string(),
        )];
        assert_eq!(room(groups, &unlimited), None);
        assert_eq!(room("garbled\n\n", &files), None);
    }
}
