//! Commands a run sent but never heard done because it ended while the robot's link was lost (an emergency stop that could not reach the robot): the robot may finish some meanwhile, and when the link returns each one it reports done is owed to that run's record.

use super::Rig;

/// The commands of run `run` that went out and were not reported done, with the face turns
/// each completes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unconfirmed {
    pub run: u64,
    /// `(move id, face turns it completes)`, in the order they were sent.
    moves: Vec<(u32, u32)>,
}

impl Unconfirmed {
    pub(crate) fn new(run: u64, moves: Vec<(u32, u32)>) -> Unconfirmed {
        Unconfirmed { run, moves }
    }

    /// The face turns of `move_id` if it is one of these commands (no longer unconfirmed).
    fn confirm(&mut self, move_id: u32) -> Option<u32> {
        let at = self.moves.iter().position(|&(id, _)| id == move_id)?;
        Some(self.moves.remove(at).1)
    }
}

impl Rig {
    /// Remembers commands a run left unconfirmed, until they are reported done or the next
    /// program streams.
    pub(crate) fn leave_unconfirmed(&mut self, unconfirmed: Unconfirmed) {
        self.unconfirmed = Some(unconfirmed);
    }

    /// A command reported done between runs: the run it belongs to and the face turns it
    /// completed, if it is one a run left unconfirmed.
    pub(crate) fn confirm_meanwhile(&mut self, move_id: u32) -> Option<(u64, u32)> {
        let unconfirmed = self.unconfirmed.as_mut()?;
        let turns = unconfirmed.confirm(move_id)?;
        Some((unconfirmed.run, turns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_is_confirmed_once_with_its_own_turns() {
        let mut left = Unconfirmed::new(7, vec![(12, 0), (13, 2), (14, 1)]);
        assert_eq!(left.confirm(13), Some(2));
        assert_eq!(left.confirm(13), None, "once");
        assert_eq!(left.confirm(11), None, "not one of them");
        assert_eq!(left.confirm(12), Some(0));
        assert_eq!(left.confirm(14), Some(1));
    }
}
