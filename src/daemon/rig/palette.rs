//! The palette a run reads colours with, kept up to date: a palette calibrated into the data directory while the daemon runs (`cubed calibrate --output DATA_DIR/palette.toml`, the page of another daemon) is read again at the next start.

use super::{Rig, RigError};
use cubed_vision::light::palette::load_palette;
use std::path::Path;
use std::time::SystemTime;

/// When `file` was last written, if it exists.
pub(super) fn written_at(file: &Path) -> Option<SystemTime> {
    std::fs::metadata(file).and_then(|m| m.modified()).ok()
}

impl Rig {
    /// Reads the calibrated palette again if it was written since it was last read, and says
    /// so (`Some`); Err when it does not load (the run would read colours with a palette
    /// nobody chose).
    pub(crate) fn refresh_palette(&mut self) -> Result<Option<String>, RigError> {
        let written = written_at(&self.calibrated_file);
        if written.is_none() || written == self.palette_written {
            return Ok(None);
        }
        let palette = load_palette(&self.calibrated_file).map_err(RigError::CalibratedPalette)?;
        self.palette = palette;
        self.palette_file = self.calibrated_file.clone();
        self.palette_written = written;
        Ok(Some(format!(
            "palette: {} was calibrated since it was read: colours are read with it from now on",
            self.calibrated_file.display()
        )))
    }

    /// Notes that the calibrated palette was just written by this daemon (nothing to read
    /// again at the next start).
    pub(crate) fn calibrated_palette_written(&mut self) {
        self.palette_written = written_at(&self.calibrated_file);
    }
}
