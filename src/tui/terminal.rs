//! Entering and leaving the terminal's full-screen mode. The terminal is restored on every way
//! out: a normal return, an error, and a panic (through the hook installed here).

use std::io::{self, Stdout};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Switches to raw mode and the alternate screen, with mouse reporting, and installs a panic hook
/// that restores the terminal before the panic message is printed.
pub fn enter() -> io::Result<Tui> {
    install_panic_hook();
    take()?;
    Terminal::new(CrosstermBackend::new(io::stdout())).inspect_err(|_| restore())
}

/// Raw mode, the alternate screen, mouse reporting and bracketed paste.
fn take() -> io::Result<()> {
    enable_raw_mode()?;
    if let Err(e) = execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    ) {
        restore();
        return Err(e);
    }
    Ok(())
}

/// Ctrl-Z: gives the terminal back as it was and stops the job, as a shell's Ctrl-Z does (the
/// whole process group, so that a `zcat | callscope -` stops as one); when `fg` continues it,
/// takes the terminal again and draws the whole screen afresh.
#[cfg(unix)]
pub fn suspend(terminal: &mut Tui) -> io::Result<()> {
    restore();
    // SAFETY: kill only sends a signal; pid 0 is this process's group. A signal a process
    // sends itself is delivered before kill returns: execution continues here on SIGCONT.
    unsafe {
        libc::kill(0, libc::SIGTSTP);
    }
    take()?;
    terminal.clear()
}

/// Without job control, there is nothing to suspend to.
#[cfg(not(unix))]
pub fn suspend(_terminal: &mut Tui) -> io::Result<()> {
    Ok(())
}

/// Leaves the alternate screen and raw mode. Safe to call more than once; errors are ignored
/// because there is nothing better to do with them on the way out.
pub fn restore() {
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Restores the terminal when dropped, so that an early return cannot leave it raw.
pub struct RestoreGuard;

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        restore();
    }
}
