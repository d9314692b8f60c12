//! The options shared by the benches that sweep random cubes over the shipped robot designs.

use clap::Args;
use cubed::command_line::tables::TableArgs;

#[derive(Args, Debug)]
pub struct DesignSweepArgs {
    /// Robot design files or shipped designs' names, comma separated (`--robot` is the same).
    #[arg(
        long,
        alias = "robot",
        value_delimiter = ',',
        value_parser = cubed::command_line::designs::robot_design,
        default_value = "config/robots/four-arm.toml,config/robots/turntable-flipper.toml,config/robots/six-motor.toml"
    )]
    pub robots: Vec<std::path::PathBuf>,
    /// Uniformly random cubes per design.
    #[arg(long, default_value_t = 200, value_parser = cubed::command_line::counts::at_least_one)]
    pub cubes: usize,
    /// Seed of the random cubes (the same seed gives the same cubes).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub tables: TableArgs,
}
