//! What machine a benchmark ran on (CPU model, cores, last-level cache), printed with the
//! figures: the same code measured 5–7 and 13 M nodes/s on two hosts of one machine kind.

/// One line naming the host, e.g. `host: AMD EPYC · 2 cores · L3 32768K`.
pub fn host_line() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpu_model(&cpuinfo).unwrap_or("unknown CPU");
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut line = format!("host: {model} · {cores} cores");
    if let Some(l3) = last_level_cache() {
        line.push_str(&format!(" · L3 {l3}"));
    }
    line
}

/// The first `model name` in the text of `/proc/cpuinfo`.
fn cpu_model(cpuinfo: &str) -> Option<&str> {
    cpuinfo
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(key, _)| key.trim() == "model name")
        .map(|(_, value)| value.trim())
        .filter(|v| !v.is_empty())
}

/// The size of CPU 0's level-3 cache as the kernel says it (`32768K`), when it does.
fn last_level_cache() -> Option<String> {
    let dir = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    (0..8).find_map(|i| {
        let index = dir.join(format!("index{i}"));
        let level = std::fs::read_to_string(index.join("level")).ok()?;
        if level.trim() != "3" {
            return None;
        }
        let size = std::fs::read_to_string(index.join("size")).ok()?;
        Some(size.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_name_is_read_from_cpuinfo() {
        let text =
            "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t: fpu\n";
        assert_eq!(cpu_model(text), Some("AMD EPYC"));
        assert_eq!(cpu_model("processor\t: 0\nmodel name\t:   \n"), None);
        assert_eq!(cpu_model(""), None);
    }

    #[test]
    fn the_host_line_names_the_cores() {
        let line = host_line();
        assert!(line.starts_with("host: "), "{line}");
        assert!(line.contains(" cores"), "{line}");
    }
}
