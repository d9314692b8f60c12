//! The checks of a robot design as a whole: keys that validate one at a time but leave a cube
//! unsupported, a face that can never be turned, or a face no camera can see.

use super::{ConfigError, Ctx};
use crate::model::{Grip, Reach};
use crate::reach::{abilities, abilities_within, Abilities};
use crate::RobotModel;
use cubed_core::cube::Face;

impl Ctx<'_> {
    /// Designs that validate one key at a time but cannot work as a whole.
    pub(super) fn check_possible(&self, model: &RobotModel) -> Result<(), ConfigError> {
        if !model.supported(model.home().closed) {
            return Err(self.impossible(
                "[support]",
                "sets",
                "with every gripper closed the cube is in none of the support sets",
            ));
        }
        let can = abilities(model);
        let unturnable: Vec<Face> = Face::ALL
            .into_iter()
            .filter(|&face| !can.can_turn(face))
            .collect();
        if let Some(&face) = unturnable.first() {
            let what = faces_never_turned(&unturnable);
            let all_turn = |can: &Abilities| unturnable.iter().all(|&f| can.can_turn(f));
            if let Some(refusal) = self.out_of_step_blocks(model, all_turn, &what) {
                return Err(refusal);
            }
            let support_blocks = held_anyhow(model).can_turn(face);
            let (changes, complete) = match support_blocks {
                true => (Vec::new(), 0),
                false => complete_first(model, changes_that_turn(model, &unturnable)),
            };
            let never_flips = support_blocks.then(|| flipper_never_flips(model)).flatten();
            let (section, key, cause) = match (support_blocks, changes.first()) {
                (true, _) if never_flips.is_some() => {
                    let f = &model.flippers[never_flips.unwrap_or(0)];
                    (
                        format!("[[flipper]] '{}'", f.name),
                        "needs_open",
                        SUPPORT_BLOCKS,
                    )
                }
                (true, _) => ("[support]".to_string(), "sets", SUPPORT_BLOCKS),
                (false, Some(first)) => (first.section(model), first.key, A_TURN_NEEDS),
                // No one change: the first gripper's `at`, where a person starts to look.
                (false, None) => (gripper_section(model, 0), "at", NO_ONE_CHANGE),
            };
            let crossing = match changes.is_empty() && !support_blocks {
                true => crossing_grips(model),
                false => String::new(),
            };
            return Err(self.impossible(
                &section,
                key,
                format!(
                    "{}: no state the grippers reach lets one of them turn it ({cause}){crossing}{}{}{}{}",
                    faces_never_turned(&unturnable),
                    never_flips.map_or(String::new(), |f| why_never_flips(model, f)),
                    never_turning(model),
                    advice(model, &changes, "turn", unturnable.len()),
                    not_all_complete(&changes, complete)
                ),
            ));
        }
        let unseen: Vec<Face> = Face::ALL.into_iter().filter(|&f| !can.can_see(f)).collect();
        if unseen.is_empty() || model.cameras.is_empty() {
            return Ok(());
        }
        let all_seen = |can: &Abilities| unseen.iter().all(|&f| can.can_see(f));
        let what = faces_never_shown(&unseen);
        if let Some(refusal) = self.out_of_step_blocks(model, all_seen, &what) {
            return Err(refusal);
        }
        Err(self.unseen(model, &unseen))
    }

    /// Why `faces` can never be shown to a camera, at the key likeliest to be wrong.
    fn unseen(&self, model: &RobotModel, faces: &[Face]) -> ConfigError {
        let seen_all = |can: Abilities| faces.iter().all(|&f| can.can_see(f));
        let waiting = model.cameras.iter().position(|c| !c.needs_open.is_empty());
        let mut changes = Vec::new();
        let (section, key, cause) = match waiting {
            Some(c) if seen_all(views_cleared(model)) => (
                format!("[[camera]] #{} '{}'", c + 1, model.cameras[c].name),
                "needs_open",
                NEEDS_OPEN_BLOCKS,
            ),
            _ if seen_all(held_anyhow(model)) => ("[support]".to_string(), "sets", SUPPORT_BLOCKS),
            _ => {
                changes = changes_that_show(model, faces);
                let cause = "the grippers' `at` and `range`";
                match changes.first() {
                    Some(first) => (first.section(model), first.key, cause),
                    None => (
                        format!("[[camera]] #1 '{}'", model.cameras[0].name),
                        "at",
                        cause,
                    ),
                }
            }
        };
        self.impossible(
            &section,
            key,
            format!(
                "{} with a clear view: no state the grippers reach ({cause}) turns {} to a \
                 camera's `at` with nothing in the way{}{}",
                faces_never_shown(faces),
                if faces.len() == 1 { "it" } else { "them" },
                never_turning(model),
                advice(model, &changes, "be seen", faces.len())
            ),
        )
    }
}

/// The section of gripper `g`, by its name (placed at its line), or `[[gripper]]` if it has none.
fn gripper_section(model: &RobotModel, g: usize) -> String {
    match model.grippers.get(g) {
        Some(gripper) => format!("[[gripper]] '{}'", gripper.name),
        None => "[[gripper]]".to_string(),
    }
}

/// "; gripper 'left' never turns (`range = [0, 0]`)" for each gripper that cannot turn, the
/// likeliest cause of an impossible design when one was meant to; else empty.
fn never_turning(model: &RobotModel) -> String {
    (model.grippers.iter())
        .filter(|g| !g.reach.turns())
        .map(|g| format!("; gripper '{}' never turns (`range = [0, 0]`)", g.name))
        .collect()
}

/// "; grippers 'bottom' (at down) and 'side' (at right) both grip layers, and those layers
/// cross …" for the first two grippers on different axes that both close on layers: while
/// either holds its layer, the other's cannot turn (they share the pieces between them), the
/// likeliest cause when no one change helps; else empty.
fn crossing_grips(model: &RobotModel) -> String {
    let grips_layers = |g: &&crate::model::Gripper| g.grip != Grip::Centre;
    let layered: Vec<_> = model.grippers.iter().filter(grips_layers).collect();
    let pair = layered.iter().enumerate().find_map(|(i, a)| {
        let b = layered[i + 1..]
            .iter()
            .find(|b| b.at.axis() != a.at.axis())?;
        Some((a, b))
    });
    let Some((a, b)) = pair else {
        return String::new();
    };
    format!(
        "; grippers '{}' (at {}) and '{}' (at {}) both close on layers, and those layers cross \
         (they share the pieces between {} and {}): while either holds its layer the other \
         cannot turn its own, so one of them should grip only the centre cap (`grips = \"centre\"`, \
         with `carries_cube = true` on the grippers that must turn the whole cube; a 3x3 only, a \
         2x2 has no centre caps), or the cube be held by something else while each turns",
        a.name, a.at, b.name, b.at, a.at, b.at
    )
}

/// The first flipper that can never flip: with the grippers it needs open let go, no support
/// set holds the cube.
fn flipper_never_flips(model: &RobotModel) -> Option<usize> {
    let all = model.home().closed;
    model.flippers.iter().position(|f| {
        let open = (f.needs_open.iter()).fold(0u16, |mask, &g| mask | 1 << g);
        !model.supported(all & !open)
    })
}

/// "; flipper 'tipper' can never flip: it needs 'base', 'clamp' open (…), and then no support
/// set holds the cube: …", with what would hold it.
fn why_never_flips(model: &RobotModel, f: usize) -> String {
    let flipper = &model.flippers[f];
    let names: Vec<String> = (flipper.needs_open.iter())
        .map(|&g| format!("'{}'", model.grippers[g].name))
        .collect();
    format!(
        "; flipper '{}' can never flip: it needs {} open (every gripper with a jaw must let go \
         for a flip), and then no support set holds the cube: the cube needs a support set of \
         grippers without a jaw, which hold it through a flip (`jaw = false` on the gripper the \
         cube stands on, as a turntable, with `range = \"continuous\"`)",
        flipper.name,
        names.join(", ")
    )
}

/// "face U can never be turned", "faces U, F can never be turned", "no face can ever be turned".
fn faces_never_turned(faces: &[Face]) -> String {
    let letters: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    match faces.len() {
        6 => "no face can ever be turned".to_string(),
        1 => format!("face {} can never be turned", letters[0]),
        _ => format!("faces {} can never be turned", letters.join(", ")),
    }
}

/// "face R can never be shown to a camera", "faces R, F can never be shown to a camera".
fn faces_never_shown(faces: &[Face]) -> String {
    let letters: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    match faces.len() {
        1 => format!("face {} can never be shown to a camera", letters[0]),
        _ => format!(
            "faces {} can never be shown to a camera",
            letters.join(", ")
        ),
    }
}

/// What a face turn needs, and the keys that decide it.
const A_TURN_NEEDS: &str = "a face turns when a closed gripper there turns its layer while \
                            the rest of the cube is held still, by the gripper opposite or by \
                            a `centre` grip from the side, and no closed `layer` or \
                            `two-layers` grip from the side crosses the turning layer: check \
                            the grippers' `at`, `grips`, `jaw`, `range` and `carries_cube`";

/// What a turn needs, when no single change of one gripper's key would give it.
const NO_ONE_CHANGE: &str = "no one change of a gripper's `range`, `jaw`, `grips` or \
                             `carries_cube` would let it: a face turns when a closed gripper \
                             there turns its layer while the rest of the cube is held still, so \
                             these faces need a gripper at them, or a way to turn the cube that \
                             brings them to one (a flipper, or grippers that turn it)";

/// Why a state is out of reach when the cube held any way would reach it.
const SUPPORT_BLOCKS: &str = "the support sets: the grippers that would do it must let go \
                              while no set still holds the cube";

/// Why a face no camera sees would be seen if the cameras waited for no gripper.
const NEEDS_OPEN_BLOCKS: &str = "the cameras' `needs_open`: a camera waits for those grippers \
                                 to open, and while they are open no support set holds the cube";

/// What the design could show if its cameras waited for no gripper to open.
fn views_cleared(model: &RobotModel) -> Abilities {
    let mut clear = model.clone();
    for camera in &mut clear.cameras {
        camera.needs_open.clear();
    }
    abilities(&clear)
}

/// What the design could do if the cube stayed put whatever holds it: what `[support]` alone
/// forbids is possible here (searched only to say which key an impossible design should change).
fn held_anyhow(model: &RobotModel) -> Abilities {
    let relaxed = RobotModel {
        support: vec![0],
        ..model.clone()
    };
    abilities(&relaxed)
}

/// States a search with one key changed may visit before that change is not offered (an
/// impossible large design would otherwise be searched to its end once per change).
const STATES_PER_CHANGE: usize = 50_000;

/// One key of one gripper written another way.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Change {
    gripper: usize,
    key: &'static str,
    written: String,
}

impl Change {
    fn section(&self, model: &RobotModel) -> String {
        gripper_section(model, self.gripper)
    }

    /// `model` with this change made.
    fn applied(&self, model: &RobotModel) -> RobotModel {
        let mut changed = model.clone();
        let tries = one_key_changes(&model.grippers[self.gripper]);
        if let Some((_, _, change)) = (tries.into_iter())
            .find(|(key, written, _)| *key == self.key && *written == self.written)
        {
            apply(&mut changed, self.gripper, change);
        }
        changed
    }
}

/// Each change of one key of one gripper that would let every face of `faces` turn, tried
/// alone; for `range`, the narrowest of those tried that does.
fn changes_that_turn(model: &RobotModel, faces: &[Face]) -> Vec<Change> {
    changes_that(model, |can| faces.iter().all(|&f| can.can_turn(f)))
}

/// `changes`, first those after which the design also shows every face to its cameras (how
/// many, second): the advice and its line lead with a change that leaves nothing else to
/// refuse.
fn complete_first(model: &RobotModel, changes: Vec<Change>) -> (Vec<Change>, usize) {
    if model.cameras.is_empty() {
        let all = changes.len();
        return (changes, all);
    }
    let shows_all = |change: &Change| {
        let can = abilities_within(&change.applied(model), STATES_PER_CHANGE);
        can.is_some_and(|can| Face::ALL.into_iter().all(|f| can.can_see(f)))
    };
    // Each change searched once; a stable sort keeps the order found among equals.
    let mut judged: Vec<(bool, Change)> = (changes.into_iter())
        .map(|change| (shows_all(&change), change))
        .collect();
    judged.sort_by_key(|(complete, _)| !complete);
    let complete = judged.iter().filter(|(complete, _)| *complete).count();
    (
        judged.into_iter().map(|(_, change)| change).collect(),
        complete,
    )
}

/// Each change of one key of one gripper that would let every face of `faces` be seen.
fn changes_that_show(model: &RobotModel, faces: &[Face]) -> Vec<Change> {
    changes_that(model, |can| faces.iter().all(|&f| can.can_see(f)))
}

/// Each change of one key of one gripper after which the design can do what `wanted` asks,
/// tried alone; for `range`, the narrowest of those tried that does.
fn changes_that(model: &RobotModel, wanted: impl Fn(&Abilities) -> bool) -> Vec<Change> {
    let turns_all = |changed: &RobotModel| {
        abilities_within(changed, STATES_PER_CHANGE).is_some_and(|can| wanted(&can))
    };
    let mut found = Vec::new();
    for (g, gripper) in model.grippers.iter().enumerate() {
        let tries = one_key_changes(gripper);
        let mut range_found = false;
        for (key, written, changed) in tries {
            if key == "range" && range_found {
                continue;
            }
            let mut design = model.clone();
            apply(&mut design, g, changed);
            if turns_all(&design) {
                range_found |= key == "range";
                found.push(Change {
                    gripper: g,
                    key,
                    written,
                });
            }
        }
    }
    found
}

/// A gripper changed in one key.
type Changed = fn(&mut crate::model::Gripper);

/// Gripper `g` of `design` changed by `changed`; one that turns now but was given no times
/// (it never turned) is tried as built like the gripper opposite it, so in step with it (the
/// builder gives it times once it turns; a mismatch is refused then, naming both).
fn apply(design: &mut RobotModel, g: usize, changed: Changed) {
    changed(&mut design.grippers[g]);
    let gripper = &design.grippers[g];
    if !gripper.reach.turns() || gripper.quarter_ms != 0 {
        return;
    }
    let at = gripper.at.opposite();
    let times = (design.grippers.iter())
        .find(|other| other.at == at && other.reach.turns())
        .map_or((150, 250, None), |o| (o.quarter_ms, o.half_ms, o.drive));
    let gripper = &mut design.grippers[g];
    (gripper.quarter_ms, gripper.half_ms, gripper.drive) = times;
}

/// The other ways worth trying for each key of `gripper` that decides what it can turn.
fn one_key_changes(gripper: &crate::model::Gripper) -> Vec<(&'static str, String, Changed)> {
    let mut tries: Vec<(&'static str, String, Changed)> = Vec::new();
    if let Reach::Limited { min, max } = gripper.reach {
        // Without a jaw to let go, a limited gripper cannot turn its face again and again.
        if gripper.has_jaw && (min > -1 || max < 1) {
            let (min, max) = (min.min(-1), max.max(1));
            tries.push(("range", format!("range = [{min}, {max}]"), |g| {
                if let Reach::Limited { min, max } = &mut g.reach {
                    (*min, *max) = ((*min).min(-1), (*max).max(1));
                }
            }));
        }
        tries.push(("range", "range = \"continuous\"".to_string(), |g| {
            g.reach = Reach::Continuous
        }));
    }
    if !gripper.has_jaw {
        tries.push(("jaw", "jaw = true".to_string(), |g| g.has_jaw = true));
    }
    // A layer grip first: it holds a 2x2 too, which has no centre caps.
    if gripper.grip == Grip::TwoLayers {
        tries.push(("grips", "grips = \"layer\"".to_string(), |g| {
            g.grip = Grip::Layer
        }));
    }
    if gripper.grip != Grip::Centre {
        tries.push(("grips", CENTRE_GRIP.to_string(), |g| g.grip = Grip::Centre));
    }
    let carries = !gripper.carries_cube;
    tries.push(("carries_cube", format!("carries_cube = {carries}"), |g| {
        g.carries_cube = !g.carries_cube
    }));
    tries
}

/// " (only the first 2 also leave every face in a camera's view; the others leave more to
/// change)" when some of the changes offered would not make the design whole; else empty.
fn not_all_complete(changes: &[Change], complete: usize) -> String {
    match complete {
        _ if complete >= changes.len() => String::new(),
        0 => " (none of them alone also leaves every face in a camera's view)".to_string(),
        1 => " (only the first also leaves every face in a camera's view; the others leave more to change)".to_string(),
        n => format!(" (only the first {n} also leave every face in a camera's view; the others leave more to change)"),
    }
}

/// "; any one of these changes would let it turn: gripper 'left' `range = [-1, 1]`, …", or
/// nothing.
fn advice(model: &RobotModel, changes: &[Change], to_do: &str, faces: usize) -> String {
    if changes.is_empty() {
        return String::new();
    }
    let centre = |c: &Change| c.written == CENTRE_GRIP;
    let each: Vec<String> = (changes.iter())
        .map(|c| {
            let only = if centre(c) { " (a 3x3 only)" } else { "" };
            format!(
                "gripper '{}' `{}`{only}",
                model.grippers[c.gripper].name, c.written
            )
        })
        .collect();
    let lead = match each.len() {
        1 => "this change would let",
        _ => "any one of these changes would let",
    };
    let them = if faces == 1 { "it" } else { "them" };
    let pocket = match changes.iter().all(centre) {
        true => format!("; a 2x2 has no centre caps to grip: for a 2x2, {FOR_A_POCKET}"),
        false => String::new(),
    };
    format!("; {lead} {them} {to_do}: {}{pocket}", each.join(", "))
}

/// A gripper changed to grip the centre cap, as the advice writes it.
const CENTRE_GRIP: &str = "grips = \"centre\"";

/// What a 2x2 needs where only centre grips would do on a 3x3.
const FOR_A_POCKET: &str = "each face to turn needs a gripper there whose layer turns while \
                            the cube's other layer is held (by the gripper opposite, closed on \
                            it), or a way to bring the face to such a gripper (a flipper, or \
                            grippers that turn the whole cube)";

#[cfg(test)]
mod tests;
