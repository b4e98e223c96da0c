//! The signals that ask callscope to stop: Ctrl-C (SIGINT), SIGTERM, and for the explorer SIGHUP
//! (the terminal or the SSH session is gone). `serve` then shuts down cleanly, and the explorer
//! gives the terminal back as it found it, as on `q`.

/// Resolves when one of those signals arrives: SIGHUP only when `hangup` is asked for and the
/// process was not started to ignore it (`nohup callscope serve ...` must outlive the session).
/// The handlers are installed when this is called, not when the future is first polled: a signal
/// sent right after start must already be caught. A signal that cannot be listened for never
/// fires, rather than stopping at once.
pub fn requested(hangup: bool) -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).ok();
        let terminate = signal(SignalKind::terminate()).ok();
        let hangup = (hangup && !hangup_ignored())
            .then(|| signal(SignalKind::hangup()).ok())
            .flatten();
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
    async move {
        let _ = hangup;
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Whether SIGHUP is set to be ignored, as `nohup` sets it.
#[cfg(unix)]
fn hangup_ignored() -> bool {
    // SAFETY: `sigaction` is a plain C struct, for which all zeroes is a valid value; with no
    // new action, sigaction only reads the current one into it.
    let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
    let read = unsafe { libc::sigaction(libc::SIGHUP, std::ptr::null(), &mut current) };
    read == 0 && current.sa_sigaction == libc::SIG_IGN
}
