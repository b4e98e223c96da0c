//! The signals that ask callscope to stop: Ctrl-C (SIGINT), SIGTERM, and SIGHUP (the terminal or
//! the SSH session is gone). `serve` then shuts down cleanly, and the explorer gives the terminal
//! back as it found it, as on `q`.

/// Resolves when one of those signals arrives. The handlers are installed when this is called,
/// not when the future is first polled: a signal sent right after start must already be caught.
/// A signal that cannot be listened for never fires, rather than stopping at once.
pub fn requested() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).ok();
        let terminate = signal(SignalKind::terminate()).ok();
        let hangup = signal(SignalKind::hangup()).ok();
        async move {
            let wait = |s: Option<Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(interrupt) => {}
                () = wait(terminate) => {}
                () = wait(hangup) => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
