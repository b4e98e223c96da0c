//! The signals that ask callscope to stop: Ctrl-C (SIGINT), SIGTERM, and for the explorer SIGHUP
//! (the terminal or the SSH session is gone). `serve` then shuts down cleanly, and the explorer
//! gives the terminal back as it found it, as on `q`, and exits with the shell's status for the
//! signal (see [`exit_status`]).

/// SIGINT's number, the same on every system.
const SIGINT: i32 = 2;

/// Resolves, with the signal's number, when one of those signals arrives: SIGHUP only when
/// `hangup` is asked for and the process was not started to ignore it (`nohup callscope serve
/// ...` must outlive the session). The handlers are installed when this is called, not when the
/// future is first polled: a signal sent right after start must already be caught. A signal that
/// cannot be listened for never fires, rather than stopping at once.
pub fn requested(hangup: bool) -> impl std::future::Future<Output = i32> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).ok();
        let terminate = signal(SignalKind::terminate()).ok();
        let hangup = (hangup && !hangup_ignored())
            .then(|| signal(SignalKind::hangup()).ok())
            .flatten();
        async move {
            let wait = |s: Option<Signal>, number: i32| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                        number
                    }
                    None => std::future::pending::<i32>().await,
                }
            };
            tokio::select! {
                n = wait(interrupt, SIGINT) => n,
                n = wait(terminate, libc::SIGTERM) => n,
                n = wait(hangup, libc::SIGHUP) => n,
            }
        }
    }
    #[cfg(not(unix))]
    async move {
        let _ = hangup;
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
        SIGINT
    }
}

/// The status a process stopped by signal `signal` exits with, as shells report one killed by
/// it: 128 and the signal's number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP). A script
/// that waits for the explorer can tell a kill from `q`.
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
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
