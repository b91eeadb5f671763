//! [`Variant::assign`]: a value set in place of another keeps the kind the old one had —
//! a typed Array's or Dictionary's types, a packed array's kind — when the new elements
//! fit it, as the engine keeps a typed property's or variable's type on assignment (an
//! untyped `[&"a"]` assigned to an `Array[StringName]` stays an `Array[StringName]`).
//! Resources' properties, saves' values and the CLI's `set` all go through it.

use super::{ElementType, Variant};
use crate::dialect::VariantType;
use crate::types::names::StringName;

/// `new` with the container types of `old` where `new` has none and its elements fit them
/// (a typed Array's or Dictionary's types, a packed array's kind).
fn keep_container_types(old: &Variant, new: Variant) -> Variant {
    match (old, new) {
        (Variant::Array(o), Variant::Array(mut n)) => {
            if n.element_type.is_untyped() && !o.element_type.is_untyped() {
                if let Some(items) = fitted(&o.element_type, &n.items) {
                    n.items = items;
                    n.element_type = o.element_type.clone();
                }
            } else if o.len() == n.len() {
                n.items = n
                    .items
                    .into_iter()
                    .zip(o.iter())
                    .map(|(x, y)| keep_container_types(y, x))
                    .collect();
            }
            Variant::Array(n)
        }
        (Variant::Dictionary(o), Variant::Dictionary(mut n)) => {
            if !n.is_typed() && o.is_typed() {
                let keys: Vec<Variant> = n.keys().cloned().collect();
                let values: Vec<Variant> = n.iter().map(|(_, v)| v.clone()).collect();
                if fitted(o.key_type(), &keys).as_ref() == Some(&keys)
                    && fitted(o.value_type(), &values).as_ref() == Some(&values)
                {
                    n.set_types(o.key_type().clone(), o.value_type().clone());
                }
            } else {
                for (k, v) in n.iter_mut() {
                    if let Some(old) = o.get(k) {
                        *v = keep_container_types(old, std::mem::take(v));
                    }
                }
            }
            Variant::Dictionary(n)
        }
        (old, Variant::Array(n)) if n.element_type.is_untyped() => {
            packed_like(old, &n.items).unwrap_or(Variant::Array(n))
        }
        (_, new) => new,
    }
}

/// `items` as a packed array of `old`'s kind (a `Vec<String>` set on a
/// `PackedStringArray`), when `old` is one and every item fits it exactly.
fn packed_like(old: &Variant, items: &[Variant]) -> Option<Variant> {
    use crate::types::packed::{
        PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array,
        PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
        PackedVector2iArray, PackedVector3Array, PackedVector3iArray, PackedVector4Array,
        PackedVector4iArray,
    };
    macro_rules! each {
        ($packed:ident, $f:expr) => {
            items
                .iter()
                .map($f)
                .collect::<Option<Vec<_>>>()
                .map(|v| Variant::$packed($packed(v)))
        };
    }
    match old {
        Variant::PackedStringArray(_) => each!(PackedStringArray, |x| x.as_str().map(String::from)),
        Variant::PackedByteArray(_) => each!(PackedByteArray, |x| x
            .as_int()
            .and_then(|i| u8::try_from(i).ok())),
        Variant::PackedInt32Array(_) => each!(PackedInt32Array, |x| x
            .as_int()
            .and_then(|i| i32::try_from(i).ok())),
        Variant::PackedInt64Array(_) => each!(PackedInt64Array, Variant::as_int),
        Variant::PackedFloat64Array(_) => each!(PackedFloat64Array, |x| match x {
            Variant::Float(f) => Some(*f),
            _ => None,
        }),
        Variant::PackedFloat32Array(_) => each!(PackedFloat32Array, |x| match x {
            Variant::Float(f) if f64::from(*f as f32).to_bits() == f.to_bits() => Some(*f as f32),
            _ => None,
        }),
        Variant::PackedVector2Array(_) => each!(PackedVector2Array, |x| match x {
            Variant::Vector2(v) => Some(*v),
            _ => None,
        }),
        Variant::PackedVector3Array(_) => each!(PackedVector3Array, |x| match x {
            Variant::Vector3(v) => Some(*v),
            _ => None,
        }),
        Variant::PackedVector4Array(_) => each!(PackedVector4Array, |x| match x {
            Variant::Vector4(v) => Some(*v),
            _ => None,
        }),
        Variant::PackedColorArray(_) => each!(PackedColorArray, |x| match x {
            Variant::Color(v) => Some(*v),
            _ => None,
        }),
        Variant::PackedVector2iArray(_) => each!(PackedVector2iArray, |x| match x {
            Variant::Vector2i(v) => Some(*v),
            _ => None,
        }),
        Variant::PackedVector3iArray(_) => each!(PackedVector3iArray, |x| match x {
            Variant::Vector3i(v) => Some(*v),
            _ => None,
        }),
        Variant::PackedVector4iArray(_) => each!(PackedVector4iArray, |x| match x {
            Variant::Vector4i(v) => Some(*v),
            _ => None,
        }),
        _ => None,
    }
}

/// `items` as elements of type `t` (a String becomes a StringName where that is the
/// type), or `None` when one does not fit.
fn fitted(t: &ElementType, items: &[Variant]) -> Option<Vec<Variant>> {
    items
        .iter()
        .map(|x| match (t, x) {
            (ElementType::Untyped, x) => Some(x.clone()),
            (ElementType::Builtin(VariantType::StringName), Variant::String(s)) => {
                Some(Variant::StringName(StringName(s.clone())))
            }
            (ElementType::Builtin(b), x) if x.get_type() == *b => Some(x.clone()),
            // Objects (references) and null fit a class or script type.
            (
                ElementType::ClassName(_) | ElementType::Script(_),
                Variant::Object(_) | Variant::Nil,
            ) => Some(x.clone()),
            _ => None,
        })
        .collect()
}

impl Variant {
    /// Replaces this value with `value` as the engine assigns to a typed property or
    /// variable: where this is a typed Array or Dictionary and `value` the same container
    /// untyped, `value` takes the types when every element fits them (a String becomes a
    /// StringName where that is the type); where this is a packed array and `value` an
    /// untyped Array whose items all fit it exactly, `value` becomes that packed array;
    /// elements of containers of the same length are kept alike, one by one. Anything else
    /// is replaced as it is.
    ///
    /// ```
    /// use godot_bin::{ElementType, StringName, Variant, VariantType};
    ///
    /// // What a game stored as `var items: Array[StringName]`.
    /// let mut items: Variant = godot_bin::from_slice(&godot_bin::to_vec(&Variant::Array(
    ///     godot_bin::Array::typed(ElementType::Builtin(VariantType::StringName), vec![]),
    /// ))?)?;
    /// items.assign(Variant::Array(vec![Variant::from("a")].into()));
    /// let Variant::Array(a) = &items else { unreachable!() };
    /// assert_eq!(a.element_type, ElementType::Builtin(VariantType::StringName));
    /// assert_eq!(a.items, [Variant::StringName(StringName("a".into()))]);
    /// # Ok::<(), godot_bin::Error>(())
    /// ```
    pub fn assign(&mut self, value: impl Into<Variant>) {
        let old = std::mem::take(self);
        *self = keep_container_types(&old, value.into());
    }
}

#[cfg(test)]
mod tests {
    use crate::types::math::{Color, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i};
    use crate::types::packed::*;
    use crate::Variant;

    /// Every packed kind keeps its kind when set to a plain list of elements that fit it,
    /// and becomes that list when one does not fit.
    #[test]
    fn every_packed_kind_is_kept() {
        let cases: Vec<(Variant, Vec<Variant>)> = vec![
            (PackedByteArray(vec![7]).into(), vec![Variant::Int(7)]),
            (PackedInt32Array(vec![-7]).into(), vec![Variant::Int(-7)]),
            (
                PackedInt64Array(vec![1 << 40]).into(),
                vec![Variant::Int(1 << 40)],
            ),
            (
                PackedFloat32Array(vec![0.5]).into(),
                vec![Variant::Float(0.5)],
            ),
            (
                PackedFloat64Array(vec![0.1]).into(),
                vec![Variant::Float(0.1)],
            ),
            (
                PackedStringArray(vec!["a".into()]).into(),
                vec![Variant::from("a")],
            ),
            (
                PackedVector2Array(vec![Vector2::new(1.0, 2.0)]).into(),
                vec![Vector2::new(1.0, 2.0).into()],
            ),
            (
                PackedVector3Array(vec![Vector3::ONE]).into(),
                vec![Vector3::ONE.into()],
            ),
            (
                PackedVector4Array(vec![Vector4::ONE]).into(),
                vec![Vector4::ONE.into()],
            ),
            (
                PackedColorArray(vec![Color::new(1.0, 0.0, 0.0, 1.0)]).into(),
                vec![Color::new(1.0, 0.0, 0.0, 1.0).into()],
            ),
            (
                PackedVector2iArray(vec![Vector2i::new(1, 2)]).into(),
                vec![Vector2i::new(1, 2).into()],
            ),
            (
                PackedVector3iArray(vec![Vector3i::ONE]).into(),
                vec![Vector3i::ONE.into()],
            ),
            (
                PackedVector4iArray(vec![Vector4i::ONE]).into(),
                vec![Vector4i::ONE.into()],
            ),
        ];
        for (full, items) in cases {
            let mut v = full.clone();
            v.assign(Variant::from(items.clone()));
            assert_eq!(v, full, "{:?}", full.get_type());
            // An element of another type: the list as given.
            let mut mixed = items.clone();
            mixed.push(Variant::Nil);
            let mut v = full.clone();
            v.assign(Variant::from(mixed.clone()));
            assert_eq!(v, Variant::from(mixed), "{:?}", full.get_type());
        }
    }
}
