//! Sampled trees: stack samples (from a signal handler's ring, drained) with their execution
//! forms, and allocation samples (from the VM's heap sampler), each in a tree of its own per
//! thread.

use hpm_model::arcflow::Profile;
use hpm_model::sampling::SampleState;
use hpm_model::snapshot::{state_node_name, state_of_node};

use super::*;

/// A method charged by stack samples, and a form they ran in.
pub(super) type FormKey = (ConsumerId, Form);

/// Adds `n` samples and their `weights` to a (samples, weights) sum.
pub(super) fn add_samples(sum: &mut (u64, Vec<u64>), n: u64, weights: &[u64]) {
    sum.0 += n;
    if sum.1.len() < weights.len() {
        sum.1.resize(weights.len(), 0);
    }
    for (a, w) in sum.1.iter_mut().zip(weights) {
        *a += w;
    }
}

/// Whether any sample of the state-split trees `p` has a known state: a walker that tells none
/// (the research VM's) leaves no such trees in a snapshot.
pub(super) fn any_state_known(p: &Profile) -> bool {
    p.threads.iter().any(|t| {
        t.tree.preorder().into_iter().any(|n| state_of_node(p.consumers.name(t.tree.consumer(n))).is_some_and(|s| s != SampleState::Unknown))
    })
}

impl Recorder {
    /// One stack sample of thread `t` (from any thread, e.g. a drain of its sampler): `frames`
    /// innermost first as the walker found them, `weights` one per metric of
    /// `RecorderConfig::stack_samples`. The context is the recorded methods' path (frames the
    /// filter excludes are left out, so their cost is their recorded caller's, as in call trees);
    /// a frame with method 0 is a failed walk, named by [`MethodResolver::walk_failure`]. Ignored
    /// while recording is stopped and without sampled trees.
    ///
    /// `site` is where and when the sample was taken: its time and context go to the thread's
    /// [`SampleTimeline`]; what the walker found at the interrupted program
    /// counter, or else the code map (`RecorderConfig::code`) looked up there, gives the sample's
    /// [`Form`] for the method charged. Where the walker looked (`site.code` known), the frames'
    /// own forms go to the on-stack forms of their methods.
    pub fn add_stack_sample(
        &self,
        t: &ThreadRecorder,
        frames: &[crate::sampling::RawFrame],
        site: crate::sampling::Site,
        weights: &[u64],
        r: &mut dyn MethodResolver,
    ) {
        if self.is_paused() || self.config.stack_samples.is_none() {
            return;
        }
        let mut s = lock(&t.state);
        let recorded = self.sampled_frames(&mut s, frames, r);
        let path: Vec<ConsumerId> = if self.config.sample_lines {
            recorded.iter().map(|&(i, c)| self.with_line(&mut s, c, &frames[i], r)).collect()
        } else {
            recorded.iter().map(|&(_, c)| c).collect()
        };
        if let Some(tree) = s.samples.as_mut() {
            let leaf = tree.descend(Tree::ROOT, &path);
            tree.add_calls(leaf, 1);
            tree.add_base(leaf, weights);
            // A sample whose time the walker's side did not read stays out of the timeline.
            if site.time != 0 {
                let at = self.wall_ns_of(site.time);
                if let Some(t) = s.timeline.as_mut() {
                    t.push(at, leaf);
                }
            }
        }
        // Every sample, also of unknown state, so that the states split all of a context's.
        if s.sample_states.is_some() {
            let node = self.intern(state_node_name(site.code.state()));
            if let Some(tree) = s.sample_states.as_mut() {
                let at = tree.descend(Tree::ROOT, &path);
                let leaf = tree.child(at, node);
                tree.add_calls(leaf, 1);
                tree.add_base(leaf, weights);
            }
        }
        if site.code.is_known() {
            // Each (method, form) once per sample, however often recursion puts it on the stack.
            let mut seen: Vec<FormKey> = Vec::with_capacity(recorded.len());
            for &(i, c) in &recorded {
                let key = (c, Form::of_frame(frames[i].form));
                if is_java(&frames[i]) && !seen.contains(&key) {
                    seen.push(key);
                    add_samples(s.stack_forms.entry(key).or_default(), 1, weights);
                }
            }
        }
        // Forms are the Java methods': native code frames above them leave the innermost
        // Java frame charged in the forms table.
        let Some(&(k, c)) = recorded.iter().rev().find(|(k, _)| frames[*k].pos != crate::sampling::RawFrame::NATIVE_CODE).filter(|(k, _)| frames[*k].method != 0) else { return };
        let Some(form) = self.form_at(site, frames, k) else { return };
        add_samples(s.forms.entry((c, form)).or_default(), 1, weights);
    }

    /// Frame `f`'s consumer `c` with its source line (`Class.method:LINE`), or `c` where the frame
    /// has no position (native, failed walks) or its method no line table. Forms stay per method.
    fn with_line(&self, s: &mut ThreadState, c: ConsumerId, f: &crate::sampling::RawFrame, r: &mut dyn MethodResolver) -> ConsumerId {
        if f.method == 0 || f.pos < 0 {
            return c;
        }
        let Some(line) = r.line_of(f.method, f.pos) else { return c };
        if let Some(&l) = s.lines.get(&(c, line)) {
            return l;
        }
        let l = {
            let mut ct = lock(&self.consumers);
            let name = format!("{}:{line}", ct.name(c));
            ct.intern(&name)
        };
        s.lines.insert((c, line), l);
        l
    }

    /// The recorded frames of a sampled stack (`frames` innermost first), outermost first, each
    /// as its index in `frames` and its consumer: frames the filter excludes are left out; a
    /// frame with method 0 is a failed walk. The last is the frame a sample is charged to.
    pub(super) fn sampled_frames(&self, s: &mut ThreadState, frames: &[crate::sampling::RawFrame], r: &mut dyn MethodResolver) -> Vec<(usize, ConsumerId)> {
        let mut recorded = Vec::with_capacity(frames.len() + 1);
        for (i, f) in frames.iter().enumerate().rev() {
            let c = if f.method == 0 {
                self.intern(&r.walk_failure(f.pos))
            } else if f.pos == crate::sampling::RawFrame::NATIVE_CODE {
                self.intern(&r.native_code(f.method))
            } else {
                self.consumer_of(s, f.method, r)
            };
            if c != EXCLUDED {
                recorded.push((i, c));
            }
        }
        recorded
    }

    /// One allocation sample of thread `t` (on the allocating thread, from the VM's heap
    /// sampler): an object of class `class` (a consumer name) and `bytes`, allocated at `frames`
    /// (innermost first). Its context is the recorded methods' path, then the class. Ignored while
    /// recording is stopped and without `RecorderConfig::alloc_samples`.
    ///
    /// The weights estimate what the sample stands for. A heap sampler that takes a sample after
    /// a random number of bytes drawn with mean `interval` (HotSpot's: exponentially distributed)
    /// samples an object of `bytes` with probability p = 1 - exp(-bytes / interval), so it stands
    /// for 1/p such objects and bytes/p bytes: sums over many samples are unbiased.
    pub fn add_alloc_sample(&self, t: &ThreadRecorder, frames: &[crate::sampling::RawFrame], class: &str, bytes: u64, r: &mut dyn MethodResolver) {
        let Some(interval) = self.config.alloc_samples else { return };
        if self.is_paused() {
            return;
        }
        let p = if interval == 0 { 1.0 } else { -(-(bytes as f64) / interval as f64).exp_m1() };
        if p <= 0.0 {
            return;
        }
        let mut s = lock(&t.state);
        let objects = 1.0 / p + s.alloc_object_carry;
        s.alloc_object_carry = objects.fract();
        let weights = [(bytes as f64 / p).round() as u64, objects.trunc() as u64];
        let mut path: Vec<ConsumerId> = self.sampled_frames(&mut s, frames, r).into_iter().map(|(_, c)| c).collect();
        path.push(self.intern(class));
        if let Some(tree) = s.alloc_samples.as_mut() {
            let leaf = tree.descend(Tree::ROOT, &path);
            tree.add_calls(leaf, 1);
            tree.add_base(leaf, &weights);
        }
    }

    /// The form of the code at `site` for frame `k` of `frames` (innermost first): what the
    /// walker found there, or else what the code map has at its program counter; `None` when
    /// neither says.
    fn form_at(&self, site: crate::sampling::Site, frames: &[crate::sampling::RawFrame], k: usize) -> Option<Form> {
        use hpm_model::sampling::Tier;
        use crate::sampling::RawFrame;
        // The Java frames: the walker's code word counts them from the innermost Java frame.
        let native = frames.iter().take_while(|f| f.pos == RawFrame::NATIVE_CODE).count();
        let (frames, k) = (&frames[native..], k.checked_sub(native)?);
        let code = if site.code.is_known() {
            site.code
        } else {
            if !self.config.code {
                return None;
            }
            let c = lock(&self.code);
            if c.live.is_empty() {
                return None;
            }
            c.code_at(site.pc, frames)
        };
        Some(if let Some((owner, tier)) = code.compiled_by() {
            // Frames inside the owner's (innermost first) were inlined into its code.
            match tier {
                _ if k < owner => Form::Inlined,
                // A native method's wrapper: HotSpot keeps it as compiled code of the method.
                _ if frames.get(owner).is_some_and(|f| f.pos == RawFrame::NATIVE) => Form::Native,
                Tier::C1 => Form::C1,
                Tier::C2 => Form::C2,
                Tier::Unknown => Form::Compiled,
            }
        } else if code.is_interpreted() {
            Form::Interpreted
        } else if code.is_stub() {
            Form::Stub
        } else if frames[0].pos == RawFrame::NATIVE {
            Form::Native
        } else {
            Form::Vm
        })
    }
}

/// Whether a sampled frame is a Java method's (not a failed walk's pseudo-frame, not native code).
fn is_java(f: &crate::sampling::RawFrame) -> bool {
    f.method != 0 && f.pos != crate::sampling::RawFrame::NATIVE_CODE
}
