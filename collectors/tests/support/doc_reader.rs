//! A quantum-trace reader written from `docs/quantum-trace.md` alone, shared by the tests that
//! check real traces against the document (`collectors/tests/quantum.rs`, `agent/tests/rvm.rs`).
#![allow(dead_code)]

/// A reader written from `docs/quantum-trace.md` alone: offsets, sizes and formats as the document
/// gives them; nothing from the crate.
pub type DocQuantum = (u32, i32, u64, u64, u32, u32, Vec<u64>);

pub fn doc_reader(bytes: &[u8]) -> (u32, Vec<DocQuantum>, Vec<(u32, String)>) {
    let le32 = |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let le64 = |o: usize| (le32(o) as u64) | ((le32(o + 4) as u64) << 32);
    assert_eq!(&bytes[0..8], b"HPMQUANT");
    // version 1, or 2 (which adds reason records)
    assert!(bytes[8..12] == [1, 0, 2, 1] || bytes[8..12] == [2, 0, 2, 1], "version and byte order {:?}", &bytes[8..12]);
    let vp = le32(12);
    let n = le32(16) as usize;
    let mut o = 32;
    let mut quanta = Vec::new();
    let mut markers = Vec::new();
    while o < bytes.len() {
        let w = le32(o);
        assert_eq!((w >> 4) & 0x3ff, vp & 0x3ff);
        match w & 15 {
            1 => {
                let d = (0..n).map(|i| le64(o + 32 + 8 * i)).collect();
                quanta.push((w >> 16, le32(o + 4) as i32, le64(o + 8), le64(o + 16), le32(o + 24), le32(o + 28), d));
                o += 32 + 8 * n;
            }
            2 | 3 | 7 => {
                let len = le32(o + 12) as usize;
                markers.push((w & 15, String::from_utf8(bytes[o + 16..o + 16 + len].to_vec()).unwrap()));
                o += 16 + len;
            }
            4 | 5 => {
                let len = le32(o + 16) as usize;
                markers.push((w & 15, format!("{}:{}", le32(o + 12), String::from_utf8(bytes[o + 20..o + 20 + len].to_vec()).unwrap())));
                o += 20 + len;
            }
            6 => {
                markers.push((6, format!("{}", le32(o + 12) as i32)));
                o += 16;
            }
            8 => o += 8, // a reason record (version 2): why the quantum before ended
            10 => o += 8 + le32(o + 4) as usize,
            f => panic!("format {f} at {o}"),
        }
    }
    (vp, quanta, markers)
}
