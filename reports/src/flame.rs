//! Flame graphs (`flame.svg`), drawn by `inferno` from the folded stacks of [`crate::collapsed`].
//!
//! The title names the metric and its unit; the frame tooltips count in the metric's unit.
//!
//! inferno does not draw frames narrower than [`MIN_WIDTH_PERCENT`] of the image. Handing it every
//! context of a large tree anyway costs seconds (it sorts and merges a million folded lines only to
//! drop almost all of them), so the tree is pruned first at that same width: contexts whose cum is
//! below `MIN_WIDTH_PERCENT`% of the total are folded into a `(pruned)` frame under their parent
//! (see [`crate::prune_at`]). Nothing visible is lost, and the folded mass shows up as one
//! `(pruned)` frame where it adds up to a visible width instead of silently vanishing.
//!
//! The graph has one row of frames per level, so it stops at [`MAX_FRAMES`] levels (or the
//! `max_stack_depth` option, if smaller): deeper contexts are one `(deeper)` frame. Without that
//! bound a deep chain's folded stacks, and the image, grow with the square of its depth.

use hpm_model::arcflow::Profile;

use crate::{collapsed, text, ReportOptions};

/// Frames narrower than this percentage of the total width are not drawn (inferno's default).
pub const MIN_WIDTH_PERCENT: f64 = 0.01;

/// The deepest a flame graph goes, in frames (16 pixels each).
pub const MAX_FRAMES: usize = 1024;

/// Renders the flame graph of `opts.metric` as SVG.
pub fn render(profile: &Profile, opts: &ReportOptions) -> std::io::Result<Vec<u8>> {
    let total = profile.total().get(opts.metric).copied().unwrap_or(0);
    let threshold = (total as f64 * MIN_WIDTH_PERCENT / 100.0) as u64;
    let visible = crate::prune_at(profile, opts.metric, threshold);
    let frames = match opts.max_stack_depth {
        0 => MAX_FRAMES,
        d => d.min(MAX_FRAMES),
    };
    let folded_opts = ReportOptions { max_stack_depth: frames, ..opts.clone() };
    render_folded(profile, opts, &collapsed::render(&visible, &folded_opts))
}

/// Renders the flame graph from folded stacks already produced by [`collapsed::render`].
pub fn render_folded(profile: &Profile, opts: &ReportOptions, folded: &str) -> std::io::Result<Vec<u8>> {
    let label = text::metric_label(profile, opts.metric);
    let mut o = inferno::flamegraph::Options::default();
    o.title = format!("{label}: {}", profile.bindings.consumer_label);
    o.count_name = match profile.bindings.metrics.get(opts.metric) {
        Some(m) if !m.unit.is_empty() => m.unit.clone(),
        Some(m) => m.name.clone(),
        None => "samples".into(),
    };
    o.name_type = "Consumer:".into();
    o.min_width = MIN_WIDTH_PERCENT;
    o.hash = true;
    let mut svg = Vec::new();
    if folded.lines().all(|l| l.trim().is_empty()) {
        return Ok(empty_svg(&o.title));
    }
    inferno::flamegraph::from_lines(&mut o, folded.lines(), &mut svg)?;
    Ok(svg)
}

/// A small SVG saying that there is nothing to draw (inferno refuses empty input).
fn empty_svg(title: &str) -> Vec<u8> {
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!(
        "<?xml version=\"1.0\" standalone=\"no\"?>\n\
         <svg version=\"1.1\" width=\"1200\" height=\"80\" xmlns=\"http://www.w3.org/2000/svg\">\n\
         <text x=\"600\" y=\"24\" text-anchor=\"middle\" font-family=\"Verdana\" font-size=\"17\">{title}</text>\n\
         <text x=\"600\" y=\"56\" text-anchor=\"middle\" font-family=\"Verdana\" font-size=\"12\">No samples: every context has zero base for this metric.</text>\n\
         </svg>\n"
    )
    .into_bytes()
}
