//! The Firefox Profiler's processed profile format (JSON), through samply's
//! `fxprof-processed-profile`: what profiler.firefox.com opens ("Load a profile from file").
//!
//! One process, one Profiler thread per thread of the profile (its name, its OS thread id when
//! known). Each calling context whose base of the chosen metric is nonzero is one sample whose
//! stack is the context's path (the thread's own root frame outermost, as in `flame.svg`) and whose
//! weight is that base: the Profiler's call tree, flame graph and inverted tree then show the
//! metric exactly. The crate's weights are 32-bit, so a base above 2^31 − 1 becomes several samples
//! of the same stack. Weights of a byte metric are typed `bytes`; every other metric's are typed
//! `samples` (the Profiler says "samples" for what are, e.g., nanoseconds). Sample times are the
//! running sum of the weights (as nanoseconds), so the stack chart lays the contexts out in tree
//! order, each as wide as its weight; they are not times of the run. Frames carry a category:
//! `Java` (application methods), `JDK` (`java.`, `javax.`, `jdk.`, `sun.`, `com.sun.` classes),
//! `Native` (native code frames of `sample-native=on`, `symbol [library]`), `Kernel` (kernel
//! frames of `sample-kernel=on`, `function [kernel]`), `Thread` (the thread's root). Calls and the other metrics are lost.

use std::io::{self, Write};

use fxprof_processed_profile::{
    CategoryColor, CategoryPairHandle, CpuDelta, Frame, FrameFlags, FrameInfo, ReferenceTimestamp, SamplingInterval, Timestamp, WeightType,
};
use hpm_model::arcflow::Profile;

use super::{for_each_context, split_consumer, ExportOptions, DEEPER};

/// JDK packages, whose methods get the `JDK` category.
const JDK_PREFIXES: [&str; 5] = ["java.", "javax.", "jdk.", "sun.", "com.sun."];

/// Builds the Firefox Profiler profile of `profile`.
pub fn build(profile: &Profile, opts: &ExportOptions) -> fxprof_processed_profile::Profile {
    let metric = &profile.bindings.metrics[opts.metric];
    let mut fx = fxprof_processed_profile::Profile::new(
        &format!("hpm: {} ({})", metric.name, profile.bindings.consumer_label),
        ReferenceTimestamp::from_millis_since_unix_epoch(0.0),
        SamplingInterval::from_nanos(1),
    );
    let java: CategoryPairHandle = fx.add_category("Java", CategoryColor::Blue).into();
    let jdk: CategoryPairHandle = fx.add_category("JDK", CategoryColor::Green).into();
    let thread_category: CategoryPairHandle = fx.add_category("Thread", CategoryColor::Gray).into();
    let native: CategoryPairHandle = fx.add_category("Native", CategoryColor::Orange).into();
    let kernel: CategoryPairHandle = fx.add_category("Kernel", CategoryColor::Red).into();
    let weight_type = if matches!(metric.unit.as_str(), "bytes" | "B" | "byte") { WeightType::Bytes } else { WeightType::Samples };
    let process = fx.add_process("JVM", 1, Timestamp::from_nanos_since_reference(0));
    for (i, th) in profile.threads.iter().enumerate() {
        let t = &th.tree;
        let tid = th.os_tid.and_then(|t| u32::try_from(t).ok()).unwrap_or(i as u32 + 1);
        // Not "main": the crate names a main thread after its process.
        let thread = fx.add_thread(process, tid, Timestamp::from_nanos_since_reference(0), false);
        fx.set_thread_name(thread, &th.name);
        fx.set_thread_samples_weight_type(thread, weight_type.clone());
        let mut samples: Vec<(Vec<u32>, bool, u64)> = Vec::new();
        // As in speedscope.rs: the contexts below one at the depth limit add to one sample.
        let mut deeper_under = None;
        for_each_context(t, opts.max_stack_depth, |n, path, deeper| {
            let w = t.base(n)[opts.metric];
            if w == 0 {
                return;
            }
            match samples.last_mut() {
                Some(last) if deeper && deeper_under == path.last().copied() => last.2 = last.2.saturating_add(w),
                _ => samples.push((path.iter().map(|&p| t.consumer(p)).collect(), deeper, w)),
            }
            deeper_under = if deeper { path.last().copied() } else { None };
        });
        let mut time = 0u64;
        for (path, deeper, weight) in samples {
            let mut stack = None;
            let names = path.iter().map(|&c| profile.consumers.name(c)).chain(deeper.then_some(DEEPER));
            for (depth, name) in names.enumerate() {
                let category = match split_consumer(name).0 {
                    _ if depth == 0 => thread_category,
                    _ if name.ends_with(" [kernel]") || name.starts_with("[kernel ") => kernel,
                    _ if name.ends_with(']') => native,
                    Some(class) if JDK_PREFIXES.iter().any(|p| class.starts_with(p)) => jdk,
                    _ => java,
                };
                let label = fx.intern_string(name);
                let frame = fx.intern_frame(thread, FrameInfo { frame: Frame::Label(label), category_pair: category, flags: FrameFlags::empty() });
                stack = Some(fx.intern_stack(thread, stack, frame));
            }
            let mut left = weight;
            while left > 0 {
                let part = left.min(i32::MAX as u64);
                fx.add_sample(thread, Timestamp::from_nanos_since_reference(time), stack, CpuDelta::ZERO, part as i32);
                time = time.saturating_add(part);
                left -= part;
            }
        }
    }
    fx
}

/// Writes `profile` as a Firefox Profiler processed profile (JSON).
pub fn write(profile: &Profile, opts: &ExportOptions, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &build(profile, opts))?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};
    use serde_json::Value;

    #[test]
    fn a_thread_per_thread_and_a_weighted_sample_per_context() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        let th = p.add_thread("main");
        let a = p.consumers.intern("app.Main.main");
        let b = p.consumers.intern("java.util.HashMap.get");
        let t = &mut p.threads[th].tree;
        let na = t.descend(Tree::ROOT, &[a]);
        t.add_base(na, &[5]);
        let nb = t.descend(na, &[b]);
        t.add_base(nb, &[3 * i32::MAX as u64 + 1]);
        p.add_thread("idle");

        let mut out = Vec::new();
        write(&p, &ExportOptions::default(), &mut out).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        let threads = v["threads"].as_array().unwrap();
        assert_eq!(threads.len(), 2);
        let main = threads.iter().find(|t| t["name"] == "main").unwrap();
        let samples = &main["samples"];
        assert_eq!(samples["weightType"], "samples");
        let weights: Vec<u64> = samples["weight"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
        assert_eq!(weights.iter().sum::<u64>(), 3 * i32::MAX as u64 + 1 + 5);
        assert_eq!(weights.len(), 1 + 4);
        let categories: Vec<&str> = v["meta"]["categories"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert!(categories.contains(&"JDK") && categories.contains(&"Java") && categories.contains(&"Thread"), "{categories:?}");
    }

    /// Native code frames (`sample-native=on`) get the `Native` category, kernel frames
    /// (`sample-kernel=on`) `Kernel`, Java methods `Java`.
    #[test]
    fn native_code_frames_have_a_category_of_their_own() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        let th = p.add_thread("main");
        let a = p.consumers.intern("app.Main.spin");
        let b = p.consumers.intern("hpm_spin_inner [libhpmspin.so]");
        let k = p.consumers.intern("clear_user [kernel]");
        let t = &mut p.threads[th].tree;
        let na = t.descend(Tree::ROOT, &[a]);
        let nb = t.descend(na, &[b]);
        t.add_base(nb, &[7]);
        let nk = t.descend(nb, &[k]);
        t.add_base(nk, &[3]);
        let mut out = Vec::new();
        write(&p, &ExportOptions::default(), &mut out).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        let categories: Vec<&str> = v["meta"]["categories"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        let thread = &v["threads"][0];
        let strings = thread["stringArray"].as_array().unwrap();
        let frames = &thread["frameTable"];
        let category_of = |name: &str| {
            let i = (0..frames["length"].as_u64().unwrap() as usize)
                .find(|&i| {
                    let func = frames["func"][i].as_u64().unwrap() as usize;
                    strings[thread["funcTable"]["name"][func].as_u64().unwrap() as usize] == name
                })
                .unwrap_or_else(|| panic!("no frame {name}"));
            categories[frames["category"][i].as_u64().unwrap() as usize]
        };
        assert_eq!(category_of("hpm_spin_inner [libhpmspin.so]"), "Native");
        assert_eq!(category_of("clear_user [kernel]"), "Kernel");
        assert_eq!(category_of("app.Main.spin"), "Java");
    }
}
