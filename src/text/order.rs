//! The order the engines print a Dictionary's keys in.
//!
//! Both engines' writers sort the key list before printing it, and both sort with the same
//! algorithm (`SortArray`: an introsort, that is a median-of-three quicksort down to runs of
//! 16, a heapsort past a depth limit of twice the length's log2, then one insertion sort
//! over everything, with the debug build's guards that stop a scan at the array's ends).
//! The comparison is not a total order: where the engine's `<` is undefined (Color,
//! NodePath, Rect2, the matrices, objects, Callable...) or false both ways (NaN), where
//! Godot 4 compares String and StringName keys by text but other keys by type, the result
//! is whatever that algorithm leaves of the insertion order. So it is reproduced step by
//! step here, with the engine's comparison:
//!
//! * Godot 4 (`StringLikeVariantOrder`): two keys that are each a String or a StringName
//!   compare by text; otherwise `Variant::operator<`.
//! * Godot 3 (`Variant::operator<`).
//! * `Variant::operator<`: keys of different types by type id; keys of one type by the
//!   engine's `<` for that type, and `false` where it has none. Godot 4 defines it for bool,
//!   int, float, String, StringName, the int and float vectors (component by component),
//!   RID and Array (element by element, then length); Godot 3 for bool, int, float, String,
//!   Vector2 and Vector3 (components "equal" when within 0.00001 of each other, relative to
//!   the first's size: `is_equal_approx`), Array (by its own rule, below) and the pool
//!   arrays (by theirs, below; a `PoolVector2Array` is compared as if its floats were
//!   `Vector3`s, as Godot 3's operator table has it).
//!
//! Two orders cannot be reproduced, since the engine compares memory addresses there:
//! StringName keys inside Array keys in Godot 4, and object keys in Godot 3. They are
//! ordered by text and left in place.

use crate::dialect::Dialect;
use crate::types::math::{Vector2, Vector3};
use crate::variant::Variant;

/// The order the engine prints `keys` in, as indices into `keys`.
pub(super) fn key_order(keys: &[&Variant], dialect: Dialect) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    let less = |a: usize, b: usize| key_less(keys[a], keys[b], dialect);
    EngineSort { less: &less }.sort(&mut order);
    order
}

/// The writer's comparison of two keys.
fn key_less(a: &Variant, b: &Variant, dialect: Dialect) -> bool {
    if dialect == Dialect::Godot4 {
        if let (Some(x), Some(y)) = (a.as_str(), b.as_str()) {
            return x < y;
        }
    }
    variant_less(a, b, dialect)
}

/// The type's place in `Variant::operator<`: its id in the dialect (a type the dialect
/// lacks goes last).
fn rank(v: &Variant, dialect: Dialect) -> (u8, u32) {
    let ty = v.get_type();
    match dialect.type_id(ty) {
        Some(id) => (0, id),
        None => (1, ty as u32),
    }
}

/// `Variant::operator<`.
fn variant_less(a: &Variant, b: &Variant, dialect: Dialect) -> bool {
    use Variant as V;
    let (ra, rb) = (rank(a, dialect), rank(b, dialect));
    if ra != rb {
        return ra < rb;
    }
    let godot4 = dialect == Dialect::Godot4;
    match (a, b) {
        (V::Bool(x), V::Bool(y)) => x < y,
        (V::Int(x), V::Int(y)) => x < y,
        (V::Float(x), V::Float(y)) => x < y,
        (V::String(x), V::String(y)) => x < y,
        (V::StringName(x), V::StringName(y)) => x < y,
        (V::Vector2(x), V::Vector2(y)) => lexi_less(&[x.x, x.y], &[y.x, y.y], dialect),
        (V::Vector3(x), V::Vector3(y)) => lexi_less(&[x.x, x.y, x.z], &[y.x, y.y, y.z], dialect),
        (V::Vector4(x), V::Vector4(y)) if godot4 => {
            lexi_less(&[x.x, x.y, x.z, x.w], &[y.x, y.y, y.z, y.w], dialect)
        }
        (V::Vector2i(x), V::Vector2i(y)) if godot4 => (x.x, x.y) < (y.x, y.y),
        (V::Vector3i(x), V::Vector3i(y)) if godot4 => (x.x, x.y, x.z) < (y.x, y.y, y.z),
        (V::Vector4i(x), V::Vector4i(y)) if godot4 => (x.x, x.y, x.z, x.w) < (y.x, y.y, y.z, y.w),
        (V::Rid(x), V::Rid(y)) if godot4 => x.0 < y.0,
        (V::Array(x), V::Array(y)) if godot4 => {
            // Element by element (each by `Variant::operator<`), then the shorter first.
            for (p, q) in x.iter().zip(y.iter()) {
                if variant_less(p, q, dialect) {
                    return true;
                }
                if variant_less(q, p, dialect) {
                    return false;
                }
            }
            x.len() < y.len()
        }
        (V::Array(x), V::Array(y)) => {
            // Godot 3's rule: false when `b` is shorter; else true as soon as an element of
            // `a` is not below `b`'s, false when every one is.
            if y.len() < x.len() {
                return false;
            }
            x.iter()
                .zip(y.iter())
                .any(|(p, q)| !variant_less(p, q, dialect))
        }
        (V::PackedByteArray(x), V::PackedByteArray(y)) if !godot4 => pool_less(x, y),
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) if !godot4 => pool_less(x, y),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) if !godot4 => pool_less(x, y),
        (V::PackedStringArray(x), V::PackedStringArray(y)) if !godot4 => pool_less(x, y),
        (V::PackedColorArray(x), V::PackedColorArray(y)) if !godot4 => pool_less(x, y),
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) if !godot4 => {
            let xyz = |v: &Vector3| [v.x, v.y, v.z];
            pool_less(
                &x.iter().map(xyz).collect::<Vec<_>>(),
                &y.iter().map(xyz).collect::<Vec<_>>(),
            )
        }
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) if !godot4 => {
            pool_less(&as_vector3s(x), &as_vector3s(y))
        }
        _ => false,
    }
}

/// The vectors' `<`: component by component, `x == x' ? (next) : x < x'`, where Godot 3
/// (and the Pandemonium engines, its descendants) take "equal" as `is_equal_approx`.
fn lexi_less(a: &[f32], b: &[f32], dialect: Dialect) -> bool {
    let approx = !matches!(dialect, Dialect::Godot4 | Dialect::Godot2);
    let last = a.len() - 1;
    for i in 0..last {
        let equal = if approx {
            equal_approx(a[i], b[i])
        } else {
            a[i] == b[i]
        };
        if !equal {
            return a[i] < b[i];
        }
    }
    a[last] < b[last]
}

/// Godot 3's `Math::is_equal_approx` on `real_t`: equal, or closer than 0.00001 times the
/// first's magnitude (at least 0.00001).
fn equal_approx(a: f32, b: f32) -> bool {
    const CMP_EPSILON: f32 = 0.00001;
    if a == b {
        return true;
    }
    let tolerance = (CMP_EPSILON * a.abs()).max(CMP_EPSILON);
    (a - b).abs() < tolerance
}

/// Godot 3's pool-array `<`: true when `a` is shorter, else true when any element differs
/// (`!=`: a float component differs from NaN and equals its other-signed zero). For an
/// `i` past the end of a shorter `b`, the engine reads `b[i]` from beyond the array (an
/// empty `b` has no memory at all, and the engine crashes there): taken as differing.
fn pool_less<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    if a.len() < b.len() {
        return true;
    }
    a.iter().enumerate().any(|(i, x)| b.get(i) != Some(x))
}

/// A `PoolVector2Array` as Godot 3's `<` sees it: its operator table reads the array as a
/// `PoolVector<Vector3>`, so the elements are the floats taken three at a time and there
/// are `2 * len / 3` of them (the array's size in bytes over 12).
fn as_vector3s(v: &[Vector2]) -> Vec<[f32; 3]> {
    let floats: Vec<f32> = v.iter().flat_map(|p| [p.x, p.y]).collect();
    floats.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
}

/// The engine's `SortArray` over indices, with its debug build's guards (the engines the
/// crate is checked against are debug builds; a release build's `<` that is not a strict
/// weak order could read out of bounds where these stop).
struct EngineSort<'a> {
    less: &'a dyn Fn(usize, usize) -> bool,
}

const THRESHOLD: usize = 16;

impl EngineSort<'_> {
    fn lt(&self, a: usize, b: usize) -> bool {
        (self.less)(a, b)
    }

    fn sort(&self, v: &mut [usize]) {
        let n = v.len();
        if n == 0 {
            return;
        }
        self.introsort(v, 0, n, 2 * n.ilog2() as usize);
        self.final_insertion_sort(v, 0, n);
    }

    fn median_of_3(&self, a: usize, b: usize, c: usize) -> usize {
        if self.lt(a, b) {
            if self.lt(b, c) {
                b
            } else if self.lt(a, c) {
                c
            } else {
                a
            }
        } else if self.lt(a, c) {
            a
        } else if self.lt(b, c) {
            c
        } else {
            b
        }
    }

    fn introsort(&self, v: &mut [usize], first: usize, mut last: usize, mut depth: usize) {
        while last - first > THRESHOLD {
            if depth == 0 {
                self.heap_sort(v, first, last);
                return;
            }
            depth -= 1;
            let pivot = self.median_of_3(v[first], v[first + (last - first) / 2], v[last - 1]);
            let cut = self.partition(v, first, last, pivot);
            self.introsort(v, cut, last, depth);
            last = cut;
        }
    }

    fn partition(&self, v: &mut [usize], mut first: usize, mut last: usize, pivot: usize) -> usize {
        let (start, end) = (first, last);
        loop {
            while self.lt(v[first], pivot) {
                if first == end - 1 {
                    break; // the engine's "bad comparison function" guard
                }
                first += 1;
            }
            last -= 1;
            while self.lt(pivot, v[last]) {
                if last == start {
                    break;
                }
                last -= 1;
            }
            if first >= last {
                return first;
            }
            v.swap(first, last);
            first += 1;
        }
    }

    /// `partial_sort(first, last, last)`: make a heap, then pop it.
    fn heap_sort(&self, v: &mut [usize], first: usize, last: usize) {
        let len = last - first;
        if len >= 2 {
            let mut parent = (len - 2) / 2;
            loop {
                let value = v[first + parent];
                self.adjust_heap(v, first, parent, len, value);
                if parent == 0 {
                    break;
                }
                parent -= 1;
            }
        }
        let mut end = last;
        while end - first > 1 {
            // pop_heap(first, end): the top goes to end - 1.
            let value = v[end - 1];
            v[end - 1] = v[first];
            self.adjust_heap(v, first, 0, end - 1 - first, value);
            end -= 1;
        }
    }

    fn adjust_heap(
        &self,
        v: &mut [usize],
        first: usize,
        mut hole: usize,
        len: usize,
        value: usize,
    ) {
        let top = hole;
        let mut child = 2 * hole + 2;
        while child < len {
            if self.lt(v[first + child], v[first + child - 1]) {
                child -= 1;
            }
            v[first + hole] = v[first + child];
            hole = child;
            child = 2 * (child + 1);
        }
        if child == len {
            v[first + hole] = v[first + child - 1];
            hole = child - 1;
        }
        // push_heap
        while hole > top {
            let parent = (hole - 1) / 2;
            if !self.lt(v[first + parent], value) {
                break;
            }
            v[first + hole] = v[first + parent];
            hole = parent;
        }
        v[first + hole] = value;
    }

    fn final_insertion_sort(&self, v: &mut [usize], first: usize, last: usize) {
        if last - first > THRESHOLD {
            self.insertion_sort(v, first, first + THRESHOLD);
            for i in first + THRESHOLD..last {
                self.unguarded_linear_insert(v, i, v[i]);
            }
        } else {
            self.insertion_sort(v, first, last);
        }
    }

    fn insertion_sort(&self, v: &mut [usize], first: usize, last: usize) {
        for i in first + 1..last {
            let value = v[i];
            if self.lt(value, v[first]) {
                v.copy_within(first..i, first + 1);
                v[first] = value;
            } else {
                self.unguarded_linear_insert(v, i, value);
            }
        }
    }

    fn unguarded_linear_insert(&self, v: &mut [usize], mut last: usize, value: usize) {
        let mut next = last - 1;
        while self.lt(value, v[next]) {
            if next == 0 {
                break; // the engine's guard
            }
            v[last] = v[next];
            last = next;
            next -= 1;
        }
        v[last] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(values: &[i64], less: &dyn Fn(i64, i64) -> bool) -> Vec<i64> {
        let f = |a: usize, b: usize| less(values[a], values[b]);
        let mut idx: Vec<usize> = (0..values.len()).collect();
        EngineSort { less: &f }.sort(&mut idx);
        idx.into_iter().map(|i| values[i]).collect()
    }

    #[test]
    fn sorts_like_a_sort_under_a_total_order() {
        // Lengths around the insertion-sort threshold and past the heapsort depth limit.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for len in [0, 1, 2, 15, 16, 17, 40, 300] {
            let values: Vec<i64> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 50) as i64
                })
                .collect();
            let mut want = values.clone();
            want.sort();
            assert_eq!(sorted(&values, &|a, b| a < b), want, "{len}");
        }
    }

    #[test]
    fn a_comparison_that_is_always_false_keeps_only_short_lists() {
        // Up to 16 keys the insertion sort leaves them in place; past that the quicksort's
        // partition swaps keys it cannot order (the engine does too: see the 30 Color keys
        // in tests/data/random_values/godot4.tsv).
        let values: Vec<i64> = (0..16).collect();
        assert_eq!(sorted(&values, &|_, _| false), values);
        let values: Vec<i64> = (0..40).collect();
        let mut out = sorted(&values, &|_, _| false);
        assert_ne!(out, values);
        out.sort();
        assert_eq!(out, values);
    }

    #[test]
    fn a_comparison_that_is_always_true_stays_in_bounds() {
        let values: Vec<i64> = (0..40).collect();
        let mut out = sorted(&values, &|_, _| true);
        out.sort();
        assert_eq!(out, values);
    }
}
