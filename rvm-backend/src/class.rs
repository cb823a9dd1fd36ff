//! Runtime classes, fields and methods; loading (bundled class library first, then `-cp`),
//! linking (field layout, vtables, interface dispatch tables) and array classes.

use crate::code::Code;
use crate::native::NativeFn;
use cafebabe::descriptors::{FieldType, ReturnDescriptor};
use cafebabe::{ClassAccessFlags, FieldAccessFlags, MethodAccessFlags};
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// Storage kind of a field, array element or value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Z,
    B,
    C,
    S,
    I,
    F,
    J,
    D,
    L,
}

impl Kind {
    pub fn from_desc(d: &str) -> Kind {
        match d.as_bytes()[0] {
            b'Z' => Kind::Z,
            b'B' => Kind::B,
            b'C' => Kind::C,
            b'S' => Kind::S,
            b'I' => Kind::I,
            b'F' => Kind::F,
            b'J' => Kind::J,
            b'D' => Kind::D,
            _ => Kind::L,
        }
    }
    pub fn words(self) -> usize {
        if matches!(self, Kind::J | Kind::D) { 2 } else { 1 }
    }
    pub fn slots(self) -> usize {
        self.words()
    }
    /// Bytes of an array element of this kind.
    pub fn elem_size(self) -> usize {
        match self {
            Kind::Z | Kind::B => 1,
            Kind::C | Kind::S => 2,
            Kind::J | Kind::D => 8,
            _ => 4,
        }
    }
}

pub fn field_type_desc(ft: &FieldType, dims: u8) -> String {
    let mut s = "[".repeat(dims as usize);
    s.push_str(&match ft {
        FieldType::Byte => "B".into(),
        FieldType::Char => "C".into(),
        FieldType::Double => "D".into(),
        FieldType::Float => "F".into(),
        FieldType::Integer => "I".into(),
        FieldType::Long => "J".into(),
        FieldType::Short => "S".into(),
        FieldType::Boolean => "Z".into(),
        FieldType::Object(n) => format!("L{};", n),
    });
    s
}

#[derive(Debug)]
pub struct Field {
    pub name: String,
    pub desc: String,
    pub kind: Kind,
    pub is_static: bool,
    /// Word offset: from the object start for instance fields, into `statics` for static ones.
    pub offset: usize,
    pub constant: Option<ConstVal>,
}

#[derive(Debug, Clone)]
pub enum ConstVal {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Str(String),
    /// A string constant that is not valid UTF-8 (modified UTF-8 with unpaired surrogates).
    StrBytes(Vec<u8>),
}

pub struct Method {
    pub id: u32,
    pub class_id: u32,
    pub class_name: Arc<str>,
    pub name: String,
    pub desc: String,
    pub selector: u32,
    pub flags: MethodAccessFlags,
    pub is_static: bool,
    pub is_native: bool,
    pub is_abstract: bool,
    pub is_sync: bool,
    pub is_private: bool,
    pub is_final: bool,
    /// Argument slots including `this`.
    pub arg_slots: usize,
    pub ret_slots: usize,
    /// Index into the class's method list (to find its bytecode when translating).
    pub index: usize,
    pub code: OnceLock<Result<&'static Code, String>>,
    pub native: OnceLock<Option<NativeFn>>,
    /// Set by the agent interface (`method_events_off`): no entry or exit events for this method.
    pub events_off: AtomicBool,
}

impl Method {
    /// Whether this method's entries and exits are reported to the hooks.
    #[inline]
    pub fn has_events(&self) -> bool {
        !self.events_off.load(Relaxed)
    }
    pub fn full_name(&self) -> String {
        format!("{}.{}{}", self.class_name.replace('/', "."), self.name, self.desc)
    }
}

impl std::fmt::Debug for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.full_name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitState {
    Uninit,
    InProgress(u32),
    Done,
    Failed,
}

pub struct Class {
    pub id: u32,
    pub name: Arc<str>,
    pub super_class: Option<Arc<Class>>,
    pub interfaces: Vec<Arc<Class>>,
    /// Ids of every superclass and superinterface, and of the class itself.
    pub supertypes: rustc_hash::FxHashSet<u32>,
    pub is_interface: bool,
    pub is_abstract: bool,
    /// Instance size in words, header included.
    pub instance_words: usize,
    /// Word offsets (from the object start) of reference fields.
    pub ref_offsets: Vec<usize>,
    pub fields: Vec<Field>,
    pub statics: Vec<AtomicU32>,
    pub static_ref_offsets: Vec<usize>,
    pub methods: Vec<&'static Method>,
    pub vtable: Vec<&'static Method>,
    pub vindex: FxHashMap<u32, usize>,
    /// Every instance method callable on an object of this class by selector (vtable entries and
    /// inherited default methods), for `invokeinterface`.
    pub dispatch: FxHashMap<u32, &'static Method>,
    /// For array classes: element kind and (for reference arrays) the component class.
    pub elem: Option<Kind>,
    pub component: Option<Arc<Class>>,
    pub init: Mutex<InitState>,
    pub initialized: AtomicBool,
    /// Index of the `java.lang.Class` mirror in the VM's global roots.
    pub mirror_root: AtomicU32,
    pub source_file: Option<String>,
    pub bytes: Option<Arc<Vec<u8>>>,
    pub array_class: OnceLock<Arc<Class>>,
    /// A class the VM made for an invokedynamic call site (`indy.rs`): its frames are left out of
    /// Throwable backtraces, as HotSpot leaves out its hidden classes' frames.
    pub hidden: bool,
}

impl std::fmt::Debug for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl Class {
    pub fn is_array(&self) -> bool {
        self.elem.is_some()
    }
    /// The binary name with dots (`java.lang.String`, `[Ljava.lang.String;`), as Class.getName.
    pub fn java_name(&self) -> String {
        self.name.replace('/', ".")
    }
    /// The class of a primitive type (`int.class`, …).
    pub fn is_primitive(&self) -> bool {
        self.super_class.is_none() && PRIMITIVES.contains(&&*self.name)
    }
    pub fn find_method(&self, name: &str, desc: &str) -> Option<&'static Method> {
        self.methods.iter().find(|m| m.name == name && m.desc == desc).copied()
    }
    pub fn clinit(&self) -> Option<&'static Method> {
        self.find_method("<clinit>", "()V")
    }
    /// Is an instance of `self` assignable to `other`?
    pub fn is_subtype_of(&self, other: &Class) -> bool {
        if self.id == other.id || self.supertypes.contains(&other.id) {
            return true;
        }
        if let (Some(se), Some(oe)) = (self.elem, other.elem) {
            return match (se, oe, &self.component, &other.component) {
                (Kind::L, Kind::L, Some(a), Some(b)) => a.is_subtype_of(b),
                _ => false,
            };
        }
        false
    }
    /// Looks a field up by name and descriptor in this class, its superinterfaces and superclasses.
    pub fn lookup_field(self: &Arc<Class>, name: &str, desc: &str) -> Option<(Arc<Class>, usize)> {
        if let Some(i) = self.fields.iter().position(|f| f.name == name && f.desc == desc) {
            return Some((self.clone(), i));
        }
        for i in &self.interfaces {
            if let Some(r) = i.lookup_field(name, desc) {
                return Some(r);
            }
        }
        self.super_class.as_ref().and_then(|s| s.lookup_field(name, desc))
    }
    /// Method resolution (JVMS 5.4.3.3/5.4.3.4): the class chain, then superinterfaces.
    pub fn lookup_method(self: &Arc<Class>, name: &str, desc: &str) -> Option<&'static Method> {
        let mut c = Some(self.clone());
        while let Some(cl) = c {
            if let Some(m) = cl.find_method(name, desc) {
                return Some(m);
            }
            c = cl.super_class.clone();
        }
        self.lookup_interface_method(name, desc)
    }
    fn lookup_interface_method(&self, name: &str, desc: &str) -> Option<&'static Method> {
        let mut abstract_found = None;
        let mut stack: Vec<Arc<Class>> = self.interfaces.clone();
        let mut c = self.super_class.clone();
        while let Some(cl) = c {
            stack.extend(cl.interfaces.iter().cloned());
            c = cl.super_class.clone();
        }
        while let Some(i) = stack.pop() {
            if let Some(m) = i.find_method(name, desc) {
                if !m.is_abstract {
                    return Some(m);
                }
                abstract_found.get_or_insert(m);
            }
            stack.extend(i.interfaces.iter().cloned());
        }
        abstract_found
    }
}

/// Global registries: classes by id and name, methods by id, selectors.
pub struct Registry {
    pub by_name: Mutex<FxHashMap<String, Arc<Class>>>,
    /// Classes by id: append-only, read without locking.
    pub by_id: Vec<OnceLock<Arc<Class>>>,
    pub class_count: std::sync::atomic::AtomicUsize,
    /// Methods by id. Methods (like classes) live as long as the process: they are leaked so the
    /// interpreter can hold plain references without reference counting.
    pub methods: RwLock<Vec<&'static Method>>,
    pub selectors: Mutex<FxHashMap<String, u32>>,
    /// The class path's entries that could be opened (directories and jars), in order.
    pub classpath: Vec<ClassPathEntry>,
    pub bundled: FxHashMap<&'static str, &'static [u8]>,
    /// Serialises loading so a class is defined once.
    pub load_lock: Mutex<()>,
    /// Classes made for invokedynamic call sites so far (their names count them).
    pub synthetic_count: AtomicU32,
    /// Per class (by name), the dynamic constants among its bootstrap arguments (`condy.rs`).
    pub condys: Mutex<FxHashMap<String, Arc<crate::condy::CondyTable>>>,
}

pub const MAX_CLASSES: usize = 1 << 16;

/// The names of the primitive types' classes (`Registry::primitive`).
pub const PRIMITIVES: [&str; 9] = ["boolean", "byte", "char", "short", "int", "long", "float", "double", "void"];

/// The newest class file version rvm loads: 69, Java 25 (records, sealed classes, nestmates and
/// the invokedynamic of records and pattern `switch` are linked, see `indy.rs`).
pub const MAX_CLASS_VERSION: u16 = 69;

mod classlib {
    include!(concat!(env!("OUT_DIR"), "/classlib.rs"));
}

impl Registry {
    pub fn new(classpath: Vec<PathBuf>) -> Registry {
        Registry {
            by_name: Mutex::new(FxHashMap::default()),
            by_id: (0..MAX_CLASSES).map(|_| OnceLock::new()).collect(),
            class_count: std::sync::atomic::AtomicUsize::new(0),
            methods: RwLock::new(Vec::new()),
            selectors: Mutex::new(FxHashMap::default()),
            classpath: open_class_path(classpath),
            bundled: classlib::CLASSLIB.iter().cloned().collect(),
            load_lock: Mutex::new(()),
            synthetic_count: AtomicU32::new(0),
            condys: Mutex::new(FxHashMap::default()),
        }
    }
    pub fn selector(&self, name: &str, desc: &str) -> u32 {
        let key = format!("{name}{desc}");
        let mut s = self.selectors.lock().unwrap();
        let n = s.len() as u32;
        *s.entry(key).or_insert(n)
    }
    #[inline]
    pub fn class(&self, id: u32) -> &Arc<Class> {
        self.by_id[id as usize].get().expect("class id")
    }
    pub fn all_classes(&self) -> Vec<Arc<Class>> {
        (0..self.class_count.load(Relaxed)).filter_map(|i| self.by_id[i].get().cloned()).collect()
    }
    pub fn method(&self, id: u32) -> &'static Method {
        self.methods.read().unwrap()[id as usize]
    }
    /// The method with id `id`, if there is one (for ids from outside the VM, e.g. an agent).
    pub fn try_method(&self, id: u32) -> Option<&'static Method> {
        self.methods.read().unwrap_or_else(|e| e.into_inner()).get(id as usize).copied()
    }
    /// The class with id `id`, if there is one.
    pub fn try_class(&self, id: u32) -> Option<&Arc<Class>> {
        self.by_id.get(id as usize)?.get()
    }
    pub fn loaded(&self, name: &str) -> Option<Arc<Class>> {
        self.by_name.lock().unwrap().get(name).cloned()
    }

    fn find_bytes(&self, name: &str) -> Option<Vec<u8>> {
        if let Some(b) = self.bundled.get(name) {
            return Some(b.to_vec());
        }
        if name.starts_with("java/") {
            return None;
        }
        let file = format!("{name}.class");
        self.classpath.iter().find_map(|e| e.read(&file))
    }

    /// Loads and links a class (not initialising it). Errors name the missing class.
    pub fn load(&self, name: &str) -> Result<Arc<Class>, String> {
        if let Some(c) = self.loaded(name) {
            return Ok(c);
        }
        if name.starts_with('[') {
            return self.load_array(name);
        }
        let _guard = self.load_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.load_locked(name)
    }

    fn load_locked(&self, name: &str) -> Result<Arc<Class>, String> {
        if let Some(c) = self.loaded(name) {
            return Ok(c);
        }
        let mut bytes = self.find_bytes(name).ok_or_else(|| format!("java.lang.NoClassDefFoundError: {name}"))?;
        if let Some((prepared, table)) = crate::condy::prepare(&bytes) {
            bytes = prepared;
            self.condys.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), Arc::new(table));
        }
        let bytes = Arc::new(bytes);
        let mut opts = cafebabe::ParseOptions::default();
        opts.parse_bytecode(false);
        let cf = cafebabe::parse_class_with_options(&bytes, &opts)
            .map_err(|e| format!("java.lang.ClassFormatError: {name}: {e}"))?;
        if cf.major_version > MAX_CLASS_VERSION {
            return Err(format!(
                "java.lang.UnsupportedClassVersionError: {name} has class file version {}.{} (rvm supports up to {MAX_CLASS_VERSION}, Java 25)",
                cf.major_version, cf.minor_version
            ));
        }
        if cf.this_class.to_string() != name {
            return Err(format!("java.lang.NoClassDefFoundError: {name} (wrong name: {})", cf.this_class));
        }
        let super_class = match &cf.super_class {
            Some(s) => Some(self.load_locked(s)?),
            None => None,
        };
        let mut interfaces = Vec::new();
        for i in &cf.interfaces {
            interfaces.push(self.load_locked(i)?);
        }
        let mut fields = Vec::new();
        for f in &cf.fields {
            let desc = field_type_desc(&f.descriptor.field_type, f.descriptor.dimensions);
            let is_static = f.access_flags.contains(FieldAccessFlags::STATIC);
            let mut constant = None;
            if is_static {
                for a in &f.attributes {
                    if let cafebabe::attributes::AttributeData::ConstantValue(c) = &a.data {
                        use cafebabe::constant_pool::LiteralConstant as LC;
                        constant = match c {
                            LC::Integer(i) => Some(ConstVal::Int(*i)),
                            LC::Long(i) => Some(ConstVal::Long(*i)),
                            LC::Float(v) => Some(ConstVal::Float(*v)),
                            LC::Double(v) => Some(ConstVal::Double(*v)),
                            LC::String(s) => Some(ConstVal::Str(s.to_string())),
                            LC::StringBytes(b) => Some(ConstVal::StrBytes(b.to_vec())),
                        };
                    }
                }
            }
            fields.push(FieldDef { name: f.name.to_string(), desc, is_static, constant });
        }
        let methods = cf
            .methods
            .iter()
            .map(|m| MethodDef { name: m.name.to_string(), desc: method_desc(&m.descriptor), flags: m.access_flags })
            .collect();
        let source_file = cf.attributes.iter().find_map(|a| match &a.data {
            cafebabe::attributes::AttributeData::SourceFile(s) => Some(s.to_string()),
            _ => None,
        });
        let def = ClassDef {
            name,
            super_class,
            interfaces,
            is_interface: cf.access_flags.contains(ClassAccessFlags::INTERFACE),
            is_abstract: cf.access_flags.contains(ClassAccessFlags::ABSTRACT),
            fields,
            methods,
            source_file,
            hidden: false,
        };
        drop(cf);
        Ok(self.define_locked(def, Some(bytes)))
    }

    /// Defines a class the VM makes itself (for an invokedynamic call site, `indy.rs`): linked like
    /// a loaded one, marked hidden and initialised (it has no static initialiser). Its methods have
    /// no bytecode: the caller sets their `code` before anything can call them.
    pub fn define_synthetic(&self, name: &str, super_name: &str, interfaces: &[String], fields: Vec<FieldDef>, methods: Vec<MethodDef>) -> Result<Arc<Class>, String> {
        let _guard = self.load_lock.lock().unwrap_or_else(|e| e.into_inner());
        let super_class = Some(self.load_locked(super_name)?);
        let interfaces = interfaces.iter().map(|i| self.load_locked(i)).collect::<Result<Vec<_>, _>>()?;
        let def = ClassDef {
            name,
            super_class,
            interfaces,
            is_interface: false,
            is_abstract: false,
            fields,
            methods,
            source_file: None,
            hidden: true,
        };
        let class = self.define_locked(def, None);
        *class.init.lock().unwrap() = InitState::Done;
        class.initialized.store(true, Release);
        Ok(class)
    }

    /// Links and registers a class: field layout, methods, vtable and interface dispatch table.
    /// Called with `load_lock` held.
    fn define_locked(&self, def: ClassDef<'_>, bytes: Option<Arc<Vec<u8>>>) -> Arc<Class> {
        let ClassDef { name, super_class, interfaces, is_interface, is_abstract, fields: field_defs, methods: method_defs, source_file, hidden } = def;
        let id = self.class_count.load(Relaxed) as u32;
        let mut supertypes = rustc_hash::FxHashSet::default();
        supertypes.insert(id);
        if let Some(s) = &super_class {
            supertypes.extend(s.supertypes.iter().copied());
        }
        for i in &interfaces {
            supertypes.extend(i.supertypes.iter().copied());
        }
        // Field layout.
        let mut instance_words = super_class.as_ref().map_or(crate::heap::HEADER, |s| s.instance_words);
        let mut ref_offsets = super_class.as_ref().map_or(Vec::new(), |s| s.ref_offsets.clone());
        let mut static_words = 0usize;
        let mut static_ref_offsets = Vec::new();
        let mut fields = Vec::new();
        for f in field_defs {
            let kind = Kind::from_desc(&f.desc);
            let offset = if f.is_static {
                let o = static_words;
                static_words += kind.words();
                if kind == Kind::L {
                    static_ref_offsets.push(o);
                }
                o
            } else {
                let o = instance_words;
                instance_words += kind.words();
                if kind == Kind::L {
                    ref_offsets.push(o);
                }
                o
            };
            fields.push(Field { name: f.name, desc: f.desc, kind, is_static: f.is_static, offset, constant: f.constant });
        }
        let class_name: Arc<str> = Arc::from(name);
        let mut methods = Vec::new();
        {
            let mut all = self.methods.write().unwrap();
            for (index, m) in method_defs.into_iter().enumerate() {
                let is_static = m.flags.contains(MethodAccessFlags::STATIC);
                let (params, ret) = desc_parts(&m.desc);
                let arg_slots = usize::from(!is_static) + params.iter().map(|p| Kind::from_desc(p).slots()).sum::<usize>();
                let ret_slots = if ret == "V" { 0 } else { Kind::from_desc(ret).slots() };
                let method: &'static Method = Box::leak(Box::new(Method {
                    id: all.len() as u32,
                    class_id: id,
                    class_name: class_name.clone(),
                    selector: self.selector(&m.name, &m.desc),
                    name: m.name,
                    desc: m.desc,
                    flags: m.flags,
                    is_static,
                    is_native: m.flags.contains(MethodAccessFlags::NATIVE),
                    is_abstract: m.flags.contains(MethodAccessFlags::ABSTRACT),
                    is_sync: m.flags.contains(MethodAccessFlags::SYNCHRONIZED),
                    is_private: m.flags.contains(MethodAccessFlags::PRIVATE),
                    is_final: m.flags.contains(MethodAccessFlags::FINAL),
                    arg_slots,
                    ret_slots,
                    index,
                    code: OnceLock::new(),
                    native: OnceLock::new(),
                    events_off: AtomicBool::new(false),
                }));
                all.push(method);
                methods.push(method);
            }
        }
        // Virtual table: the superclass's, overridden or extended by this class's methods.
        let mut vtable: Vec<&'static Method> = super_class.as_ref().map_or(Vec::new(), |s| s.vtable.clone());
        let mut vindex: FxHashMap<u32, usize> = super_class.as_ref().map_or(FxHashMap::default(), |s| s.vindex.clone());
        if !is_interface {
            for m in &methods {
                if m.is_static || m.name.starts_with('<') {
                    continue;
                }
                if m.is_private {
                    continue;
                }
                match vindex.get(&m.selector) {
                    Some(&i) => vtable[i] = *m,
                    None => {
                        vindex.insert(m.selector, vtable.len());
                        vtable.push(*m);
                    }
                }
            }
        }
        // Interface dispatch: vtable entries, then default methods of all superinterfaces.
        let mut dispatch: FxHashMap<u32, &'static Method> = FxHashMap::default();
        for m in &vtable {
            dispatch.insert(m.selector, *m);
        }
        if let Some(s) = &super_class {
            for (k, m) in &s.dispatch {
                dispatch.entry(*k).or_insert_with(|| *m);
            }
        }
        let mut stack: Vec<Arc<Class>> = interfaces.clone();
        while let Some(i) = stack.pop() {
            for m in &i.methods {
                if m.is_static || m.is_private || m.name.starts_with('<') {
                    continue;
                }
                let e = dispatch.entry(m.selector).or_insert_with(|| *m);
                if e.is_abstract && !m.is_abstract {
                    *e = *m;
                }
            }
            stack.extend(i.interfaces.iter().cloned());
        }
        if is_interface {
            for m in &methods {
                if !m.is_static && !m.name.starts_with('<') {
                    dispatch.insert(m.selector, *m);
                }
            }
        }
        // Defaults also serve invokevirtual through the class.
        if !is_interface {
            for (sel, m) in &dispatch {
                if !vindex.contains_key(sel) {
                    vindex.insert(*sel, vtable.len());
                    vtable.push(*m);
                }
            }
        }
        let class = Arc::new(Class {
            id,
            name: class_name,
            super_class,
            interfaces,
            supertypes,
            is_interface,
            is_abstract,
            instance_words,
            ref_offsets,
            fields,
            statics: (0..static_words).map(|_| AtomicU32::new(0)).collect(),
            static_ref_offsets,
            methods,
            vtable,
            vindex,
            dispatch,
            elem: None,
            component: None,
            init: Mutex::new(InitState::Uninit),
            initialized: AtomicBool::new(false),
            mirror_root: AtomicU32::new(u32::MAX),
            source_file,
            bytes,
            array_class: OnceLock::new(),
            hidden,
        });
        self.register(class.clone());
        class
    }

    fn register(&self, class: Arc<Class>) {
        let n = self.class_count.load(Relaxed);
        assert_eq!(n as u32, class.id);
        assert!(n < MAX_CLASSES, "too many classes");
        let _ = self.by_id[n].set(class.clone());
        self.class_count.store(n + 1, Relaxed);
        self.by_name.lock().unwrap().insert(class.name.to_string(), class);
    }

    /// Loads the array class with descriptor `name` (e.g. `[I`, `[[Ljava/lang/String;`).
    pub fn load_array(&self, name: &str) -> Result<Arc<Class>, String> {
        let comp_desc = &name[1..];
        let (elem, component) = match comp_desc.as_bytes()[0] {
            b'L' => (Kind::L, Some(self.load(&comp_desc[1..comp_desc.len() - 1])?)),
            b'[' => (Kind::L, Some(self.load_array(comp_desc)?)),
            _ => (Kind::from_desc(comp_desc), None),
        };
        let object = self.load("java/lang/Object")?;
        let cloneable = self.load("java/lang/Cloneable")?;
        let serializable = self.load("java/io/Serializable")?;
        let _guard = self.load_lock.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = self.loaded(name) {
            return Ok(c);
        }
        let id = self.class_count.load(Relaxed) as u32;
        let mut supertypes = rustc_hash::FxHashSet::default();
        supertypes.insert(id);
        supertypes.extend(object.supertypes.iter().copied());
        supertypes.insert(cloneable.id);
        supertypes.insert(serializable.id);
        let class = Arc::new(Class {
            id,
            name: Arc::from(name),
            super_class: Some(object.clone()),
            interfaces: vec![cloneable, serializable],
            supertypes,
            is_interface: false,
            is_abstract: true,
            instance_words: crate::heap::ARRAY_HEADER,
            ref_offsets: Vec::new(),
            fields: Vec::new(),
            statics: Vec::new(),
            static_ref_offsets: Vec::new(),
            methods: Vec::new(),
            vtable: object.vtable.clone(),
            vindex: object.vindex.clone(),
            dispatch: object.dispatch.clone(),
            elem: Some(elem),
            component,
            init: Mutex::new(InitState::Done),
            initialized: AtomicBool::new(true),
            mirror_root: AtomicU32::new(u32::MAX),
            source_file: None,
            bytes: None,
            array_class: OnceLock::new(),
            hidden: false,
        });
        self.register(class.clone());
        Ok(class)
    }

    /// The class of a primitive type (`int`, …, `void`), made on first use: no superclass, no
    /// members, registered under its name (which no class file can have), like HotSpot's
    /// `int.class`.
    pub fn primitive(&self, name: &str) -> Option<Arc<Class>> {
        if !PRIMITIVES.contains(&name) {
            return None;
        }
        let _guard = self.load_lock.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = self.loaded(name) {
            return Some(c);
        }
        let id = self.class_count.load(Relaxed) as u32;
        let mut supertypes = rustc_hash::FxHashSet::default();
        supertypes.insert(id);
        let class = Arc::new(Class {
            id,
            name: Arc::from(name),
            super_class: None,
            interfaces: Vec::new(),
            supertypes,
            is_interface: false,
            is_abstract: true,
            instance_words: 0,
            ref_offsets: Vec::new(),
            fields: Vec::new(),
            statics: Vec::new(),
            static_ref_offsets: Vec::new(),
            methods: Vec::new(),
            vtable: Vec::new(),
            vindex: FxHashMap::default(),
            dispatch: FxHashMap::default(),
            elem: None,
            component: None,
            init: Mutex::new(InitState::Done),
            initialized: AtomicBool::new(true),
            mirror_root: AtomicU32::new(u32::MAX),
            source_file: None,
            bytes: None,
            array_class: OnceLock::new(),
            hidden: false,
        });
        self.register(class.clone());
        Some(class)
    }

    /// The array class whose elements are of class `c`.
    pub fn array_of(&self, c: &Arc<Class>) -> Result<Arc<Class>, String> {
        if let Some(a) = c.array_class.get() {
            return Ok(a.clone());
        }
        let name = if c.is_array() { format!("[{}", c.name) } else { format!("[L{};", c.name) };
        let a = self.load_array(&name)?;
        let _ = c.array_class.set(a.clone());
        Ok(a)
    }
}

pub fn method_desc(d: &cafebabe::descriptors::MethodDescriptor) -> String {
    let mut s = String::from("(");
    for p in &d.parameters {
        s.push_str(&field_type_desc(&p.field_type, p.dimensions));
    }
    s.push(')');
    match &d.return_type {
        ReturnDescriptor::Void => s.push('V'),
        ReturnDescriptor::Return(fd) => s.push_str(&field_type_desc(&fd.field_type, fd.dimensions)),
    }
    s
}


/// One class path entry: a directory of class files or a jar (a zip archive).
pub enum ClassPathEntry {
    Dir(PathBuf),
    /// The archive is read by one thread at a time (a zip reader seeks in its file).
    Jar(PathBuf, Mutex<zip::ZipArchive<std::fs::File>>),
}

impl ClassPathEntry {
    /// Opens `path`: a directory, or a file that must be a zip archive. The error says why not.
    pub fn open(path: &std::path::Path) -> Result<ClassPathEntry, String> {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if meta.is_dir() {
            return Ok(ClassPathEntry::Dir(path.to_path_buf()));
        }
        let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let zip = zip::ZipArchive::new(file).map_err(|e| format!("not a readable jar or zip file ({e})"))?;
        Ok(ClassPathEntry::Jar(path.to_path_buf(), Mutex::new(zip)))
    }

    /// The bytes of `file` (`a/b/C.class`) in this entry, if it has it.
    pub fn read(&self, file: &str) -> Option<Vec<u8>> {
        match self {
            ClassPathEntry::Dir(dir) => std::fs::read(dir.join(file)).ok(),
            ClassPathEntry::Jar(path, zip) => {
                let mut zip = zip.lock().unwrap_or_else(|e| e.into_inner());
                let mut entry = zip.by_name(file).ok()?;
                let mut bytes = Vec::with_capacity(entry.size() as usize);
                match std::io::Read::read_to_end(&mut entry, &mut bytes) {
                    Ok(_) => Some(bytes),
                    Err(e) => {
                        // A corrupt entry: say so once per class rather than pretend it is missing.
                        eprintln!("rvm: warning: cannot read {file} from {}: {e}", path.display());
                        None
                    }
                }
            }
        }
    }
}

/// Opens every class path entry; one that cannot be read gets one warning line on stderr (naming
/// it and the cause) and is left out, and the VM goes on with the others.
pub fn open_class_path(paths: Vec<PathBuf>) -> Vec<ClassPathEntry> {
    paths
        .into_iter()
        .filter_map(|p| match ClassPathEntry::open(&p) {
            Ok(e) => Some(e),
            Err(why) => {
                eprintln!("rvm: warning: class path entry {} skipped: {why}", p.display());
                None
            }
        })
        .collect()
}

/// The `Main-Class` of a jar's manifest (`META-INF/MANIFEST.MF`), in internal form (`a/b/Main`).
pub fn jar_main_class(path: &std::path::Path) -> Result<String, String> {
    let e = ClassPathEntry::open(path).map_err(|why| format!("cannot open jar file {}: {why}", path.display()))?;
    let manifest = e.read("META-INF/MANIFEST.MF").ok_or_else(|| format!("no main manifest attribute, in {}", path.display()))?;
    let text = String::from_utf8_lossy(&manifest);
    // Manifest lines are at most 72 bytes: a line starting with one space continues the previous one.
    let mut joined: Vec<String> = Vec::new();
    for line in text.split('\n').map(|l| l.trim_end_matches('\r')) {
        match (line.strip_prefix(' '), joined.last_mut()) {
            (Some(rest), Some(last)) => last.push_str(rest),
            _ => joined.push(line.to_string()),
        }
    }
    joined
        .iter()
        .find_map(|l| l.strip_prefix("Main-Class:").map(|v| v.trim().replace('.', "/")))
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("no main manifest attribute, in {}", path.display()))
}

/// What a class is made of before linking: from a class file, or made by the VM (`indy.rs`).
pub struct ClassDef<'a> {
    pub name: &'a str,
    pub super_class: Option<Arc<Class>>,
    pub interfaces: Vec<Arc<Class>>,
    pub is_interface: bool,
    pub is_abstract: bool,
    pub fields: Vec<FieldDef>,
    pub methods: Vec<MethodDef>,
    pub source_file: Option<String>,
    pub hidden: bool,
}

/// A field before layout.
pub struct FieldDef {
    pub name: String,
    pub desc: String,
    pub is_static: bool,
    pub constant: Option<ConstVal>,
}

/// A method before linking (its code is translated, or set by the VM, later).
pub struct MethodDef {
    pub name: String,
    pub desc: String,
    pub flags: MethodAccessFlags,
}

/// Splits a method descriptor `(IJLjava/lang/String;[I)V` into its parameter descriptors and its
/// return descriptor (`V` for void). The descriptor must be well formed (from a parsed class file).
pub fn desc_parts(desc: &str) -> (Vec<&str>, &str) {
    let b = desc.as_bytes();
    let close = desc.find(')').expect("method descriptor");
    let mut params = Vec::new();
    let mut i = 1;
    while i < close {
        let start = i;
        while b[i] == b'[' {
            i += 1;
        }
        if b[i] == b'L' {
            i += desc[i..].find(';').expect("class descriptor");
        }
        i += 1;
        params.push(&desc[start..i]);
    }
    (params, &desc[close + 1..])
}
