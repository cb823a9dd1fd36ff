//! Progress display for long operations (reading a large trace or dump, rendering a large profile).
//! indicatif draws on stderr only when it is a terminal, so scripts and tests see nothing of it.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A byte-count bar for reading `len` bytes.
pub fn bytes(len: u64, message: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} ({eta})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_string());
    bar
}

/// A spinner for work whose length is not known in advance.
pub fn spinner(message: &str) -> ProgressBar {
    let s = ProgressBar::new_spinner();
    s.set_message(message.to_string());
    s.enable_steady_tick(Duration::from_millis(120));
    s
}

/// Reads a whole input file with a byte-count bar: a regular file only, up to its size when
/// opened (`hpm_reports::saved::input::open_file`).
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let (file, len) = hpm_reports::saved::input::open_file(path)?;
    let bar = bytes(len, &format!("reading {}", path.display()));
    let mut buf = Vec::with_capacity(len as usize);
    let result = bar.wrap_read(file.take(len)).read_to_end(&mut buf);
    bar.finish_and_clear();
    result.map(|_| buf)
}
