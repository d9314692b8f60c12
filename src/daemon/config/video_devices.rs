//! The video devices there now, as `cubed config show` tells them: which are a USB webcam's picture, read from sysfs, for a Raspberry Pi's codec and ISP devices are video devices too.

use std::path::Path;

/// One `/dev/videoN` as sysfs describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VideoDevice {
    /// N in `/dev/videoN`.
    pub number: u32,
    /// What the driver calls it ("HD Webcam C270", "bcm2835-codec-decode").
    pub name: String,
    /// Whether it hangs off a USB bus.
    pub usb: bool,
    /// The device's node index: a UVC webcam's picture is node 0, its metadata node 1.
    pub index: u32,
}

impl VideoDevice {
    /// Whether this is what a USB webcam sends its picture on.
    pub(crate) fn is_webcam_picture(&self) -> bool {
        self.usb && self.index == 0
    }
}

/// The video devices under `class` (`/sys/class/video4linux`), by number; none if it is not
/// there (no V4L2 in the kernel, or a container without sysfs).
pub(crate) fn video_devices_under(class: &Path) -> Vec<VideoDevice> {
    let Ok(entries) = std::fs::read_dir(class) else {
        return Vec::new();
    };
    let mut devices: Vec<VideoDevice> = (entries.flatten())
        .filter_map(|entry| {
            let number = entry
                .file_name()
                .to_str()?
                .strip_prefix("video")?
                .parse()
                .ok()?;
            let dir = entry.path();
            let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
            let bus = std::fs::canonicalize(dir.join("device")).ok();
            Some(VideoDevice {
                number,
                name: read("name").map_or_else(String::new, |n| n.trim().to_string()),
                usb: bus.is_some_and(|p| p.components().any(|c| is_usb_bus(c.as_os_str()))),
                index: read("index")
                    .and_then(|i| i.trim().parse().ok())
                    .unwrap_or(0),
            })
        })
        .collect();
    devices.sort_by_key(|d| d.number);
    devices
}

/// "usb1", "usb2": a USB bus in a sysfs device path.
fn is_usb_bus(component: &std::ffi::OsStr) -> bool {
    let name = component.to_string_lossy();
    name.strip_prefix("usb")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// In words: the USB webcams' pictures by path and name, and how many other video devices
/// there are; `dev_count` (the `/dev/video*` nodes) serves where sysfs tells nothing.
pub(crate) fn video_devices_words(devices: &[VideoDevice], dev_count: usize) -> String {
    if devices.is_empty() {
        return match dev_count {
            0 => "no video device (/dev/video*) is there now".into(),
            n => format!(
                "{} (/dev/video*) there now",
                crate::words::count(n, "video device", "video devices")
            ),
        };
    }
    let webcams: Vec<String> = (devices.iter())
        .filter(|d| d.is_webcam_picture())
        .map(|d| format!("/dev/video{} ({})", d.number, d.name))
        .collect();
    let others = devices.len() - webcams.len();
    let others = match others {
        0 => String::new(),
        n => format!(
            "; {} no webcam's picture (a Pi's codecs, a webcam's second node)",
            crate::words::count(n, "other video device is", "other video devices are")
        ),
    };
    match webcams.len() {
        0 => format!("no USB webcam there now{others}"),
        n => format!(
            "{} there now: {}{others}",
            crate::words::count(n, "USB webcam", "USB webcams"),
            webcams.join(", ")
        ),
    }
}

/// Why `usb:N` names no webcam's picture: `/dev/videoN` is there but is another device.
pub(crate) fn not_a_webcam(devices: &[VideoDevice], source: &str) -> Option<String> {
    let number: u32 = source.parse().ok()?;
    let device = devices.iter().find(|d| d.number == number)?;
    (!device.is_webcam_picture()).then(|| {
        let what = if device.usb {
            "a webcam's second node (its metadata), not its picture"
        } else {
            "not a USB device"
        };
        format!(
            "/dev/video{number} is '{}', {what}: give the webcam's number",
            device.name
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A sysfs tree as a Raspberry Pi with a UVC webcam shows it: the webcam's two nodes on
    /// USB, a codec on the SoC's platform bus.
    fn pi_with_a_webcam(root: &Path) -> PathBuf {
        let class = root.join("class/video4linux");
        let usb = root.join(
            "devices/platform/scb/fd500000.pcie/pci0000:00/0000:01:00.0/usb1/1-1/1-1.3/1-1.3:1.0",
        );
        let codec = root.join("devices/platform/soc/soc:bcm2835-codec");
        for (node, bus, name, index) in [
            ("video0", &usb, "HD Webcam C270", 0),
            ("video1", &usb, "HD Webcam C270", 1),
            ("video10", &codec, "bcm2835-codec-decode", 0),
        ] {
            let dir = class.join(node);
            std::fs::create_dir_all(&dir).expect("node");
            std::fs::create_dir_all(bus).expect("bus");
            std::os::unix::fs::symlink(bus, dir.join("device")).expect("link");
            std::fs::write(dir.join("name"), format!("{name}\n")).expect("name");
            std::fs::write(dir.join("index"), format!("{index}\n")).expect("index");
        }
        class
    }

    #[test]
    fn a_pis_codec_and_a_webcams_metadata_node_are_told_from_its_picture() {
        let root = tempfile::tempdir().expect("temp dir");
        let devices = video_devices_under(&pi_with_a_webcam(root.path()));
        let pictures: Vec<u32> = (devices.iter())
            .filter(|d| d.is_webcam_picture())
            .map(|d| d.number)
            .collect();
        assert_eq!(pictures, [0]);
        assert_eq!(
            video_devices_words(&devices, 3),
            "1 USB webcam there now: /dev/video0 (HD Webcam C270); 2 other video devices are no webcam's picture (a Pi's codecs, a webcam's second node)"
        );
        assert_eq!(not_a_webcam(&devices, "0"), None);
        let codec = not_a_webcam(&devices, "10").expect("the codec");
        assert!(
            codec.contains("'bcm2835-codec-decode', not a USB device"),
            "{codec}"
        );
        let metadata = not_a_webcam(&devices, "1").expect("the metadata node");
        assert!(metadata.contains("its metadata"), "{metadata}");
        assert_eq!(
            not_a_webcam(&devices, "C270"),
            None,
            "a name is matched when opened"
        );
    }

    #[test]
    fn without_sysfs_the_nodes_in_dev_are_counted() {
        let devices = video_devices_under(Path::new("/no/such/sysfs"));
        assert!(devices.is_empty());
        assert_eq!(
            video_devices_words(&devices, 2),
            "2 video devices (/dev/video*) there now"
        );
        assert_eq!(
            video_devices_words(&devices, 0),
            "no video device (/dev/video*) is there now"
        );
    }
}
