//! The typed, validated robot model: grippers, flippers, cradles, support sets, cameras and timings, and the robot's state.

use super::direction::{Direction, Orientation};
use super::drive::Drive;
use super::wiring::pins::ActuatorWiring;
use firmware_protocol::message::BoardSetup;

/// Most grippers a design may have (the state packs one jaw bit and one angle per gripper).
pub(crate) const MAX_GRIPPERS: usize = 8;

/// What a gripper holds when its jaw is closed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Grip {
    /// The outer layer on its side (a four-arm robot's grippers, a turntable).
    Layer,
    /// The outer layer and the middle layer behind it (a holder that clamps two layers).
    TwoLayers,
    /// Only the centre cap: turning it turns the face, and it never blocks another face.
    Centre,
}

/// The angles a gripper can reach, in quarter turns from home.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reach {
    /// `min..=max` quarter turns (min ≤ 0 ≤ max).
    Limited { min: i8, max: i8 },
    /// Any angle: the angle never matters.
    Continuous,
}

impl Reach {
    /// Whether it turns at all (`[0, 0]`: a gripper that only holds).
    pub fn turns(self) -> bool {
        self != Reach::Limited { min: 0, max: 0 }
    }

    /// Whether a gripper at `angle` may turn by `quarters`.
    pub fn allows(self, angle: i8, quarters: i8) -> bool {
        match self {
            Reach::Limited { min, max } => (min..=max).contains(&(angle + quarters)),
            Reach::Continuous => true,
        }
    }

    /// The angle the planner keeps after turning by `quarters`. A continuous gripper's
    /// angle never limits a turn, so the planner keeps it at 0; the firmware still counts
    /// its position from home (its `Home` finds the mark and comes back to the quarter it
    /// left, which it counts 0 again): the host must use the firmware's positions, never
    /// this angle, to know whether a continuous gripper is on its mark.
    pub fn after(self, angle: i8, quarters: i8) -> i8 {
        match self {
            Reach::Limited { .. } => angle + quarters,
            Reach::Continuous => 0,
        }
    }
}

/// A gripper: a jaw at a direction that grips a block and can rotate it.
#[derive(Clone, PartialEq, Debug)]
pub struct Gripper {
    pub name: String,
    pub at: Direction,
    pub grip: Grip,
    /// False for a motor fixed to a centre cap or a turntable: always closed.
    pub has_jaw: bool,
    pub reach: Reach,
    /// Whether turning it alone carries the whole cube with it (a turntable).
    pub carries_cube: bool,
    pub quarter_ms: u32,
    pub half_ms: u32,
    pub open_ms: u32,
    pub close_ms: u32,
    /// The rotation's stepper drive, when the design gives one (its times derive from it).
    pub drive: Option<Drive>,
    /// Its pins, jaw servo and sensors, when the design gives them.
    pub(crate) wiring: Option<ActuatorWiring>,
}

impl Gripper {
    /// Time for a turn of `quarters` (±1 or ±2).
    pub fn turn_ms(&self, quarters: i8) -> u32 {
        if quarters.abs() >= 2 {
            self.half_ms
        } else {
            self.quarter_ms
        }
    }

    /// Whether this gripper and `other` turn through the same angle at every instant: the
    /// same times and, where a stepper drive is given, the same ramp in the same microsteps.
    /// Only such a pair may turn one block of the cube between them.
    pub fn turns_in_step_with(&self, other: &Gripper) -> bool {
        let same_times = self.quarter_ms == other.quarter_ms && self.half_ms == other.half_ms;
        let same_ramp = match (&self.drive, &other.drive) {
            (Some(a), Some(b)) => {
                a.steps_per_rev() == b.steps_per_rev()
                    && (a.max_deg_s, a.accel_deg_s2) == (b.max_deg_s, b.accel_deg_s2)
            }
            (None, None) => true,
            _ => false,
        };
        same_times && same_ramp
    }

    /// Its turns' times in words: "150 ms a quarter turn, 250 a half".
    pub fn times_in_words(&self) -> String {
        format!(
            "{} ms a quarter turn, {} a half",
            self.quarter_ms, self.half_ms
        )
    }

    /// What keeps this gripper and `other` from turning in step, in words: "their times",
    /// "`microsteps` 8 and 16", … (empty when nothing does).
    pub fn out_of_step_words(&self, other: &Gripper) -> String {
        let mut differ = Vec::new();
        if (self.quarter_ms, self.half_ms) != (other.quarter_ms, other.half_ms) {
            differ.push("their times".to_string());
        }
        match (&self.drive, &other.drive) {
            (Some(x), Some(y)) => {
                let keys = [
                    (
                        "full_steps_per_rev",
                        x.full_steps_per_rev,
                        y.full_steps_per_rev,
                    ),
                    ("microsteps", x.microsteps, y.microsteps),
                    ("max_deg_s", x.max_deg_s, y.max_deg_s),
                    ("accel_deg_s2", x.accel_deg_s2, y.accel_deg_s2),
                ];
                for (key, first, second) in keys.into_iter().filter(|(_, p, q)| p != q) {
                    differ.push(format!("`{key}` {first} and {second}"));
                }
                if (x.gear_num, x.gear_den) != (y.gear_num, y.gear_den) {
                    differ.push(format!(
                        "`gear` [{}, {}] and [{}, {}]",
                        x.gear_num, x.gear_den, y.gear_num, y.gear_den
                    ));
                }
            }
            (None, None) => {}
            _ => differ.push("a [gripper.motion] table on one only".to_string()),
        }
        differ.join(", ")
    }

    /// The turns worth considering from `angle`: quarters in -2..=2 the reach allows. A
    /// continuous gripper's -2 comes last: alone it is its +2 (the same time and effect, and
    /// the state graph keeps the first), but against an opposite gripper's +2 it is the
    /// half turn in sync that turns the whole cube.
    pub fn turn_options(&self, angle: i8) -> impl Iterator<Item = i8> + '_ {
        let candidates: &[i8] = match self.reach {
            Reach::Continuous => &[-1, 1, 2, -2],
            Reach::Limited { .. } => &[-2, -1, 1, 2],
        };
        candidates
            .iter()
            .copied()
            .filter(move |&q| self.reach.allows(angle, q))
    }
}

/// A flipper: tips the cube over so the face at `from` ends at `to`.
#[derive(Clone, PartialEq, Debug)]
pub struct Flipper {
    pub name: String,
    pub from: Direction,
    pub to: Direction,
    /// Grippers (indices) that must be open to flip.
    pub needs_open: Vec<usize>,
    pub flip_ms: u32,
    /// The cam's stepper drive (one revolution per flip), when the design gives one.
    pub drive: Option<Drive>,
    /// Its pins and sensors, when the design gives them.
    pub(crate) wiring: Option<ActuatorWiring>,
}

impl Flipper {
    /// The whole-cube rotation of a flip: `(about, quarters)`.
    pub fn rotation(&self) -> (Direction, i8) {
        for about in Direction::ALL {
            if self.from.rotated(about, 1) == self.to {
                return (about, 1);
            }
        }
        (self.from, 0)
    }
}

/// A passive support the cube rests on (never moves, never blocks a turn).
#[derive(Clone, PartialEq, Debug)]
pub struct Cradle {
    pub name: String,
    pub at: Direction,
}

/// A camera looking at the face in direction `at`.
#[derive(Clone, PartialEq, Debug)]
pub struct Camera {
    pub name: String,
    pub at: Direction,
    /// The direction the top edge of the image points to.
    pub image_top: Direction,
    /// Grippers (indices) that must be open for a clear view.
    pub needs_open: Vec<usize>,
    pub capture_ms: u32,
}

/// A validated robot design.
#[derive(Clone, PartialEq, Debug)]
pub struct RobotModel {
    pub name: String,
    pub description: String,
    pub grippers: Vec<Gripper>,
    pub flippers: Vec<Flipper>,
    pub cradles: Vec<Cradle>,
    /// Sets of grippers (bit masks over gripper indices) that hold the cube
    /// up when all are closed. Cradles are always there, so they are left out.
    pub support: Vec<u16>,
    pub cameras: Vec<Camera>,
    /// What every actuator shares on the firmware's board (ENABLE, e-stop, button), when
    /// the design gives its wiring.
    pub board: Option<BoardSetup>,
}

impl RobotModel {
    /// The grippers that hold only a centre cap, which a 2x2 does not have.
    pub fn centre_grippers(&self) -> Vec<&str> {
        (self.grippers.iter())
            .filter(|g| g.grip == Grip::Centre)
            .map(|g| g.name.as_str())
            .collect()
    }

    /// Whether the closed grippers `held` (bit mask) hold the cube up.
    pub fn supported(&self, held: u16) -> bool {
        self.support.iter().any(|set| set & !held == 0)
    }

    /// The state a plan starts from unless told otherwise: cube at home,
    /// every gripper closed at angle 0.
    pub fn home(&self) -> RobotState {
        RobotState {
            orientation: Orientation::HOME,
            closed: ((1u32 << self.grippers.len()) - 1) as u16,
            angles: [0; MAX_GRIPPERS],
        }
    }

    /// The index of the gripper called `name`.
    pub fn gripper_index(&self, name: &str) -> Option<usize> {
        self.grippers.iter().position(|g| g.name == name)
    }

    /// The index of the flipper called `name`.
    pub fn flipper_index(&self, name: &str) -> Option<usize> {
        self.flippers.iter().position(|f| f.name == name)
    }

    /// The index of the camera called `name`.
    pub fn camera_index(&self, name: &str) -> Option<usize> {
        self.cameras.iter().position(|c| c.name == name)
    }

    /// A note on grippers that take longer than [`SLOW_QUARTER_MS`] a quarter turn, which a
    /// unit mistake makes likelier than a design does (`max_deg_s = 4`, thinking in turns a
    /// second): "gripper 'left' takes 22.5 s a quarter turn (`max_deg_s` 4: …)".
    pub fn slow_turns_note(&self) -> Option<String> {
        // Grippers alike (the same time, for the same reason) are named together.
        let mut alike: Vec<(String, Vec<&str>)> = Vec::new();
        let slow_grippers =
            (self.grippers.iter()).filter(|g| g.reach.turns() && g.quarter_ms > SLOW_QUARTER_MS);
        for g in slow_grippers {
            let why = match &g.drive {
                Some(d) => format!(
                    "`max_deg_s` {}, `accel_deg_s2` {}: degrees a second at the gripper",
                    d.max_deg_s, d.accel_deg_s2
                ),
                None => "`quarter_ms`".to_string(),
            };
            let seconds = f64::from(g.quarter_ms) / 1000.0;
            let time = format!("{seconds:.1} s a quarter turn ({why})");
            match alike.iter_mut().find(|(t, _)| *t == time) {
                Some((_, names)) => names.push(&g.name),
                None => alike.push((time, vec![&g.name])),
            }
        }
        let slow: Vec<String> = (alike.iter())
            .map(|(time, names)| match &names[..] {
                [one] => format!("gripper '{one}' takes {time}"),
                many => format!("grippers '{}' take {time}", many.join("', '")),
            })
            .collect();
        (!slow.is_empty()).then(|| {
            format!(
                "{}; if that is not meant, check the units (a cube robot's quarter turn takes well under {} s)",
                slow.join("; "),
                SLOW_QUARTER_MS / 1000
            )
        })
    }
}

/// A quarter turn slower than this, in ms, is noted as a likely unit mistake.
pub(crate) const SLOW_QUARTER_MS: u32 = 2_000;

/// Everything about the robot that changes: the cube's orientation, which
/// jaws are closed (bit per gripper) and each gripper's angle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RobotState {
    pub orientation: Orientation,
    pub closed: u16,
    pub angles: [i8; MAX_GRIPPERS],
}

impl RobotState {
    /// Whether gripper `g`'s jaw is closed.
    pub fn is_closed(&self, g: usize) -> bool {
        self.closed & (1 << g) != 0
    }
}
