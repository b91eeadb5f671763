//! Checks shared by the fuzz targets in `fuzz_targets/`, and a counting global allocator
//! so that every target also asserts that decoding allocates at most a small multiple of
//! its input (`64 * len + 64 KiB`; set `GODOT_BIN_FUZZ_NO_ALLOC_CHECK=1` to turn that
//! assertion off while a known allocation bug is open).

use godot_bin::{
    Config, Dialect, ErrorKind, NodePath, PackedInt32Array, PackedStringArray, Variant, Vector3,
};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

/// `System`, counting the bytes currently allocated and the peak since the last reset.
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to `System` unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            // The worst case of a moving realloc: both blocks live at once.
            let now = CURRENT.fetch_add(new_size, Relaxed) + new_size;
            PEAK.fetch_max(now, Relaxed);
            CURRENT.fetch_sub(layout.size(), Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f` and returns its result with the peak number of bytes it had allocated at once
/// (above what was allocated when it started).
pub fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let r = f();
    (r, PEAK.load(Relaxed).saturating_sub(base))
}

/// Whether the allocation bound is checked (`GODOT_BIN_FUZZ_NO_ALLOC_CHECK` unset).
pub fn alloc_check_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GODOT_BIN_FUZZ_NO_ALLOC_CHECK").is_none_or(|v| v != "1"))
}

/// The allocation bound every decode must respect: `64 * input + 64 KiB`.
pub fn alloc_bound(input_len: usize) -> usize {
    64 * input_len + (64 << 10)
}

/// Runs a decode under the allocation bound.
pub fn bounded<R>(what: &str, input: &[u8], f: impl FnOnce() -> R) -> R {
    let (r, peak) = peak_during(f);
    if alloc_check_enabled() {
        assert!(
            peak <= alloc_bound(input.len()),
            "{what}: decoding {} bytes allocated {peak} bytes at peak (bound {})",
            input.len(),
            alloc_bound(input.len())
        );
    }
    r
}

/// The six configurations a packet is decoded with: every dialect, objects both ways.
pub fn configs(dialect: Dialect) -> [Config; 2] {
    [
        Config::new(dialect),
        Config::new(dialect).allow_objects(true),
    ]
}

/// Asserts the invariants of an error: it carries an offset inside the input.
pub fn check_error(err: &godot_bin::Error, input: &[u8]) {
    let at = err
        .offset()
        .unwrap_or_else(|| panic!("decode error without an offset: {err}"));
    assert!(at <= input.len(), "error offset {at} past the input: {err}");
}

/// Every check on one packet in one configuration:
/// * `take_from_slice::<Variant>` and `take_from_slice::<IgnoredAny>` (the generic serde
///   path) accept exactly the same packets and consume the same bytes;
/// * `from_slice` agrees with `take_from_slice` (Ok iff nothing is left, else
///   `TrailingBytes` at the right offset);
/// * errors carry an offset within the input;
/// * a decoded value re-encodes, and that encoding decodes to a value that encodes to the
///   same bytes (values with NaN compare by bytes);
/// * no decode allocates more than [`alloc_bound`].
pub fn check_variant(input: &[u8], cfg: &Config) {
    let native = bounded("Variant", input, || cfg.take_from_slice::<Variant>(input));
    let generic = bounded("IgnoredAny", input, || {
        cfg.take_from_slice::<IgnoredAny>(input)
    });
    match (&native, &generic) {
        (Ok((_, rest)), Ok((_, rest2))) => assert_eq!(
            rest.len(),
            rest2.len(),
            "Variant and IgnoredAny consumed different lengths"
        ),
        (Err(e), Err(e2)) => {
            check_error(e, input);
            check_error(e2, input);
        }
        (Ok((v, _)), Err(e)) => panic!("Variant decoded {v:?} but IgnoredAny failed: {e}"),
        (Err(e), Ok(_)) => panic!("IgnoredAny decoded but Variant failed: {e}"),
    }

    let whole = bounded("from_slice", input, || cfg.from_slice::<Variant>(input));
    match (&native, &whole) {
        (Ok((_, rest)), Ok(_)) => assert!(rest.is_empty(), "from_slice accepted trailing bytes"),
        (Ok((_, rest)), Err(e)) => {
            assert!(!rest.is_empty(), "from_slice failed on a whole packet: {e}");
            assert!(
                matches!(e.kind(), ErrorKind::TrailingBytes(n) if *n == rest.len()),
                "expected TrailingBytes({}), got {e}",
                rest.len()
            );
            assert_eq!(e.offset(), Some(input.len() - rest.len()));
        }
        (Err(_), Ok(_)) => panic!("from_slice accepted what take_from_slice refused"),
        (Err(e), Err(e2)) => {
            assert_eq!(e.offset(), e2.offset(), "{e} vs {e2}");
        }
    }

    // The packet layer's own Variant decoder (what `explain` walks with) agrees with the
    // serde path: the same packets, the same bytes consumed, values that encode alike.
    let direct = bounded("explain", input, || godot_bin::explain::explain(input, cfg));
    match (&native, &direct.value) {
        (Ok((v, rest)), Some(d)) => {
            assert_eq!(direct.len, input.len() - rest.len(), "direct decode length");
            assert_eq!(
                cfg.to_vec(v).ok(),
                cfg.to_vec(d).ok(),
                "direct decode value"
            );
        }
        (Err(e), None) => {
            let e2 = direct.error.as_ref().expect("an error");
            assert_eq!(e.offset(), e2.offset(), "{e} vs direct {e2}");
        }
        (Ok((v, _)), None) => panic!(
            "serde decoded {v:?}, the direct decoder failed: {:?}",
            direct.error
        ),
        (Err(e), Some(d)) => panic!("the direct decoder decoded {d:?}, serde failed: {e}"),
    }

    if let Ok((value, _)) = native {
        check_reencode(&value, cfg);
    }
}

/// Encodes `value`, decodes the bytes, encodes again: both encodings must be equal, and
/// when the value has no NaN the two values must be equal too, every Dictionary in the
/// same order (`Variant::eq_ordered`).
pub fn check_reencode(value: &Variant, cfg: &Config) {
    let first = cfg
        .to_vec(value)
        .unwrap_or_else(|e| panic!("a decoded value does not encode: {e}\n{value:?}"));
    let again: Variant = cfg
        .from_slice(&first)
        .unwrap_or_else(|e| panic!("our own encoding does not decode: {e}\n{value:?}"));
    let second = cfg
        .to_vec(&again)
        .unwrap_or_else(|e| panic!("the re-decoded value does not encode: {e}\n{again:?}"));
    assert_eq!(first, second, "re-encoding is not stable for {value:?}");
    if !has_nan(value) {
        // In order: `==` takes a Dictionary's entries in any order, as the engine does.
        assert!(
            again.eq_ordered(value),
            "value changed through encode/decode: {again:?} != {value:?}"
        );
    }
}

/// Whether any float inside `v` is NaN (NaN != NaN, so such values compare by bytes).
pub fn has_nan(v: &Variant) -> bool {
    // Debug output prints every float; `NaN` appears only for a NaN component.
    format!("{v:?}").contains("NaN")
}

/// A derived struct using the common field types, decoded from fuzz input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// A string.
    pub name: String,
    /// Integers of several widths.
    pub hp: i32,
    /// An unsigned one.
    pub level: u8,
    /// A 64-bit one.
    pub xp: u64,
    /// A float.
    pub speed: f32,
    /// A double.
    pub score: f64,
    /// A builtin.
    pub pos: Vector3,
    /// A NodePath.
    pub target: NodePath,
    /// An option.
    pub guild: Option<String>,
    /// A sequence of structs.
    pub items: Vec<Item>,
    /// A map.
    pub stats: BTreeMap<String, i64>,
    /// An enum.
    pub state: State,
    /// Packed arrays.
    pub codes: PackedInt32Array,
    /// More packed arrays.
    pub tags: PackedStringArray,
    /// Bytes.
    #[serde(with = "serde_bytes_compat")]
    pub blob: Vec<u8>,
    /// Anything.
    pub extra: Variant,
}

/// An element of [`Player::items`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Id.
    pub id: u32,
    /// Count.
    pub count: i16,
    /// A tuple.
    pub span: (f32, f32),
}

/// Every serde enum shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum State {
    /// Unit.
    Idle,
    /// Newtype.
    Moving(Vector3),
    /// Tuple.
    Fighting(u32, String),
    /// Struct.
    Dead {
        /// Since when.
        at: i64,
    },
}

/// `Vec<u8>` as a PackedByteArray without depending on `serde_bytes` here.
mod serde_bytes_compat {
    use godot_bin::PackedByteArray;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        PackedByteArray(v.to_vec()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        PackedByteArray::deserialize(d).map(|b| b.0)
    }
}

/// A sample [`Player`] (seed for the corpus).
pub fn sample_player() -> Player {
    Player {
        name: "Ada".into(),
        hp: 100,
        level: 7,
        xp: 1 << 40,
        speed: 1.5,
        score: 0.1,
        pos: Vector3::new(1.0, 2.0, 3.0),
        target: NodePath::from("../Enemy:position:x"),
        guild: Some("blue".into()),
        items: vec![Item {
            id: 3,
            count: -2,
            span: (0.5, 2.0),
        }],
        stats: [("str".to_string(), 10), ("dex".to_string(), -1)]
            .into_iter()
            .collect(),
        state: State::Fighting(9, "orc".into()),
        codes: vec![1, -1, 1 << 30].into(),
        tags: vec!["a".to_string(), String::new()].into(),
        blob: vec![1, 2, 3, 4, 5],
        extra: Variant::from(vec![Variant::from(1), Variant::from("x")]),
    }
}

/// Whether `second` is `first` with the absolute flag of one or more root NodePaths (no
/// names, no subnames) cleared, and nothing else: what a dialect whose decoder drops that
/// flag (Godot 3, Pandemonium) makes of a root path. A String `"/"` decoded into a
/// NodePath field is that path, as GDScript converts it; Godot 3.2.3 itself re-encodes
/// `bytes2var(var2bytes(NodePath("/")))` without the flag
/// (`tests/it/regression/nodepath_root_from_text.rs`).
fn only_root_flags_dropped(first: &[u8], second: &[u8], cfg: &Config) -> bool {
    let Some(id) = cfg.dialect().type_id(godot_bin::VariantType::NodePath) else {
        return false;
    };
    if cfg.dialect() == Dialect::Godot4 || first.len() != second.len() {
        return false;
    }
    // Header, name count 0 in the new format (bit 31), subname count 0: the flag word next.
    let mut root = id.to_le_bytes().to_vec();
    root.extend([0, 0, 0, 0x80, 0, 0, 0, 0]);
    let mut at = 0;
    while at < first.len() {
        if first[at] != second[at] {
            let w = at & !3;
            let is_root = w >= 12 && first[w - 12..w] == root[..];
            if !is_root
                || first.get(w..w + 4) != Some(&[1, 0, 0, 0][..])
                || second.get(w..w + 4) != Some(&[0, 0, 0, 0][..])
            {
                return false;
            }
            at = w + 4;
        } else {
            at += 1;
        }
    }
    true
}

/// The typed decodes the struct target runs on each input.
pub fn check_typed(input: &[u8], cfg: &Config) {
    macro_rules! typed {
        ($($ty:ty),*) => {$({
            let r = bounded(stringify!($ty), input, || cfg.from_slice::<$ty>(input));
            match r {
                Err(e) => check_error(&e, input),
                Ok(v) => {
                    // What decodes as a typed value re-encodes and decodes to the same value
                    // (Player and State have no NaN-sensitive identity beyond floats).
                    let bytes = cfg.to_vec(&v).unwrap_or_else(|e| {
                        panic!("decoded {} does not encode: {e}", stringify!($ty))
                    });
                    let back: $ty = cfg.from_slice(&bytes).unwrap_or_else(|e| {
                        panic!("our encoding of {} does not decode: {e}", stringify!($ty))
                    });
                    let again = cfg.to_vec(&back).expect("second encode");
                    if bytes != again && only_root_flags_dropped(&bytes, &again, cfg) {
                        // The engine's own first round trip; from then on, stable.
                        let third: $ty = cfg.from_slice(&again).expect("third decode");
                        let third = cfg.to_vec(&third).expect("third encode");
                        assert_eq!(again, third, "{} re-encoding differs", stringify!($ty));
                    } else {
                        assert_eq!(bytes, again, "{} re-encoding differs", stringify!($ty));
                    }
                }
            }
        })*};
    }
    typed!(
        Player,
        Item,
        State,
        Vec<State>,
        Option<Vec<String>>,
        BTreeMap<String, i64>,
        Vec<Vec<i64>>,
        NodePath,
        String,
        Vector3
    );
    // A HashMap encodes in its own iteration order: compare values, not bytes.
    match bounded("HashMap", input, || {
        cfg.from_slice::<HashMap<String, i64>>(input)
    }) {
        Err(e) => check_error(&e, input),
        Ok(v) => {
            let bytes = cfg.to_vec(&v).expect("decoded HashMap does not encode");
            let back: HashMap<String, i64> = cfg.from_slice(&bytes).expect("HashMap re-decode");
            assert_eq!(back, v);
        }
    }
}

/// Save files: what reading a whole file may allocate. The containers read through a
/// 64 KiB buffer and hold a block of content besides the file itself; a Brotli block's
/// decoder sizes its window from the stream, up to 16 MiB, which the bound allows when the
/// file says Brotli (mode 4).
pub fn file_alloc_bound(input: &[u8]) -> usize {
    let brotli = input.get(..8) == Some(b"GCPF\x04\x00\x00\x00".as_slice());
    64 * input.len() + (256 << 10) + if brotli { 24 << 20 } else { 0 }
}

/// Every check on one save file's bytes, as the engine would open them:
/// * the slice functions and the streaming [`Reader`](godot_bin_files::save::Reader) agree
///   on whether the container is sound, and on its content;
/// * container errors carry an offset inside the file;
/// * reading the values (Godot 3 and Godot 4) never panics;
/// * nothing allocates more than [`file_alloc_bound`].
pub fn check_file(input: &[u8], key: &godot_bin_files::save::Key) {
    use godot_bin_files::save::{self as file, Reader};
    use std::io::Read;
    let bound = file_alloc_bound(input);
    let (whole, peak) = peak_during(|| match input.get(..4) {
        Some(b"GDEC") => Some(file::decrypt(input, key)),
        Some(b"GCPF") => Some(file::decompress(input)),
        _ => None,
    });
    if alloc_check_enabled() {
        assert!(
            peak <= bound,
            "whole file: {} bytes allocated {peak} at peak",
            input.len()
        );
    }
    let (streamed, peak) = peak_during(|| -> godot_bin_files::Result<Vec<u8>> {
        let mut reader = Reader::with_key(input, key, &Config::default())?;
        let mut content = Vec::new();
        reader.read_to_end(&mut content)?;
        Ok(content)
    });
    if alloc_check_enabled() {
        assert!(
            peak <= bound,
            "streamed: {} bytes allocated {peak} at peak",
            input.len()
        );
    }
    if let Some(whole) = &whole {
        match (whole, &streamed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "slice and stream disagree on the content"),
            (Ok(_), Err(e)) => panic!("the slice read the file, the stream failed: {e}"),
            // A Godot 4 file whose MD5 starts with the word 1 reads only through the
            // slice function, which tries both layouts.
            (Err(e), Ok(_)) if !matches!(e.kind(), godot_bin_files::ErrorKind::WrongKey) => {
                panic!("the stream read the file, the slice failed: {e}")
            }
            (Err(e), _) => {
                if let Some(godot_bin::Position::Byte(at)) = e.position() {
                    assert!(at <= input.len(), "offset {at} past the file: {e}");
                }
            }
        }
    }
    for dialect in [Dialect::Godot3, Dialect::Godot4] {
        let ((), peak) = peak_during(|| {
            let cfg = Config::new(dialect).allow_objects(true);
            if let Ok(mut reader) = Reader::with_key(input, key, &cfg) {
                for value in reader.values::<Variant>() {
                    if value.is_err() {
                        break;
                    }
                }
            }
        });
        if alloc_check_enabled() {
            assert!(
                peak <= bound,
                "values: {} bytes allocated {peak} at peak",
                input.len()
            );
        }
    }
}
