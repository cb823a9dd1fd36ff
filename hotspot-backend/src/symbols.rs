//! The functions of the libraries loaded, for naming native code frames (`sample-native=on`),
//! and the kernel's, for kernel frames (`sample-kernel=on`).
//!
//! `dladdr` reads a library's dynamic symbols only: what it exports. libjvm exports a few hundred
//! of its functions and keeps the rest (tens of thousands) in its `.symtab`, as most libraries
//! built without `-s` do, so each library's ELF file is read once, at the first frame in it, for
//! the address and size of every function. C++ names are demangled. Read at drain time only,
//! never in a signal handler.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use object::{Object, ObjectSegment, ObjectSymbol, SymbolKind};

/// One library's functions: (address from its load base, size, name), sorted by address.
struct Functions(Vec<(u64, u64, String)>);

impl Functions {
    fn read(path: &str) -> Option<Functions> {
        let data = std::fs::read(path).ok()?;
        let file = object::File::parse(&*data).ok()?;
        // Addresses are the file's virtual addresses; the loader maps the lowest segment at the
        // library's base.
        let low = file.segments().map(|s| s.address()).min().unwrap_or(0);
        let mut v: Vec<(u64, u64, String)> = file
            .symbols()
            .chain(file.dynamic_symbols())
            .filter(|s| s.kind() == SymbolKind::Text && s.size() > 0 && s.address() >= low)
            .filter_map(|s| Some((s.address() - low, s.size(), s.name().ok()?.to_string())))
            .collect();
        v.sort_unstable();
        v.dedup_by_key(|f| f.0);
        Some(Functions(v))
    }

    /// The function covering `offset` (from the load base).
    fn at(&self, offset: u64) -> Option<&str> {
        let i = self.0.partition_point(|f| f.0 <= offset).checked_sub(1)?;
        let (start, size, name) = &self.0[i];
        (offset < start + size).then_some(name.as_str())
    }
}

/// Each library's functions by path, read at its first lookup (None: not readable as ELF).
static LIBRARIES: Mutex<Option<HashMap<String, Option<Functions>>>> = Mutex::new(None);

/// The name of the function at `offset` from the base of the library at `path`, demangled.
pub(crate) fn function_at(path: &str, offset: u64) -> Option<String> {
    let mut libraries = LIBRARIES.lock().unwrap_or_else(|e| e.into_inner());
    let functions = libraries.get_or_insert_with(HashMap::new).entry(path.to_string()).or_insert_with(|| Functions::read(path));
    functions.as_ref()?.at(offset).map(demangle)
}

/// The kernel's functions from `/proc/kallsyms` (text symbols: address, name), sorted; read at
/// the first kernel frame. Empty where the addresses are hidden (`kernel.kptr_restrict`: zeros
/// for readers without CAP_SYSLOG).
static KERNEL: OnceLock<Vec<(u64, String)>> = OnceLock::new();

/// Parses `/proc/kallsyms` text: `ADDRESS TYPE NAME [MODULE]`, text symbols only (`t`, `T`,
/// and weak ones). A module's functions keep their module: `name [module]`.
fn parse_kallsyms(text: &str) -> Vec<(u64, String)> {
    let mut v: Vec<(u64, String)> = text
        .lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let address = u64::from_str_radix(parts.next()?, 16).ok().filter(|&a| a != 0)?;
            let kind = parts.next()?;
            if !matches!(kind, "t" | "T" | "w" | "W") {
                return None;
            }
            let name = parts.next()?;
            Some((address, match parts.next() {
                Some(module) => format!("{name} {module}"),
                None => name.to_string(),
            }))
        })
        .collect();
    v.sort_unstable();
    v.dedup_by_key(|f| f.0);
    v
}

/// The name of the kernel function at `address`: the nearest text symbol at or below it (kallsyms
/// gives no sizes), or None where the symbols are hidden or `address` is below the first.
pub(crate) fn kernel_function_at(address: u64) -> Option<String> {
    let functions = KERNEL.get_or_init(|| std::fs::read_to_string("/proc/kallsyms").map(|t| parse_kallsyms(&t)).unwrap_or_default());
    let i = functions.partition_point(|f| f.0 <= address).checked_sub(1)?;
    Some(functions[i].1.clone())
}

/// A C++ name demangled without its parameters (`G1CollectedHeap::do_full_collection`), as
/// async-profiler shows them; other names as they are.
pub(crate) fn demangle(name: &str) -> String {
    if name.starts_with("_Z") {
        if let Ok(symbol) = cpp_demangle::Symbol::new(name) {
            if let Ok(s) = symbol.demangle(&cpp_demangle::DemangleOptions::new().no_params().no_return_type()) {
                return s;
            }
        }
    }
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpp_names_are_demangled_without_parameters() {
        assert_eq!(demangle("_ZN15G1CollectedHeap28should_do_concurrent_full_gcEN7GCCause5CauseE"), "G1CollectedHeap::should_do_concurrent_full_gc");
        assert!(demangle("_ZN15G1CollectedHeap18do_full_collectionEbbb.part.0").starts_with("G1CollectedHeap::do_full_collection"));
        assert_eq!(demangle("Java_calls_spin"), "Java_calls_spin");
        assert_eq!(demangle("_Znot a name"), "_Znot a name");
    }

    /// This test binary's own functions: one found by its address, from the file's symbol table.
    #[test]
    fn a_function_is_found_in_its_librarys_symbol_table() {
        let f = Functions(vec![(0x100, 0x20, "a".into()), (0x200, 0x10, "b".into())]);
        assert_eq!((f.at(0x100), f.at(0x11f), f.at(0x120), f.at(0x205), f.at(0x50)), (Some("a"), Some("a"), None, Some("b"), None));
        let path = std::env::current_exe().unwrap();
        let funcs = Functions::read(path.to_str().unwrap()).expect("the test binary is ELF");
        assert!(funcs.0.iter().any(|(_, _, n)| demangle(n).contains("a_function_is_found_in_its_librarys_symbol_table")));
    }

    /// libjvm's own functions, which it does not export, come from its symbol table.
    #[test]
    fn libjvm_functions_are_named_beyond_its_exports() {
        let jdk = java_tests::jdk().expect("a JDK");
        let path = jdk.home.join("lib/server/libjvm.so");
        let funcs = Functions::read(path.to_str().unwrap()).unwrap_or_else(|| panic!("{} is not readable ELF", path.display()));
        let names: Vec<String> = funcs.0.iter().map(|(_, _, n)| demangle(n)).collect();
        assert!(names.len() > 20_000, "{} functions", names.len());
        for f in ["ClassFileParser::parse_stream", "JVM_Clone"] {
            let (start, _, _) = funcs.0.iter().find(|(_, _, n)| demangle(n) == f).unwrap_or_else(|| panic!("no {f}"));
            assert_eq!(funcs.at(start + 1).map(demangle).as_deref(), Some(f));
        }
    }

    /// kallsyms lines: text symbols kept with their module, data symbols and hidden (zero)
    /// addresses left out, and an address named by the nearest function at or below it.
    #[test]
    fn kallsyms_text_symbols_are_parsed_with_their_modules() {
        let text = "ffffffff81000000 T _stext\nffffffff81001000 t clear_user\nffffffff81002000 D some_data\n\
                    0000000000000000 T hidden\nffffffffc0100000 t ext4_read [ext4]\n";
        let v = parse_kallsyms(text);
        assert_eq!(
            v,
            [(0xffffffff81000000, "_stext".to_string()), (0xffffffff81001000, "clear_user".into()), (0xffffffffc0100000, "ext4_read [ext4]".into())]
        );
        // The live kernel: as root its addresses show; a function found there is found again.
        let live = std::fs::read_to_string("/proc/kallsyms").map(|t| parse_kallsyms(&t)).unwrap_or_default();
        if let Some((address, name)) = live.iter().find(|(_, n)| n == "do_syscall_64") {
            assert_eq!(kernel_function_at(address + 1).as_deref(), Some(name.as_str()));
        } else {
            eprintln!("kernel symbols hidden here (kptr_restrict or no /proc/kallsyms): {} symbols", live.len());
        }
    }
}
