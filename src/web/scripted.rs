//! A scripted stand-in for the daemon task, for tests of the web layer only: plays the [`DaemonInbox`] side with a fixed run (first start → run 1 to `done`, any later start → 409).

use crate::daemon::docs::{
    CalibrationDoc, GuideDoc, PaletteColourDoc, PhotoDoc, Progress, StickerDoc,
};
use crate::daemon::{DaemonEvent, DaemonInbox, DaemonState, Refusal, Request, StatusDoc};
use crate::daemon::{EStopButtonDoc, LinkDoc, LinkState};
use cubed_core::cube::{format_moves, parse_moves, ColourScheme, FaceOrder, FaceletCube, Notation};
use cubed_core::cube::{move_in_words, states_after};
use cubed_core::error_chain::error_chain;
use std::time::Duration;

/// The scramble the scripted robot finds in its cube.
pub const SCRAMBLE: &str = "R U F' L2 D";
/// Its solution, the one the scripted run executes and guide mode answers.
pub const SOLUTION: &str = "D' L2 F U' R'";
/// What the second start is refused with.
pub const SECOND_START: &str = "scripted daemon: only one run per test";
/// What the scripted robot says of its e-stop button after an e-stop: held, as if pressed
/// on the robot as well, until the Reset.
pub const BUTTON_HELD: &str = "scripted robot: its e-stop button is held";
/// What the scripted calibration asks the person to mend.
pub const CALIBRATION_WARNING: &str = "calibration: the orange stickers (face L) spread 7.9 from their colour on average, more than half the way to red (14.2 away): some may read as red: light the cube evenly, without glare, and calibrate again";

const SCHEME: ColourScheme = ColourScheme {
    symbols: ['W', 'R', 'G', 'Y', 'O', 'B'],
};

/// The standard palette (white up, green front).
pub fn palette() -> Vec<PaletteColourDoc> {
    [
        ("white", 'W', 'U', "#ebebeb"),
        ("red", 'R', 'R', "#be1e28"),
        ("green", 'G', 'F', "#1ea050"),
        ("yellow", 'Y', 'D', "#e6d728"),
        ("orange", 'O', 'L', "#fa781e"),
        ("blue", 'B', 'B', "#1e50be"),
    ]
    .into_iter()
    .map(|(name, symbol, face, rgb)| PaletteColourDoc {
        name: name.to_string(),
        symbol,
        face,
        rgb: rgb.to_string(),
    })
    .collect()
}

/// The idle daemon before any run.
pub fn idle_status() -> StatusDoc {
    StatusDoc {
        state: DaemonState::Idle,
        run: None,
        resumable: None,
        message: "ready: put a cube in the robot and press start".to_string(),
        progress: None,
        facelets: None,
        facelets_guessed: false,
        facelets_unread: false,
        calibrating_run: false,
        solution: Vec::new(),
        photos: Vec::new(),
        notice: None,
        robot: "scripted".to_string(),
        camera: "scripted".to_string(),
        cube_size: "3x3".to_string(),
        palette: palette(),
        link: Default::default(),
        estop_button: None,
        history_read_only: false,
        actions_need_token: false,
        min_confidence: 0.98,
        stopping: false,
    }
}

/// The scrambled cube, and the cube after each turn of [`SOLUTION`], as palette symbols.
pub fn states() -> Vec<String> {
    let scramble = parse_moves(SCRAMBLE, Notation::Singmaster).unwrap_or_default();
    let solution = parse_moves(SOLUTION, Notation::Singmaster).unwrap_or_default();
    let mut cube = FaceletCube::default().apply_all(&scramble);
    let mut out = vec![cube.to_symbols(&SCHEME)];
    for m in solution {
        cube = cube.apply(m);
        out.push(cube.to_symbols(&SCHEME));
    }
    out
}

/// Answers requests until the handle side is gone; `step` paces the scripted run.
pub async fn respond(mut inbox: DaemonInbox, step: Duration) {
    let mut started = false;
    while let Some(request) = inbox.requests.recv().await {
        match request {
            Request::Start { reply, .. } => {
                if started {
                    let _ = reply.send(Err(Refusal::conflict(SECOND_START)));
                    continue;
                }
                started = true;
                let _ = reply.send(Ok(1));
                run(&inbox, step).await;
            }
            Request::Stop { reply } => {
                let _ = reply.send(Ok(()));
            }
            Request::EStop { reply } => {
                inbox.status.send_modify(|s| {
                    s.state = DaemonState::EStopped;
                    s.message = "emergency stop".to_string();
                    s.link = LinkDoc::down(LinkState::EStopHeld, BUTTON_HELD);
                    s.estop_button = Some(EStopButtonDoc::new(true));
                });
                let _ = reply.send(Ok(()));
            }
            Request::Reset { reply } => {
                let latched = matches!(
                    inbox.status.borrow().state,
                    DaemonState::EStopped | DaemonState::Faulted
                );
                if latched {
                    inbox.status.send_modify(|s| {
                        s.state = DaemonState::Idle;
                        s.message = "reset".to_string();
                        s.link = LinkDoc::open();
                        s.estop_button = None;
                    });
                    let _ = reply.send(Ok(()));
                } else {
                    let _ = reply.send(Err(Refusal::conflict("nothing to reset")));
                }
            }
            Request::Resume { reply } => {
                let _ = reply.send(Err(Refusal::conflict("no interrupted run waits")));
            }
            Request::Calibrate { reply } => {
                let _ = reply.send(Ok(CalibrationDoc {
                    palette: palette(),
                    before: vec![4.0; 6],
                    after: vec![1.0; 6],
                    saved_to: "/tmp/scripted-palette.toml".to_string(),
                    warnings: vec![CALIBRATION_WARNING.to_string()],
                }));
            }
            Request::Guide { facelets, reply } => {
                let _ = reply.send(guide(&facelets));
            }
        }
    }
}

/// Guide mode knows one cube: the scripted scramble (in any six symbols).
fn guide(facelets: &str) -> Result<GuideDoc, Refusal> {
    let (cube, scheme) = FaceletCube::parse(facelets, FaceOrder::Urfdlb, None)
        .map_err(|e| Refusal::bad_request(error_chain(&e)))?;
    let ours = states();
    if cube.to_symbols(&SCHEME) != ours[0] {
        return Err(Refusal::bad_request(format!(
            "scripted daemon: can only solve the scramble {SCRAMBLE}"
        )));
    }
    let moves = parse_moves(SOLUTION, Notation::Singmaster).unwrap_or_default();
    let woolley = format_moves(&moves, Notation::Woolley).unwrap_or_default();
    let states = states_after(cube, &moves, |c, m| c.apply(m), |c| c.to_symbols(&scheme));
    Ok(GuideDoc {
        facelets: facelets.to_string(),
        hold: cubed_core::cube::holding_words(3, &scheme),
        solution: SOLUTION.split(' ').map(str::to_string).collect(),
        woolley: woolley.split(' ').map(str::to_string).collect(),
        words: moves.iter().map(|&m| move_in_words(m)).collect(),
        states,
        faces: scheme.symbols.iter().collect(),
    })
}

/// Run 1: scanning → solving → executing move by move → verifying → done.
async fn run(inbox: &DaemonInbox, step: Duration) {
    let states = states();
    let solution: Vec<String> = SOLUTION.split(' ').map(str::to_string).collect();
    let moves = solution.len();
    let photos: Vec<PhotoDoc> = "URFDLB"
        .chars()
        .enumerate()
        .map(|(i, face)| PhotoDoc {
            face,
            attempt: 0,
            url: format!("/api/runs/1/images/0/{face}"),
            stickers: states[0][i * 9..i * 9 + 9]
                .chars()
                .enumerate()
                .map(|(k, symbol)| StickerDoc {
                    symbol,
                    rgb: "#808080".to_string(),
                    confidence: if k == 2 { 0.5 } else { 0.9999 },
                })
                .collect(),
            grid: Some([0.25, 0.2, 0.75, 0.8]),
            check: false,
        })
        .collect();
    let push = |f: &dyn Fn(&mut StatusDoc)| inbox.status.send_modify(|s| f(s));
    push(&|s| {
        s.state = DaemonState::Scanning;
        s.run = Some(1);
        s.message = "scanning the cube".to_string();
        s.progress = None;
        s.facelets = None;
        s.photos = Vec::new();
    });
    tokio::time::sleep(step).await;
    push(&|s| {
        s.state = DaemonState::Solving;
        s.message = "solving".to_string();
        s.facelets = Some(states[0].clone());
        s.photos = photos.clone();
    });
    let line = DaemonEvent::Log {
        message: format!("solution: {SOLUTION}"),
        at_ms: 0,
    };
    inbox.recent.keep(line.clone());
    let _ = inbox.events.send(line);
    tokio::time::sleep(step).await;
    for (done, cube) in states.iter().enumerate() {
        push(&|s| {
            s.state = DaemonState::Executing;
            s.message = "turning".to_string();
            s.solution = solution.clone();
            s.facelets = Some(cube.clone());
            s.facelets_unread = true;
            s.progress = Some(progress(done, moves));
        });
        tokio::time::sleep(step).await;
    }
    push(&|s| {
        s.state = DaemonState::Verifying;
        s.message = "checking the cube is solved".to_string();
    });
    tokio::time::sleep(step).await;
    push(&|s| {
        s.state = DaemonState::Done;
        s.message = format!("solved in {moves} moves");
        // The check scan read it.
        s.facelets_unread = false;
    });
    let _ = inbox.events.send(DaemonEvent::RunFinished {
        run: 1,
        outcome: "solved".to_string(),
        at_ms: 0,
        abandoned: false,
    });
}

fn progress(done: usize, moves: usize) -> Progress {
    Progress {
        moves_done: done,
        moves,
        // Homing first, then three commands a move: commands do not count as moves do.
        commands_done: done * 3 + 1,
        commands: moves * 3 + 1,
        elapsed_ms: done as u64 * 900,
        eta_ms: (moves - done) as u64 * 900,
    }
}
