//! The memory the planner may take on this machine: `CUBED_PLANNER_MEMORY_MB` if set, else three quarters of what the kernel says is available (`/proc/meminfo`).

use crate::robot::graph::memory::{MemoryLimit, PLANNER_MEMORY_VAR};

/// A planner memory limit that is not a whole number of megabytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{PLANNER_MEMORY_VAR}='{value}': expected a whole number of megabytes, 1 or more")]
pub struct BadMemoryLimit {
    pub value: String,
}

/// The limit for a state graph built now (reads the environment and `/proc/meminfo`; where
/// neither says, no limit).
pub fn planner_memory_limit() -> Result<MemoryLimit, BadMemoryLimit> {
    let set = std::env::var_os(PLANNER_MEMORY_VAR).map(|v| v.to_string_lossy().into_owned());
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    limit_from(set.as_deref(), meminfo.as_deref())
}

/// The limit `set` (the variable's value; empty, as unset) asks for, else three quarters of
/// `meminfo`'s `MemAvailable`.
fn limit_from(set: Option<&str>, meminfo: Option<&str>) -> Result<MemoryLimit, BadMemoryLimit> {
    if let Some(value) = set.filter(|value| !value.trim().is_empty()) {
        return match value.trim().parse::<u64>() {
            Ok(mb) if mb >= 1 => Ok(MemoryLimit::Set { mb }),
            _ => Err(BadMemoryLimit {
                value: value.to_string(),
            }),
        };
    }
    let available_kb = meminfo.and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    });
    Ok(match available_kb {
        Some(kb) => MemoryLimit::Available {
            mb: kb / 1024 * 3 / 4,
        },
        None => MemoryLimit::None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:        1919264 kB\nMemFree:          213000 kB\nMemAvailable:    1433600 kB\nBuffers:           40000 kB\n";

    #[test]
    fn the_variable_comes_first_then_three_quarters_of_what_is_available() {
        assert_eq!(
            limit_from(Some("300"), Some(MEMINFO)),
            Ok(MemoryLimit::Set { mb: 300 })
        );
        // 1,433,600 kB = 1400 MB available: the planner may take 1050.
        assert_eq!(
            limit_from(None, Some(MEMINFO)),
            Ok(MemoryLimit::Available { mb: 1050 })
        );
        assert_eq!(limit_from(None, None), Ok(MemoryLimit::None));
        assert_eq!(
            limit_from(Some(" "), None),
            Ok(MemoryLimit::None),
            "empty, as unset"
        );
        assert_eq!(
            limit_from(None, Some("MemTotal: 5 kB\n")),
            Ok(MemoryLimit::None)
        );
    }

    #[test]
    fn a_limit_that_is_not_whole_megabytes_is_refused_with_its_value() {
        for value in ["0", "-5", "1.5", "2GB"] {
            let err = limit_from(Some(value), Some(MEMINFO)).expect_err(value);
            assert!(err.to_string().contains(&format!("'{value}'")), "{err}");
            assert!(err.to_string().contains(PLANNER_MEMORY_VAR), "{err}");
        }
    }
}
