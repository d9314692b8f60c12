//! `cubed tables`: build the solver tables into the cache now (the package does it at install), or say where the cached ones are.

use crate::command_line::tables::cache_all_tables;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(crate) struct TablesArgs {
    /// Where to cache them (default: $CUBED_CACHE_DIR, $XDG_CACHE_HOME/cubed or ~/.cache/cubed;
    /// the daemon's service uses /var/lib/cubed/cache).
    #[arg(long, value_parser = crate::command_line::tables::cache_folder)]
    pub(crate) cache_dir: Option<PathBuf>,
    /// Also the axial search's tables (~37 MB), used by robots that turn opposite faces at
    /// once (six-motor); otherwise built at the first solve that needs them.
    #[arg(long)]
    pub(crate) axial: bool,
}

/// Builds what is missing, then lists each table file with its size.
pub(crate) fn tables_cmd(args: TablesArgs) -> anyhow::Result<ExitCode> {
    let dir = args
        .cache_dir
        .unwrap_or_else(crate::command_line::tables::default_cache_dir);
    let files = cache_all_tables(&dir, args.axial)?;
    for file in files {
        println!(
            "{} tables: {} ({:.1} MB, {})",
            file.cube,
            file.path.display(),
            file.bytes as f64 / 1e6,
            file.how
        );
    }
    Ok(ExitCode::SUCCESS)
}
