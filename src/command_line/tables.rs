//! The `--tables` and `--cache-dir` options shared by every command that solves, and loading a solver from them.

use crate::daemon::ThreeSolver;
use crate::robot::Planner;
pub(crate) use crate::table_cache::default_cache_dir;
use crate::table_cache::load_or_build_pocket;
use crate::table_cache::{load_or_build_announced, load_or_build_axial, CacheOutcome};
use clap::{Args, ValueEnum};
use cubed_core::pocket::{PocketSolver, PocketTables};
use cubed_core::solver::axial::AxialTables;
use cubed_core::solver::{Solver, TableMode, Tables};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum TablesArg {
    /// Symmetry-reduced tables (~122 MB), built once (10 to 20 s) and cached.
    Full,
    /// Small tables (a few MB) built in well under a second, never cached (and no axial
    /// search: face turns only, whatever the robot).
    Small,
}

#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Which solver tables to use.
    #[arg(long, value_enum, default_value_t = TablesArg::Full)]
    pub(crate) tables: TablesArg,
    /// Where the full tables are cached (default: $CUBED_CACHE_DIR, $XDG_CACHE_HOME/cubed or ~/.cache/cubed).
    #[arg(long, value_parser = cache_folder)]
    pub cache_dir: Option<PathBuf>,
}

/// `--cache-dir`: a folder, or a path where one can be made; not a file (refused before
/// seconds of building tables that then could not be kept there).
pub(crate) fn cache_folder(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    // The nearest part of the path that is there must be a folder (`/etc/passwd/sub` can
    // never be made).
    let there = path.ancestors().find(|p| p.exists());
    match there.filter(|p| !p.is_dir()) {
        Some(file) => Err(format!(
            "{} is a file, not a folder: give the folder the tables are to be cached in",
            file.display()
        )),
        None => Ok(path),
    }
}

/// `$CUBED_CACHE_DIR`, when it is set, held to what `--cache-dir` takes, and made if it is
/// not there: a folder that cannot be would cost every solve the seconds of building tables
/// that then could not be kept.
pub(crate) fn cache_folder_from_env() -> Result<(), String> {
    let Some(dir) = std::env::var_os("CUBED_CACHE_DIR").filter(|dir| !dir.is_empty()) else {
        return Ok(());
    };
    let made = cache_folder(&dir.to_string_lossy()).and_then(|path| {
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("{} cannot be made: {e}", path.display()))
    });
    made.map_err(|why| format!("$CUBED_CACHE_DIR: {why} (or unset it for the default)"))
}

impl TableArgs {
    /// Loads (or builds) the tables and says on stderr when that takes time or the cache was unusable.
    pub fn solver(&self) -> Solver {
        let mode = match self.tables {
            TablesArg::Full => TableMode::Full,
            TablesArg::Small => TableMode::Small,
        };
        let dir = self.cache_dir.clone().unwrap_or_else(default_cache_dir);
        let (tables, _) = load_reported(&dir, mode);
        Solver::new(Arc::new(tables))
    }

    /// The 2x2's solver, its tables from `--cache-dir` (or built and cached there).
    pub fn pocket_solver(&self) -> PocketSolver {
        pocket_solver(self.cache_dir.as_deref())
    }

    /// As [`TableArgs::solver`], with the axial search's tables too when the robot design at
    /// `design` is one it prices (every block leaves the robot as it was); a design that
    /// cannot be read, or planned for in the memory allowed, is left for its user to report.
    pub fn solver_for(&self, design: &Path) -> Solver {
        let solver = self.solver();
        let planner = || {
            let limit = crate::robot::planner_memory_limit().ok()?;
            Planner::within(crate::robot::load_robot(design).ok()?, limit).ok()
        };
        let axial = planner().and_then(|planner| self.axial_tables_for(&planner));
        match axial {
            Some(axial) => solver.with_axial_tables(axial),
            None => solver,
        }
    }

    /// The 3x3 solver a daemon started from `config` holds: for 3x3s, [`TableArgs::solver_for`]
    /// its robot, loaded now; for 2x2s (solved by their own tables), the plain solver, loaded
    /// only if the page's guide is asked for a 3x3 (a Pi keeps the ~122 MB otherwise).
    pub fn solver_for_config(&self, config: &crate::daemon::config::DaemonConfig) -> ThreeSolver {
        match config.cube_size {
            crate::daemon::config::CubeSize::Three => {
                Arc::new(self.solver_for(&config.robot_design)).into()
            }
            crate::daemon::config::CubeSize::Two => {
                let tables = self.clone();
                ThreeSolver::on_first_use(move || {
                    tracing::info!("loading the 3x3 solver's tables for the guide");
                    tables.solver()
                })
            }
        }
    }

    /// The axial search's tables (cached like the others) if `planner`'s design uses them;
    /// never with the small tables (quick, and nothing cached).
    pub fn axial_tables_for(&self, planner: &Planner) -> Option<Arc<AxialTables>> {
        if self.tables == TablesArg::Small {
            return None;
        }
        crate::robot::axial_prices(planner).ok()??;
        let dir = self.cache_dir.clone().unwrap_or_else(default_cache_dir);
        let (tables, _) = load_axial_reported(&dir);
        Some(Arc::new(tables))
    }
}

/// The axial search's tables from the cache in `dir`, else built (a spinner meanwhile) and
/// cached, saying so on stderr.
fn load_axial_reported(dir: &Path) -> (AxialTables, CacheOutcome) {
    let mut spinner = None;
    let (tables, outcome) = load_or_build_axial(dir, || {
        spinner = Some(announce(&format!(
            "building the axial search's tables, for robots that turn opposite faces at once (first use only: 5 to 10 s on a 2-core machine, then cached in {}, ~37 MB)",
            dir.display()
        )));
    });
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    report_built("axial search tables", &outcome, tables.build_seconds);
    (tables, outcome)
}

/// The tables of `mode` from the cache in `dir`, else built: a spinner while they are built,
/// then a line on stderr when they were built or the cache was unusable.
fn load_reported(dir: &Path, mode: TableMode) -> (Tables, CacheOutcome) {
    let mut spinner = None;
    let (tables, outcome) = load_or_build_announced(dir, mode, || {
        spinner = Some(announce_build(dir));
    });
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    report(&outcome, &tables);
    (tables, outcome)
}

/// Says that the tables are being built: a line in the log, and on a terminal a spinner with
/// the time elapsed (hidden when stderr is not a terminal, where the log line stands alone).
fn announce_build(dir: &std::path::Path) -> ProgressBar {
    announce(&format!(
        "building the solver tables (first use only: 10 to 20 s on a 2-core machine, then cached in {}, ~122 MB)",
        dir.display()
    ))
}

/// Says `what` is being built, as [`announce_build`] does.
fn announce(what: &str) -> ProgressBar {
    let what = what.to_string();
    if tracing::dispatcher::has_been_set() {
        tracing::info!("{what}");
    } else if !std::io::stderr().is_terminal() {
        eprintln!("cubed: {what}");
    }
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_message(what);
    if let Ok(style) = ProgressStyle::with_template("{spinner} cubed: {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

fn report(outcome: &CacheOutcome, tables: &Tables) {
    report_built("solver tables", outcome, tables.build_seconds);
}

/// Says on stderr when `what` was built, or its cache was unusable.
fn report_built(what: &str, outcome: &CacheOutcome, secs: f64) {
    match outcome {
        CacheOutcome::Loaded | CacheOutcome::Shared { .. } | CacheOutcome::BuiltSmall => {}
        CacheOutcome::Built => eprintln!("cubed: built {what} in {secs:.1} s and cached them"),
        CacheOutcome::Rebuilt { reason } => {
            eprintln!("cubed: cached {what} were unusable ({reason}); rebuilt in {secs:.1} s")
        }
        CacheOutcome::NotSaved { reason } => {
            eprintln!("cubed: built {what} in {secs:.1} s but could not cache them: {reason}")
        }
    }
}

/// Loads (or builds and caches) the 2x2 tables, saying on stderr when they were built.
pub(crate) fn pocket_solver(cache_dir: Option<&Path>) -> PocketSolver {
    let dir = cache_dir.map_or_else(default_cache_dir, Path::to_path_buf);
    let (tables, outcome) = load_or_build_pocket(&dir);
    report_pocket(&outcome, &tables);
    PocketSolver::new(Arc::new(tables))
}

/// Says on stderr when the 2x2 tables were built or their cache was unusable.
fn report_pocket(outcome: &CacheOutcome, tables: &PocketTables) {
    let ms = tables.build_seconds * 1000.0;
    match outcome {
        CacheOutcome::Loaded | CacheOutcome::Shared { .. } | CacheOutcome::BuiltSmall => {}
        CacheOutcome::Built => eprintln!("cubed: built 2x2 tables in {ms:.0} ms and cached them"),
        CacheOutcome::Rebuilt { reason } => {
            eprintln!("cubed: cached 2x2 tables were unusable ({reason}); rebuilt in {ms:.0} ms")
        }
        CacheOutcome::NotSaved { reason } => {
            eprintln!("cubed: built 2x2 tables in {ms:.0} ms but could not cache them: {reason}")
        }
    }
}

/// One cached table file `cubed tables` reports.
#[derive(Debug, Clone)]
pub(crate) struct CachedTables {
    /// What the tables are for ("3x3", "2x2").
    pub cube: &'static str,
    pub path: PathBuf,
    pub bytes: u64,
    /// How they came, in words: "cached", "built now", or read from the tables the package
    /// built (`path` then theirs), the cache having none.
    pub how: &'static str,
}

/// Why the tables could not be left in the cache.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TablesNotCached {
    #[error("cannot cache the solver tables in {}: {reason}", dir.display())]
    NoFolder { dir: PathBuf, reason: String },
    #[error("the {cube} tables were built but not cached: {reason}")]
    NotSaved { cube: &'static str, reason: String },
}

/// Makes `dir` and checks that a file can be written there, before minutes of building.
fn writable_folder(dir: &Path) -> Result<(), TablesNotCached> {
    let no_folder = |e: std::io::Error| TablesNotCached::NoFolder {
        dir: dir.to_path_buf(),
        reason: match dir.is_file() {
            true => "it is a file, not a folder".into(),
            false => cubed_core::error_chain::error_chain(&e),
        },
    };
    std::fs::create_dir_all(dir).map_err(no_folder)?;
    tempfile::NamedTempFile::new_in(dir).map_err(no_folder)?;
    Ok(())
}

/// Builds the 3x3's and the 2x2's tables into `dir` unless they are cached there already (an
/// unusable file is rebuilt), and with `axial` the axial search's too, saying on stderr what
/// takes time, as every solving command does.
pub(crate) fn cache_all_tables(
    dir: &Path,
    axial: bool,
) -> Result<Vec<CachedTables>, TablesNotCached> {
    writable_folder(dir)?;
    let (tables, outcome) = load_reported(dir, TableMode::Full);
    drop(tables);
    let full = cached(
        "3x3",
        crate::table_cache::cache_file(dir, TableMode::Full),
        &outcome,
    )?;
    let (pocket, outcome) = load_or_build_pocket(dir);
    report_pocket(&outcome, &pocket);
    drop(pocket);
    let pocket = cached("2x2", crate::table_cache::pocket_cache_file(dir), &outcome)?;
    if !axial {
        return Ok(vec![full, pocket]);
    }
    let (tables, outcome) = load_axial_reported(dir);
    drop(tables);
    let path = crate::table_cache::axial_cache_file(dir);
    Ok(vec![
        full,
        pocket,
        cached("3x3 axial-search", path, &outcome)?,
    ])
}

fn cached(
    cube: &'static str,
    path: PathBuf,
    outcome: &CacheOutcome,
) -> Result<CachedTables, TablesNotCached> {
    if let CacheOutcome::NotSaved { reason } = outcome {
        return Err(TablesNotCached::NotSaved {
            cube,
            reason: reason.clone(),
        });
    }
    let (path, how) = match outcome {
        CacheOutcome::Shared { path } => (path.clone(), "the package's, read from there"),
        CacheOutcome::Loaded => (path, "cached"),
        _ => (path, "built now"),
    };
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    Ok(CachedTables {
        cube,
        path,
        bytes,
        how,
    })
}
