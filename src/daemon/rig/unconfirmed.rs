//! Commands a run sent but never heard done because it ended while the robot's link was lost (an emergency stop that could not reach the robot): the robot may finish some meanwhile, and when the link returns each one it reports done is owed to that run's record.

use super::Rig;

/// The commands of run `run` that went out and were not reported done, with the face turns
/// each completes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unconfirmed {
    pub run: u64,
    /// The commands, in the order they were sent.
    moves: Vec<UnconfirmedMove>,
    /// The commands of the run's program, all told.
    of: usize,
}

/// One command a run left unconfirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnconfirmedMove {
    /// Its id on the link.
    pub move_id: u32,
    /// Its number in the program, from 1 (as the run counts commands).
    pub number: usize,
    /// The face turns it completes.
    pub turns: u32,
}

/// A command reported done between runs: the run it belongs to, and what it was there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConfirmedMeanwhile {
    pub run: u64,
    pub command: UnconfirmedMove,
    /// The commands of the run's program, all told.
    pub of: usize,
}

impl Unconfirmed {
    /// `moves` of run `run`, whose program has `of` commands.
    pub(crate) fn new(run: u64, moves: Vec<UnconfirmedMove>, of: usize) -> Unconfirmed {
        Unconfirmed { run, moves, of }
    }

    /// `move_id` if it is one of these commands (no longer unconfirmed).
    fn confirm(&mut self, move_id: u32) -> Option<UnconfirmedMove> {
        let at = self.moves.iter().position(|m| m.move_id == move_id)?;
        Some(self.moves.remove(at))
    }
}

impl Rig {
    /// Remembers commands a run left unconfirmed, until they are reported done or the next
    /// program streams.
    pub(crate) fn leave_unconfirmed(&mut self, unconfirmed: Unconfirmed) {
        self.unconfirmed = Some(unconfirmed);
    }

    /// A command reported done between runs, if it is one a run left unconfirmed: the run
    /// it belongs to, and what it was there.
    pub(crate) fn confirm_meanwhile(&mut self, move_id: u32) -> Option<ConfirmedMeanwhile> {
        let unconfirmed = self.unconfirmed.as_mut()?;
        let command = unconfirmed.confirm(move_id)?;
        Some(ConfirmedMeanwhile {
            run: unconfirmed.run,
            command,
            of: unconfirmed.of,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_is_confirmed_once_with_its_own_turns() {
        let sent = |move_id, number, turns| UnconfirmedMove {
            move_id,
            number,
            turns,
        };
        let mut left = Unconfirmed::new(7, vec![sent(12, 4, 0), sent(13, 5, 2), sent(14, 6, 1)], 9);
        assert_eq!(left.confirm(13), Some(sent(13, 5, 2)));
        assert_eq!(left.confirm(13), None, "once");
        assert_eq!(left.confirm(11), None, "not one of them");
        assert_eq!(left.confirm(12).map(|m| m.turns), Some(0));
        assert_eq!(left.confirm(14).map(|m| m.number), Some(6));
    }
}
