//! `cubed tables`: build the solver tables into the cache now (the package does it at install), or say where the cached ones are.

use clap::Args;
use cubed::command_line::tables::cache_all_tables;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct TablesArgs {
    /// Where to cache them (default: $CUBED_CACHE_DIR, $XDG_CACHE_HOME/cubed or ~/.cache/cubed;
    /// the daemon's service uses /var/lib/cubed/cache).
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
}

/// Builds what is missing, then lists each table file with its size.
pub fn tables_cmd(args: TablesArgs) -> anyhow::Result<ExitCode> {
    let dir = args
        .cache_dir
        .unwrap_or_else(cubed::command_line::tables::default_cache_dir);
    let files = cache_all_tables(&dir)?;
    for file in files {
        let how = if file.were_cached {
            "cached"
        } else {
            "built now"
        };
        println!(
            "{} tables: {} ({:.1} MB, {how})",
            file.cube,
            file.path.display(),
            file.bytes as f64 / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}
