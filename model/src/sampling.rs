//! What a stack sample says about its frames and its thread: the frames' execution forms, the
//! compiler tiers, the thread's state. The samplers that take them are `hpm_collectors::sampling`.

/// The execution form of one frame of a sampled stack: what its method's activation was running
/// as, found by walking the physical frames under the walker's frames.
#[repr(u8)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FrameForm {
    /// The walker did not place this frame.
    #[default]
    Unknown = 0,
    /// A frame of the bytecode interpreter.
    Interpreted = 1,
    /// The method's own code compiled by the client compiler (HotSpot's tiers 1 to 3).
    C1 = 2,
    /// The method's own code compiled by the optimising compiler (tier 4).
    C2 = 3,
    /// Compiled into an outer method's code.
    Inlined = 4,
    /// A native (JNI) method.
    Native = 5,
    /// The method's own compiled code, by a compiler the VM does not name.
    Compiled = 6,
}

impl FrameForm {
    pub fn from_byte(b: u8) -> FrameForm {
        match b {
            1 => FrameForm::Interpreted,
            2 => FrameForm::C1,
            3 => FrameForm::C2,
            4 => FrameForm::Inlined,
            5 => FrameForm::Native,
            6 => FrameForm::Compiled,
            _ => FrameForm::Unknown,
        }
    }

    /// The form of the own code of a method compiled at `tier`.
    pub fn compiled(tier: Tier) -> FrameForm {
        match tier {
            Tier::C1 => FrameForm::C1,
            Tier::C2 => FrameForm::C2,
            Tier::Unknown => FrameForm::Compiled,
        }
    }
}

/// The compiler tier of compiled code, where the VM says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Not known (e.g. the code map of JVMTI events, which does not say).
    Unknown,
    /// The client compiler (HotSpot's tiers 1 to 3).
    C1,
    /// The optimising compiler (HotSpot's tier 4).
    C2,
}

/// What the sampled thread was doing, as its VM says (with wall-clock sampling most samples find
/// a thread off CPU): the VM's thread state, and for a blocked thread what its innermost frame
/// blocks in. Carried in the top byte of the sample's [`CodeAt`] word.
#[repr(u8)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SampleState {
    /// The walker did not say.
    #[default]
    Unknown = 0,
    /// Running Java code, or the VM's own on its behalf (HotSpot: in Java, in the VM).
    Running = 1,
    /// In a native method or code it calls (computing, or blocked in a system call).
    Native = 2,
    /// Blocked entering a monitor (`synchronized`).
    Blocked = 3,
    /// In `Object.wait`.
    Waiting = 4,
    /// In `LockSupport.park` (`Unsafe.park`).
    Parked = 5,
    /// In `Thread.sleep`.
    Sleeping = 6,
}

impl SampleState {
    pub const ALL: [SampleState; 7] = [
        SampleState::Running,
        SampleState::Native,
        SampleState::Blocked,
        SampleState::Waiting,
        SampleState::Parked,
        SampleState::Sleeping,
        SampleState::Unknown,
    ];

    pub fn from_byte(b: u8) -> SampleState {
        match b {
            1 => SampleState::Running,
            2 => SampleState::Native,
            3 => SampleState::Blocked,
            4 => SampleState::Waiting,
            5 => SampleState::Parked,
            6 => SampleState::Sleeping,
            _ => SampleState::Unknown,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SampleState::Unknown => "unknown",
            SampleState::Running => "running",
            SampleState::Native => "native",
            SampleState::Blocked => "blocked",
            SampleState::Waiting => "waiting",
            SampleState::Parked => "parked",
            SampleState::Sleeping => "sleeping",
        }
    }
}

/// A tier as the reports and the saved run name it: `c1`, `c2`, `-` (not known).
pub fn tier_name(t: Tier) -> &'static str {
    match t {
        Tier::C1 => "c1",
        Tier::C2 => "c2",
        Tier::Unknown => "-",
    }
}
