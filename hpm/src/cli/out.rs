//! Writing to stdout and stderr without panicking: `println!` panics when the reader of stdout has
//! gone (`hpm trace DIR | head -1`), and hpm must end quietly then, as Unix filters do.

use std::io::{self, Write};

/// Writes `text` to stdout. When the reader has gone (EPIPE) hpm exits at once with code 0 and says
/// nothing: the output is no longer wanted. Any other write error ends hpm with one error line and
/// exit code 1.
pub(crate) fn print(text: &str) {
    let mut stdout = io::stdout().lock();
    if let Err(e) = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprint_line(&format!("hpm: error: cannot write to stdout: {e}"));
        std::process::exit(1);
    }
}

/// Writes one line to stderr, ignoring write errors (with stderr closed there is nobody to tell).
pub(crate) fn eprint_line(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// `println!` through [`print`].
macro_rules! outln {
    () => { $crate::cli::out::print("\n") };
    ($($arg:tt)*) => { $crate::cli::out::print(&format!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` through [`eprint_line`].
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::out::eprint_line(&format!($($arg)*)) };
}

pub(crate) use {errln, outln};
