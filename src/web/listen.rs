//! The accept loop under the router: HTTP/1 connections with a header-read timeout, a
//! connection limit that always makes room for a new connection (so an e-stop gets in while
//! others hang), and graceful shutdown with a bound on how long a hung connection may delay it.

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, watch};

/// How much the web server lets clients hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WebLimits {
    /// A request header must arrive in full within this; it also closes a keep-alive
    /// connection that sends nothing (the idle timeout).
    pub header_timeout: Duration,
    /// Open HTTP connections at most; one more displaces the longest-idle one.
    pub max_connections: usize,
    /// Open event WebSockets at most; beyond this an upgrade is refused with 503.
    pub max_sockets: usize,
    /// Largest WebSocket message (and frame) accepted from a page.
    pub max_message: usize,
}

impl Default for WebLimits {
    fn default() -> WebLimits {
        WebLimits {
            header_timeout: Duration::from_secs(10),
            max_connections: 128,
            max_sockets: 64,
            max_message: 64 * 1024,
        }
    }
}

/// How long a connection may take to finish once the server shuts down.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);
/// Pause after a failed `accept` (e.g. out of file descriptors) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// One open connection, as the table sees it.
struct Slot {
    /// Requests being answered on it now (0 = idle or still sending its header).
    busy: Arc<AtomicUsize>,
    /// Dropping or sending closes the connection at once.
    close: oneshot::Sender<()>,
}

/// The open connections, oldest first (ids increase).
#[derive(Default)]
struct Table {
    next: u64,
    open: BTreeMap<u64, Slot>,
}

/// The connection table shared by the accept loop and the connections.
#[derive(Clone, Default)]
struct Slots(Arc<Mutex<Table>>);

impl Slots {
    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admits a new connection, first closing one if `max` are open: the oldest with no
    /// request in progress, else the oldest of all. A newcomer always gets in, so an e-stop
    /// from a new connection is answered whatever the others do.
    fn admit(&self, max: usize) -> Admitted {
        let mut table = self.lock();
        while table.open.len() >= max.max(1) {
            let idle = table
                .open
                .iter()
                .find(|(_, slot)| slot.busy.load(Ordering::Acquire) == 0)
                .map(|(id, _)| *id);
            let Some(victim) = idle.or_else(|| table.open.keys().next().copied()) else {
                break;
            };
            if let Some(slot) = table.open.remove(&victim) {
                let _ = slot.close.send(());
            }
        }
        let id = table.next;
        table.next += 1;
        let busy = Arc::new(AtomicUsize::new(0));
        let (close, closed) = oneshot::channel();
        table.open.insert(
            id,
            Slot {
                busy: busy.clone(),
                close,
            },
        );
        Admitted {
            id,
            busy,
            closed,
            slots: self.clone(),
        }
    }

    fn len(&self) -> usize {
        self.lock().open.len()
    }
}

/// A connection's place in the table; leaving it frees the place.
struct Admitted {
    id: u64,
    busy: Arc<AtomicUsize>,
    closed: oneshot::Receiver<()>,
    slots: Slots,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.slots.lock().open.remove(&self.id);
    }
}

/// Counts a request as in progress on its connection while alive.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn enter(counter: &Arc<AtomicUsize>) -> Busy {
        counter.fetch_add(1, Ordering::AcqRel);
        Busy(counter.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Resolves once `stop` is true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is not `Send`: dropped here, not held in a `select!`.
    let _ = stop.wait_for(|stopped| *stopped).await;
}

/// Accepts connections and serves `app` on each until `stop` turns true; then lets the open
/// ones finish (each within [`SHUTDOWN_GRACE`]) and returns.
pub(super) async fn accept_loop(
    listener: TcpListener,
    app: Router,
    limits: WebLimits,
    mut stop: watch::Receiver<bool>,
) {
    let slots = Slots::default();
    // Every connection task holds a clone; all are gone when `recv` returns `None`.
    let (alive, mut all_gone) = mpsc::channel::<()>(1);
    loop {
        let stream = tokio::select! {
            () = stopped(&mut stop) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("web server: accepting a connection: {e} ({} open)", slots.len());
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let admitted = slots.admit(limits.max_connections);
        let connection = Connection {
            admitted,
            app: app.clone(),
            header_timeout: limits.header_timeout,
            stop: stop.clone(),
            _alive: alive.clone(),
        };
        tokio::spawn(connection.serve(stream));
    }
    drop(listener);
    drop(alive);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE * 2, all_gone.recv()).await;
}

/// One accepted connection and what it answers to.
struct Connection {
    admitted: Admitted,
    app: Router,
    header_timeout: Duration,
    stop: watch::Receiver<bool>,
    _alive: mpsc::Sender<()>,
}

impl Connection {
    async fn serve(mut self, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let router = TowerToHyperService::new(self.app.clone());
        let busy = self.admitted.busy.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let guard = Busy::enter(&busy);
            let answer = router.call(request);
            async move {
                let response = answer.await;
                drop(guard);
                response
            }
        });
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_timeout)
            .keep_alive(true);
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::pin!(connection);
        tokio::select! {
            _ = connection.as_mut() => return,
            // Displaced by a newer connection: close now.
            _ = &mut self.admitted.closed => return,
            () = stopped(&mut self.stop) => {}
        }
        connection.as_mut().graceful_shutdown();
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(slots: &Slots) -> Vec<u64> {
        slots.lock().open.keys().copied().collect()
    }

    #[test]
    fn below_the_limit_everyone_stays() {
        let slots = Slots::default();
        let held: Vec<Admitted> = (0..3).map(|_| slots.admit(3)).collect();
        assert_eq!(open(&slots), vec![0, 1, 2]);
        drop(held);
        assert_eq!(slots.len(), 0, "leaving frees the place");
    }

    #[test]
    fn a_newcomer_displaces_the_oldest_idle_connection() {
        let slots = Slots::default();
        let mut held: Vec<Admitted> = (0..3).map(|_| slots.admit(3)).collect();
        // The oldest is answering a request: the next oldest goes.
        let _answering = Busy::enter(&held[0].busy);
        let newcomer = slots.admit(3);
        assert_eq!(open(&slots), vec![0, 2, 3]);
        assert!(
            held[1].closed.try_recv().is_ok(),
            "the displaced one is told"
        );
        assert!(held[0].closed.try_recv().is_err(), "the busy one is not");
        drop(newcomer);
    }

    #[test]
    fn when_all_are_busy_the_oldest_goes() {
        let slots = Slots::default();
        let mut held: Vec<Admitted> = (0..2).map(|_| slots.admit(2)).collect();
        let _a = Busy::enter(&held[0].busy);
        let _b = Busy::enter(&held[1].busy);
        let _newcomer = slots.admit(2);
        assert_eq!(open(&slots), vec![1, 2]);
        assert!(held[0].closed.try_recv().is_ok());
    }
}
