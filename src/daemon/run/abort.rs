//! The abort flag: the service asks a run to stop or e-stop, and the run checks it at step boundaries (or, where it only waits, as soon as it is raised).

use std::sync::atomic::{AtomicU8, Ordering};
use tokio::sync::Notify;

/// What the run has been asked to do besides carry on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abort {
    /// A person asked the run to stop.
    Stop,
    /// The run history could not be written: the run stops, and has failed.
    History,
    EStop,
}

/// Set by the service, read by the run at step boundaries.
#[derive(Debug, Default)]
pub(crate) struct AbortFlag {
    code: AtomicU8,
    raised: Notify,
}

impl AbortFlag {
    pub(crate) fn request(&self, abort: Abort) {
        let code = match abort {
            Abort::Stop => 1,
            Abort::History => 2,
            Abort::EStop => 3,
        };
        self.code.fetch_max(code, Ordering::SeqCst);
        self.raised.notify_waiters();
    }

    /// Returns once anything has been asked for (at once if it already was): for a run
    /// that only waits, such as on the solver, and can end without reaching a step boundary.
    pub(crate) async fn raised(&self) -> Abort {
        self.until(|asked| asked).await
    }

    /// Returns once an emergency stop has been asked for (at once if it already was); a stop
    /// asked for meanwhile does not end the wait.
    pub(crate) async fn emergency(&self) {
        self.until(|asked| (asked == Some(Abort::EStop)).then_some(()))
            .await
    }

    /// Waits until what has been asked for makes `enough` say so.
    async fn until<T>(&self, enough: impl Fn(Option<Abort>) -> Option<T>) -> T {
        loop {
            let notified = self.raised.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(done) = enough(self.requested()) {
                return done;
            }
            notified.await;
        }
    }

    pub(crate) fn requested(&self) -> Option<Abort> {
        match self.code.load(Ordering::SeqCst) {
            0 => None,
            1 => Some(Abort::Stop),
            2 => Some(Abort::History),
            _ => Some(Abort::EStop),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn raised_returns_once_asked_whether_before_or_while_it_waits() {
        let flag = Arc::new(AbortFlag::default());
        let waiting = tokio::spawn({
            let flag = Arc::clone(&flag);
            async move { flag.raised().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "nothing was asked yet");
        flag.request(Abort::Stop);
        flag.request(Abort::EStop);
        assert_eq!(waiting.await.ok(), Some(Abort::EStop));
        assert_eq!(flag.raised().await, Abort::EStop, "already asked");
    }

    #[tokio::test]
    async fn emergency_waits_through_a_plain_stop_for_the_emergency_stop() {
        let flag = Arc::new(AbortFlag::default());
        let waiting = tokio::spawn({
            let flag = Arc::clone(&flag);
            async move { flag.emergency().await }
        });
        flag.request(Abort::Stop);
        tokio::task::yield_now().await;
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "a plain stop is not an emergency");
        flag.request(Abort::EStop);
        assert!(waiting.await.is_ok());
        flag.emergency().await; // already asked: returns at once
    }
}
