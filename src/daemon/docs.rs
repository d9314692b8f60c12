//! The daemon's documents, as the web page, the CLI client and the run history exchange them: states, the status document, pushed events, guide and calibration answers, and run records.

use serde::{Deserialize, Serialize};

pub use crate::daemon::link_status::{EStopButtonDoc, LinkDoc, LinkState};

/// What the daemon is doing.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum DaemonState {
    Idle,
    Scanning,
    Solving,
    Executing,
    Verifying,
    /// The last run ended with the cube verified solved.
    Done,
    /// A run is waiting for the robot's link to come back (it resumes by itself).
    Paused,
    /// The last run failed (the message says why); a new start is allowed.
    Faulted,
    /// The emergency stop is latched; `resume` (finish the interrupted run) or `reset`
    /// (abandon it) leaves this state.
    EStopped,
    /// A run was interrupted (a fault, a firmware restart during a move) and waits for a
    /// person: the message says what to do before `resume` (or `reset` to abandon it).
    NeedsAttention,
}

impl DaemonState {
    /// The state as people read it (`e-stopped` for [`DaemonState::EStopped`]).
    pub fn name(self) -> &'static str {
        match self {
            DaemonState::Idle => "idle",
            DaemonState::Scanning => "scanning",
            DaemonState::Solving => "solving",
            DaemonState::Executing => "executing",
            DaemonState::Verifying => "verifying",
            DaemonState::Done => "done",
            DaemonState::Paused => "paused",
            DaemonState::Faulted => "faulted",
            DaemonState::EStopped => "e-stopped",
            DaemonState::NeedsAttention => "needs attention",
        }
    }

    /// Whether the state waits for a person's Resume or Reset (an e-stop latched, a run
    /// interrupted by a fault or a firmware restart).
    pub fn waits_for_a_person(self) -> bool {
        matches!(self, DaemonState::EStopped | DaemonState::NeedsAttention)
    }

    /// Whether a run is in progress (start is refused).
    pub fn is_busy(self) -> bool {
        matches!(
            self,
            DaemonState::Scanning
                | DaemonState::Solving
                | DaemonState::Executing
                | DaemonState::Verifying
                | DaemonState::Paused
        )
    }
}

/// Who asked for a run.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum StartSource {
    /// The robot's start button (a firmware event).
    Button,
    /// The web page or the REST API.
    Web,
    /// `cubed start`.
    Cli,
    /// `cubed dry-run`.
    DryRun,
    /// Calibration of the palette (a scan of a solved cube).
    Calibration,
}

impl StartSource {
    pub fn as_str(self) -> &'static str {
        match self {
            StartSource::Button => "button",
            StartSource::Web => "web",
            StartSource::Cli => "cli",
            StartSource::DryRun => "dry_run",
            StartSource::Calibration => "calibration",
        }
    }
}

/// Progress of the program being executed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Progress {
    /// Face turns of the solution completed ("move 12 of 19").
    pub moves_done: usize,
    pub moves: usize,
    /// Firmware commands acknowledged done, of all commands of the program.
    pub commands_done: usize,
    pub commands: usize,
    pub elapsed_ms: u64,
    /// Planned time left, scaled by the pace so far; 0 once the program ended short (a stop,
    /// an e-stop, a fault: the counts above say where).
    pub eta_ms: u64,
}

/// One sticker as read from a photo.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StickerDoc {
    /// Palette symbol of the colour it was read as.
    pub symbol: char,
    /// The sampled colour, "#rrggbb".
    pub rgb: String,
    /// The calibrated probability (0..=1) that it is read right.
    pub confidence: f32,
}

/// One photo of the current or last run. The status lists photos by scan attempt, each
/// scan's in URFDLB order.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PhotoDoc {
    /// Cube face (URFDLB letter).
    pub face: char,
    /// The run's round (see `ScanRecord::attempt`).
    pub attempt: u32,
    /// Where the PNG is served (`/api/runs/{id}/images/{attempt}/{face}`); the photo is
    /// turned so the face appears as in the net (U above F, …), like `stickers`.
    pub url: String,
    /// The nine stickers in net order (empty until classified).
    pub stickers: Vec<StickerDoc>,
    /// Where the stickers are in the photo as shown: `[left, top, right, bottom]`, fractions
    /// of its width and height, once it is read; none when not known (the page then spreads
    /// the stickers over the whole photo).
    #[serde(default)]
    pub grid: Option<[f32; 4]>,
    /// Taken by the scan that checks a solution after its turns ("check N" in the run's
    /// record), not by one before solving. In a run's record, each scan's `label` says it.
    #[serde(default)]
    pub check: bool,
}

/// A colour of the palette.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PaletteColourDoc {
    pub name: String,
    pub symbol: char,
    pub face: char,
    /// Reference colour as "#rrggbb".
    pub rgb: String,
}

/// Everything the page shows, pushed on every change (and served by `GET /api/status`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StatusDoc {
    pub state: DaemonState,
    /// Current run (or the one waiting for Resume), or the last one; none after an e-stop
    /// between runs (then no photos, solution or cube either).
    pub run: Option<u64>,
    /// The interrupted run a Resume goes on with: set while a run waits for a person (its
    /// task ended e-stopped or needing attention) until it is resumed or reset to abandon it.
    /// None when Resume is refused as having nothing to resume (an e-stop or fault between
    /// runs, a run still stopping, a Reset done); the page offers Resume only while it is set.
    #[serde(default)]
    pub resumable: Option<u64>,
    /// One sentence for people: what is happening, or why it failed.
    pub message: String,
    pub progress: Option<Progress>,
    /// The cube as the daemon believes it now (URFDLB, palette symbols), updated move by move.
    pub facelets: Option<String>,
    /// `facelets` is only the best guess of a reading that was refused (not acted on).
    #[serde(default)]
    pub facelets_guessed: bool,
    /// `facelets` is the cube as the turns made should have left it, not yet read by a scan
    /// (while the robot turns, and until the check scan has read it).
    #[serde(default)]
    pub facelets_unread: bool,
    /// The run is a calibration: its photos are of a solved cube, taken for its colours, and
    /// no cube is read from them.
    #[serde(default)]
    pub calibrating_run: bool,
    /// The solution being executed (Singmaster).
    pub solution: Vec<String>,
    pub photos: Vec<PhotoDoc>,
    /// Something the user must know that outlives a run (e.g. an interrupted run after a crash).
    pub notice: Option<String>,
    pub robot: String,
    pub camera: String,
    /// The cube the daemon solves (`[run] cube_size`): "3x3" or "2x2".
    #[serde(default)]
    pub cube_size: String,
    pub palette: Vec<PaletteColourDoc>,
    /// The robot's link as the daemon last saw it.
    #[serde(default)]
    pub link: LinkDoc,
    /// The robot's e-stop button, while it is held or the stop it latched waits for a Reset;
    /// none otherwise, and while the robot cannot say (its link not open).
    #[serde(default)]
    pub estop_button: Option<EStopButtonDoc>,
    /// The run history could not be written when the daemon started (a full disk): runs are
    /// refused until space is freed (and, when it opened read-only, the daemon restarted;
    /// `notice` says which and where).
    #[serde(default)]
    pub history_read_only: bool,
    /// Starting, stopping (the emergency stop too) and the other actions need `[http]
    /// token`: a page asks for it before anything is pressed.
    #[serde(default)]
    pub actions_need_token: bool,
    /// `[vision] min_confidence`: stickers read less surely are in doubt (the page marks them
    /// on the photos).
    #[serde(default)]
    pub min_confidence: f32,
    /// A Stop was taken and the run has not yet reached the step boundary it ends at (the move
    /// under way finishes first).
    #[serde(default)]
    pub stopping: bool,
}

impl StatusDoc {
    /// Shows nothing of the last run: its progress, photos, solution and cube (the history
    /// keeps them), as a new run begins or an e-stop between runs leaves none.
    pub(crate) fn forget_the_run(&mut self) {
        (self.progress, self.facelets) = (None, None);
        (
            self.facelets_guessed,
            self.facelets_unread,
            self.calibrating_run,
        ) = (false, false, false);
        self.photos.clear();
        self.solution.clear();
    }
}

/// Pushed over the WebSocket (`/api/events`), one JSON object per message.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // status pushes are the common case; boxing them buys nothing
pub enum DaemonEvent {
    Status(StatusDoc),
    /// A line for the page's log; `at_ms`: when it was said (ms since the Unix epoch).
    Log {
        message: String,
        #[serde(default)]
        at_ms: u64,
    },
    /// A run has ended; `at_ms`: when (ms since the Unix epoch).
    RunFinished {
        run: u64,
        outcome: String,
        #[serde(default)]
        at_ms: u64,
        /// The run waited for a person and Reset abandoned it (its outcome is how it stopped).
        #[serde(default)]
        abandoned: bool,
    },
}

/// A solution for a person to follow (guide mode): the turns and the cube after each.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GuideDoc {
    /// The cube to solve (URFDLB, its own symbols).
    pub facelets: String,
    /// How to hold the cube so the turns' faces are the ones meant (a 2x2 by the corner that
    /// never moves), as `cubed solve --steps` says it.
    #[serde(default)]
    pub hold: String,
    pub solution: Vec<String>,
    /// The same turns in the 1988 notation (`T+ F- …`).
    pub woolley: Vec<String>,
    /// Each turn in words, for a person holding the cube (`turn the right face a quarter
    /// turn clockwise, as seen from the right`).
    #[serde(default)]
    pub words: Vec<String>,
    /// `states[0]` is the cube given; `states[i]` the cube after `i` turns.
    pub states: Vec<String>,
    /// The symbol of each face, U R F D L B (a 2x2's from its fixed back-left-bottom corner
    /// and the pieces): what colours the page draws each symbol in.
    #[serde(default)]
    pub faces: String,
}

/// What calibration changed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CalibrationDoc {
    pub palette: Vec<PaletteColourDoc>,
    /// Per colour: mean ΔE00 of its stickers to the old and the new reference.
    pub before: Vec<f32>,
    pub after: Vec<f32>,
    /// Where the new palette was written.
    pub saved_to: String,
    /// What the person should mend before the palette is trusted (uneven light, a camera that
    /// mirrors, a lamp too bright); also in the log.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The newest calibration that succeeded, for the page's Colours tab (`GET /api/calibration`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct LastCalibration {
    /// Its run.
    pub run: u64,
    /// When it ended, Unix ms.
    pub finished_ms: Option<i64>,
    pub calibration: CalibrationDoc,
}

/// A run in the history list.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
pub struct RunSummary {
    pub id: u64,
    /// Unix time, ms.
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    pub source: String,
    /// The cube the run was for, "3x3" or "2x2" (`None` for runs recorded
    /// before the history kept it).
    pub cube: Option<String>,
    /// `None` while running; else "solved", "already_solved", "calibrated", "refused",
    /// "unverified" (the turns made, the check scan after them unsure), "failed", "stopped", "estopped", "waiting" (for Resume, after a fault or a firmware
    /// restart) or "interrupted" (the daemon stopped during the run).
    pub outcome: Option<String>,
    /// Face turns the robot made in the run, in all (before and after an interruption),
    /// journaled as each command is acknowledged.
    pub moves: Option<u32>,
    /// Why the run did not end solved: the refusal, the failure, or the stop asked for.
    pub error: Option<String>,
    /// The firmware's id of the last command it acknowledged as done (the journal). Ids run on
    /// across runs; `moves` counts the run's face turns.
    pub last_acked_move: Option<u32>,
    /// Interrupted, then abandoned with Reset instead of resumed.
    #[serde(default)]
    pub abandoned: bool,
}

impl RunSummary {
    /// How the run ended, in words: "solved", "e-stopped, abandoned (reset)", "running".
    pub fn ending_in_words(&self) -> String {
        let outcome = self.outcome.as_deref().map_or("running", outcome_in_words);
        match self.abandoned {
            true => format!("{outcome}, abandoned (reset)"),
            false => outcome.to_string(),
        }
    }
}

/// One scan of a run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ScanRecord {
    /// The run's round: 0 is the first scan; solve N, its execute and the scan that verifies
    /// it are round N. A run that goes on after an interruption starts a new round with a
    /// fresh scan, so a round cut short has no scan (scans 0, 2, 3).
    pub attempt: u32,
    /// Faces photographed, with the image URL of each.
    pub images: Vec<PhotoDoc>,
    /// Sampled sRGB of the 54 stickers (24 of a 2x2; URFDLB), empty if sampling failed.
    pub readings: Vec<[u8; 3]>,
    /// Classified cube (palette symbols), if it was read; with `error` set (stickers in
    /// doubt), the best guess, which was not given.
    pub facelets: Option<String>,
    /// Per sticker, the calibrated probability it is read right (empty if not read).
    pub confidence: Vec<f32>,
    /// Why the scan was refused.
    pub error: Option<String>,
    /// What a person calls it: "scan 1" (before solving), "check 1" (after solve 1).
    #[serde(default)]
    pub label: String,
    /// Photos this scan replaced when it took their faces again (stickers in doubt, a stop
    /// darker or brighter), by face and take: take 1 is a face's first photo.
    #[serde(default)]
    pub earlier: Vec<EarlierPhoto>,
}

/// A photo a scan took again: the take it replaced.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct EarlierPhoto {
    /// Cube face (URFDLB letter).
    pub face: char,
    /// The run's round (see `ScanRecord::attempt`).
    pub attempt: u32,
    /// 1 for the face's first photo in this scan, 2 for the next, …
    pub take: u32,
    /// Where the PNG is served (`/api/runs/{id}/images/{attempt}/{face}/{take}`).
    pub url: String,
}

/// A solution and its program.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SolutionRecord {
    /// The run's round (see `ScanRecord::attempt`).
    pub attempt: u32,
    pub solution: String,
    pub moves: u32,
    /// The gripper program (as `cubed plan --format json` prints it).
    pub program: serde_json::Value,
    pub planned_ms: u32,
    /// What a person calls it: "solve 1", "solve 2".
    #[serde(default)]
    pub label: String,
}

/// How long one phase of a run took.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StepTiming {
    /// "scan", "classify", "solve", "execute", "verify", …
    pub name: String,
    /// The run's round (see `ScanRecord::attempt`).
    pub attempt: u32,
    pub started_ms: i64,
    pub ms: f64,
    /// The round it belongs to as a person calls it: "scan 1", "solve 1", "check 1".
    #[serde(default)]
    pub label: String,
}

/// A run interrupted part-way (an e-stop, a fault, a firmware restart, the robot's link lost)
/// and how it went on.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct InterruptionRecord {
    /// Unix time, ms.
    pub at_ms: i64,
    /// "estop", "fault", "reboot" or "link" (the serial link lost: the run waits for it and
    /// goes on by itself).
    pub cause: String,
    /// What happened and what the person had to do, in words.
    pub advice: String,
    pub needs_person: bool,
    /// When the run went on (None: it did not, or not yet; a lost link that never came back).
    pub resumed_ms: Option<i64>,
    /// "person" (Resume) or "automatic"; "abandoned" when reset instead; for a lost link,
    /// "rebooted" when it came back to a restarted firmware (whose interruption follows).
    pub resumed_by: Option<String>,
    /// The run waits on this interruption now: it is the latest of the newest run, it needs a
    /// person, and nobody has resumed the run or reset to abandon it.
    #[serde(default)]
    pub waiting: bool,
}

/// Everything recorded of one run (`GET /api/runs/{id}`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RunDetail {
    pub summary: RunSummary,
    pub scans: Vec<ScanRecord>,
    pub solutions: Vec<SolutionRecord>,
    pub steps: Vec<StepTiming>,
    /// Interruptions and resumptions, oldest first.
    #[serde(default)]
    pub interruptions: Vec<InterruptionRecord>,
    /// Set when the run's photos were removed to keep the history within `[history]
    /// keep_runs` / `max_photo_mb` (its readings and everything else stay).
    #[serde(default)]
    pub photos_pruned: Option<PhotosPruned>,
    /// What a calibration run made (its palette and ΔE00 figures); `None` for other runs, a
    /// calibration that failed, and those recorded before the history kept them.
    #[serde(default)]
    pub calibration: Option<CalibrationDoc>,
}

/// A run's photos removed by the history's limits.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct PhotosPruned {
    /// How many photos were removed.
    pub photos: u32,
    /// When, Unix time in ms.
    pub at_ms: i64,
}

impl PhotosPruned {
    /// When, as a date for people, in UTC ("Sat, 28 Nov 2026 00:50:00 GMT").
    pub fn when(&self) -> String {
        date_in_words(self.at_ms)
    }
}

/// A time in Unix ms as a date for people, in UTC ("Sat, 28 Nov 2026 00:50:00 GMT"): the
/// page's messages and `cubed history` say times alike.
pub(crate) fn date_in_words(ms: i64) -> String {
    let since = std::time::Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    httpdate::fmt_http_date(std::time::UNIX_EPOCH + since)
}

/// A run's outcome as the history stores it (and the metrics label it), in the words the page,
/// the log and the command line use: "already solved", "e-stopped"; the others as they are.
pub(crate) fn outcome_in_words(outcome: &str) -> &str {
    match outcome {
        "already_solved" => "already solved",
        "estopped" => "e-stopped",
        "waiting" => "waiting for Resume",
        "unverified" => "unverified: look at the cube",
        other => other,
    }
}
