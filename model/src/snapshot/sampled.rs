//! Sampled trees' data: the execution forms of stack samples, the samples' timelines, and the
//! state nodes of the state-split trees.

use crate::arcflow::{NodeId, Tree};
use crate::sampling::SampleState;

/// Where a stack sample's CPU was, for the method it is charged to (its innermost recorded
/// frame): the execution form of the code at the interrupted program counter. For a method
/// anywhere on the stack: the form of its frame (only those of [`crate::sampling::FrameForm`],
/// or `Unknown`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// In the bytecode interpreter.
    Interpreted,
    /// In the method's own code compiled by the client compiler (HotSpot's tiers 1 to 3).
    C1,
    /// In the method's own code compiled by the optimising compiler (tier 4).
    C2,
    /// In the method's own compiled code, by a compiler not known (the JVMTI code map does not
    /// say). Own code includes that compiled for a callee the filter leaves out.
    Compiled,
    /// Compiled into an outer method's code.
    Inlined,
    /// In a native (JNI) method.
    Native,
    /// In code the VM generated (stubs, adapters, runtime entry points).
    Stub,
    /// Outside any Java or generated code: the VM's own code (runtime calls, allocation slow
    /// paths, class loading) on the method's behalf.
    Vm,
    /// A frame on the stack the walker could not place on a physical frame.
    Unknown,
}

impl Form {
    pub const ALL: [Form; 9] = [Form::Interpreted, Form::C1, Form::C2, Form::Compiled, Form::Inlined, Form::Native, Form::Stub, Form::Vm, Form::Unknown];

    /// The form of a frame as its walker marked it.
    pub fn of_frame(f: crate::sampling::FrameForm) -> Form {
        use crate::sampling::FrameForm as F;
        match f {
            F::Unknown => Form::Unknown,
            F::Interpreted => Form::Interpreted,
            F::C1 => Form::C1,
            F::C2 => Form::C2,
            F::Inlined => Form::Inlined,
            F::Native => Form::Native,
            F::Compiled => Form::Compiled,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Form::Interpreted => "interpreted",
            Form::C1 => "c1",
            Form::C2 => "c2",
            Form::Compiled => "compiled",
            Form::Inlined => "inlined",
            Form::Native => "native",
            Form::Stub => "stub",
            Form::Vm => "vm",
            Form::Unknown => "unknown",
        }
    }
}

/// Per method (consumer name) and form: the stack samples charged to it and their weights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormRow {
    pub method: String,
    pub form: Form,
    pub samples: u64,
    pub weights: Vec<u64>,
}

/// The most stack samples a thread's timeline keeps: 12 bytes each, so at most 3 MiB a thread
/// (at the default 10 ms interval, 43 minutes of one thread's CPU time). Later samples are in the
/// sampled tree but not in the timeline, and counted ([`SampleTimeline::dropped`]).
pub const TIMELINE_LIMIT: usize = 1 << 18;

/// One thread's stack samples in the order taken, for a timeline: when each was taken and the
/// context it was charged to (its node in the thread's sampled tree).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SampleTimeline {
    /// ns on the recorder's wall clock (`Recorder::wall_ns`), the markers' clock.
    pub times: Vec<u64>,
    pub nodes: Vec<NodeId>,
    /// Samples over [`TIMELINE_LIMIT`]: in the tree, not here.
    pub dropped: u64,
}

impl SampleTimeline {
    pub fn push(&mut self, time: u64, node: NodeId) {
        if self.times.len() < TIMELINE_LIMIT {
            self.times.push(time);
            self.nodes.push(node);
        } else {
            self.dropped += 1;
        }
    }

    /// Moves the nodes of `from` to the nodes of the same contexts in `to` (a copy of `from` with
    /// other node ids, e.g. rerooted).
    pub fn remap(&mut self, from: &Tree, to: &Tree) {
        let mut map = vec![Tree::ROOT; from.len()];
        for n in 1..from.len() as NodeId {
            // Arena order: a parent comes before its children.
            let p = map[from.parent(n).expect("only the root has no parent") as usize];
            map[n as usize] = to.find_child(p, from.consumer(n)).unwrap_or(p);
        }
        for n in &mut self.nodes {
            *n = map[*n as usize];
        }
    }
}

/// The name of the last node of a context in the state-split sampled trees
/// ([`Snapshot::sample_states`]): `[running]`, `[parked]`, …
pub fn state_node_name(state: SampleState) -> &'static str {
    match state {
        SampleState::Unknown => "[unknown]",
        SampleState::Running => "[running]",
        SampleState::Native => "[native]",
        SampleState::Blocked => "[blocked]",
        SampleState::Waiting => "[waiting]",
        SampleState::Parked => "[parked]",
        SampleState::Sleeping => "[sleeping]",
    }
}

/// The state a node of the state-split sampled trees names, if it is a state node.
pub fn state_of_node(name: &str) -> Option<SampleState> {
    SampleState::ALL.into_iter().find(|&s| state_node_name(s) == name)
}
