//! The 3x3 solver a daemon holds: loaded before a daemon that runs 3x3s starts; for one that runs 2x2s, loaded only when a person first asks the page's guide for a 3x3 (its tables, ~122 MB, are otherwise never read).

use cubed_core::solver::Solver;
use std::sync::Arc;
use tokio::sync::OnceCell;

type Load = dyn Fn() -> Arc<Solver> + Send + Sync;

/// A 3x3 solver, loaded now or at its first use. Cheap to clone: clones share the solver and
/// load it once between them.
#[derive(Clone)]
pub struct ThreeSolver {
    solver: Arc<OnceCell<Arc<Solver>>>,
    load: Arc<Load>,
}

impl ThreeSolver {
    /// A solver whose tables are read (or built) by `load` the first time it is asked for, off
    /// the runtime's threads.
    pub fn on_first_use(load: impl Fn() -> Solver + Send + Sync + 'static) -> ThreeSolver {
        ThreeSolver {
            solver: Arc::new(OnceCell::new()),
            load: Arc::new(move || Arc::new(load())),
        }
    }

    /// The solver, if it has been loaded.
    pub fn loaded(&self) -> Option<&Arc<Solver>> {
        self.solver.get()
    }

    /// The solver, loaded first if it has not been (callers meanwhile wait for the same load).
    pub async fn get(&self) -> Arc<Solver> {
        let load = Arc::clone(&self.load);
        let solver =
            (self.solver).get_or_init(|| async move { off_the_runtime(move || load()).await });
        Arc::clone(solver.await)
    }
}

/// `work`'s result, worked out off the runtime's threads (or here, when a runtime shutting
/// down refuses new blocking tasks).
pub(crate) async fn off_the_runtime<T: Send + 'static>(
    work: impl Fn() -> T + Clone + Send + 'static,
) -> T {
    match tokio::task::spawn_blocking(work.clone()).await {
        Ok(done) => done,
        Err(_) => work(),
    }
}

impl From<Arc<Solver>> for ThreeSolver {
    /// A solver already loaded: its "load" is the same solver, never read again.
    fn from(solver: Arc<Solver>) -> ThreeSolver {
        let same = Arc::clone(&solver);
        ThreeSolver {
            solver: Arc::new(OnceCell::new_with(Some(solver))),
            load: Arc::new(move || Arc::clone(&same)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubed_core::solver::Tables;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn counted() -> (ThreeSolver, Arc<AtomicUsize>) {
        let loads = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&loads);
        let three = ThreeSolver::on_first_use(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            Solver::new(Arc::new(Tables::small()))
        });
        (three, loads)
    }

    #[tokio::test]
    async fn loads_once_at_first_use_and_clones_share_it() {
        let (three, loads) = counted();
        let copy = three.clone();
        assert!(three.loaded().is_none());
        assert_eq!(loads.load(Ordering::SeqCst), 0, "nothing loaded before use");
        let (first, second) = tokio::join!(three.get(), copy.get());
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        assert!(copy.loaded().is_some());
        three.get().await;
        assert_eq!(loads.load(Ordering::SeqCst), 1, "loaded once");
    }

    #[tokio::test]
    async fn a_solver_given_loaded_is_the_one_got() {
        let solver = Arc::new(Solver::new(Arc::new(Tables::small())));
        let three = ThreeSolver::from(Arc::clone(&solver));
        assert!(Arc::ptr_eq(three.loaded().expect("loaded"), &solver));
        assert!(Arc::ptr_eq(&three.get().await, &solver));
    }
}
