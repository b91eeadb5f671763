//! The two seams of the text form for what sits on it (the engine's resource files and
//! ConfigFiles): [`ParseHook`], what the parser does with calls only a loader can resolve
//! and with float and string tokens; and [`Formatter`], how the printer writes what the
//! text form leaves a choice about (floats, objects that stand for something else, byte
//! arrays), as serde_json's `Formatter` is a policy for its printer. The plain entry points
//! (`str.parse::<Variant>()`, `Variant::to_text`) use [`Plain`], which changes nothing.

use crate::variant::{ElementType, Object, Variant};
use std::fmt;

/// What [`Variant::from_text_with`](crate::variant::Variant::from_text_with) does with
/// the parts of the text that only the reader knows: calls of names the value parser does
/// not know (a resource file's `ExtResource("1_abc")`, `SubResource("x")`,
/// `Resource("res://a.tres")`, which the engine's loader resolves), float tokens (which an
/// engine's own `strtod` may read one unit in the last place away from the nearest double)
/// and string literals. Every method has a default that changes nothing.
///
/// ```
/// use godot_bin::text::ParseHook;
/// use godot_bin::{Object, Variant};
///
/// /// Reads `Link("name")` as an object of class `Link`.
/// struct Links;
/// impl ParseHook for Links {
///     fn call(&mut self, name: &str, args: Vec<Variant>) -> Result<Option<Variant>, String> {
///         match (name, args.as_slice()) {
///             ("Link", [Variant::String(to)]) => Ok(Some(Variant::Object(Object {
///                 class_name: "Link".into(),
///                 properties: vec![("to".into(), Variant::from(to.as_str()))],
///             }))),
///             ("Link", _) => Err("Link takes one string".into()),
///             _ => Ok(None),
///         }
///     }
/// }
///
/// let v = Variant::from_text_with("[1, Link(\"home\")]", &mut Links)?;
/// let second = v.as_array().and_then(|a| a.iter().nth(1));
/// assert!(matches!(second, Some(Variant::Object(o)) if o.class_name == "Link"));
/// assert!("Link(\"home\")".parse::<Variant>().is_err()); // the plain parser does not know it
/// let err = Variant::from_text_with("Link(2)", &mut Links).unwrap_err();
/// assert_eq!(err.message(), "Link takes one string");
/// # Ok::<(), godot_bin::text::ParseError>(())
/// ```
pub trait ParseHook {
    /// A call `name(args)` of a name that is no builtin's constructor (and of `Resource`,
    /// `SubResource` and `ExtResource`, which name resources only a loader can find),
    /// with the values between its parentheses. `Ok(Some(value))` takes it, `Ok(None)`
    /// leaves it unknown (a [`ParseError`](super::ParseError) then says so), `Err(message)`
    /// refuses it with that message.
    fn call(&mut self, name: &str, args: Vec<Variant>) -> Result<Option<Variant>, String> {
        let _ = (name, args);
        Ok(None)
    }

    /// A typed container's type given as a call (`Array[ExtResource("1_s")]`, a script
    /// class by the file's reference to it), as [`call`](Self::call) does for values. A
    /// script by path (`Array[Resource("res://s.gd")]`) is read without asking, as
    /// [`ElementType::Script`].
    fn type_call(&mut self, name: &str, args: Vec<Variant>) -> Result<Option<ElementType>, String> {
        let _ = (name, args);
        Ok(None)
    }

    /// The value of a float token (`1.5`, `-2e-300`), when it is not the nearest double to
    /// its text: an engine reads floats with its own `strtod`, which can land one unit in
    /// the last place away. `None` (the default) reads the nearest double.
    fn float(&mut self, token: &str) -> Option<f64> {
        let _ = token;
        None
    }

    /// A string literal's `value` once its escapes are read, and its `raw` text between
    /// the quotes (a file's reader drops a byte order mark written at a literal's start, as
    /// the engine's `parse_utf8` of the file does).
    fn string(&mut self, value: &mut String, raw: &str) {
        let _ = (value, raw);
    }
}

/// How [`Variant::write_text`](crate::variant::Variant::write_text) prints what the text
/// form leaves a choice about: floats (the crate prints the shortest text that reads back
/// exactly; a file may want the engine's own `%g` where that reads back as well), objects
/// that stand for something else (a resource file's references), a typed container's
/// script type, and byte arrays (Godot 4.3's files write them as base64). Every method has
/// a default that prints as [`Variant::to_text`](crate::variant::Variant::to_text) does.
///
/// `out` is where the value's text goes; a method that writes its own text returns
/// `Ok(true)` (or, for the numbers, just writes).
///
/// ```
/// use godot_bin::text::Formatter;
/// use godot_bin::{Dialect, Variant, Vector2};
/// use std::fmt::{self, Write};
///
/// /// Every float with two decimals.
/// struct Cents;
/// impl Formatter for Cents {
///     fn f32(&mut self, out: &mut dyn Write, x: f32, _shortest: &str) -> fmt::Result {
///         write!(out, "{x:.2}")
///     }
/// }
///
/// let v = Variant::from(Vector2::new(0.5, 2.0));
/// assert_eq!(v.to_text_with(Dialect::Godot4, &mut Cents), "Vector2(0.50, 2.00)");
/// assert_eq!(v.to_text(Dialect::Godot4), "Vector2(0.5, 2)");
/// ```
pub trait Formatter {
    /// A 32-bit float: a math type's or a color's component, a `PackedFloat32Array` (or
    /// packed vector or color) element. `shortest` is the crate's own text of it.
    fn f32(&mut self, out: &mut dyn fmt::Write, x: f32, shortest: &str) -> fmt::Result {
        let _ = x;
        out.write_str(shortest)
    }

    /// A double: a FLOAT (`float`: its text must read back as a float, so the crate's
    /// `shortest` ends in `.0` where it has no `.` or exponent) or a `PackedFloat64Array`
    /// element (`float` false). `x` is the value itself; `shortest` is the crate's text of
    /// it as `var_to_str` prints it (in Godot 3, through the engine's 32-bit `real_t`: a
    /// FLOAT beyond the `f32` range prints as `inf`).
    fn f64(
        &mut self,
        out: &mut dyn fmt::Write,
        x: f64,
        shortest: &str,
        float: bool,
    ) -> fmt::Result {
        let _ = (x, float);
        out.write_str(shortest)
    }

    /// An [`Object`] in a form of its own: `Ok(true)` when written, `Ok(false)` to print
    /// it as `Object(Class,"property":value,...)`.
    fn object(&mut self, out: &mut dyn fmt::Write, object: &Object) -> Result<bool, fmt::Error> {
        let _ = (out, object);
        Ok(false)
    }

    /// A typed container's [`ElementType::Script`] in a form of its own: `Ok(true)` when
    /// written, `Ok(false)` for `Resource("path")`.
    fn script_type(&mut self, out: &mut dyn fmt::Write, path: &str) -> Result<bool, fmt::Error> {
        let _ = (out, path);
        Ok(false)
    }

    /// A whole `PackedByteArray(...)` in a form of its own (base64): `Ok(true)` when
    /// written, `Ok(false)` for the list of numbers.
    fn packed_bytes(&mut self, out: &mut dyn fmt::Write, bytes: &[u8]) -> Result<bool, fmt::Error> {
        let _ = (out, bytes);
        Ok(false)
    }
}

/// The hooks that change nothing: the plain text form of `str.parse::<Variant>()` and
/// `Variant::to_text`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl ParseHook for Plain {}
impl Formatter for Plain {}
