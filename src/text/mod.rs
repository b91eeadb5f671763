//! The engine's own text form of a [`Variant`]: what GDScript's `var_to_str` prints in
//! Godot 4 (`var2str` in Godot 3 and Pandemonium) and what `str_to_var` (`str2var`) reads.
//!
//! [`Variant`] implements [`Display`](fmt::Display) with the Godot 4 text and
//! [`FromStr`](std::str::FromStr) with a parser that reads the text of every dialect:
//!
//! ```
//! use godot_bin::{Dialect, Variant, Vector2};
//!
//! let v = Variant::from(vec![Variant::from(1), Variant::from(Vector2::new(1.5, -2.0))]);
//! assert_eq!(v.to_string(), "[1, Vector2(1.5, -2)]");
//! assert_eq!(v.to_text(Dialect::Godot3), "[ 1, Vector2( 1.5, -2 ) ]");
//!
//! let back: Variant = "[ 1, Vector2( 1.5, -2 ) ]".parse()?;
//! assert_eq!(back, v);
//! # Ok::<(), godot_bin::text::ParseError>(())
//! ```
//!
//! For another engine's text, use [`Variant::to_text`] or the [`Text`] wrapper, which
//! implements `Display` and so works in `format!` and `println!` without building a
//! `String` first:
//!
//! ```
//! use godot_bin::{Dialect, Quaternion, Variant};
//! let q = Variant::from(Quaternion::new(0.0, 0.0, 0.0, 1.0));
//! assert_eq!(format!("{}", q.text(Dialect::Godot3)), "Quat( 0, 0, 0, 1 )");
//! assert_eq!(format!("{}", q.text(Dialect::Pandemonium)), "Quaternion( 0, 0, 0, 1 )");
//! assert_eq!(format!("{q}"), "Quaternion(0, 0, 0, 1)");
//! ```
//!
//! # What each dialect prints
//!
//! | | Godot 4 (default) | Godot 3 | Pandemonium |
//! |---|---|---|---|
//! | math types | `Vector2(1.5, -2)` | `Vector2( 1.5, -2 )` | `Vector2( 1.5, -2 )`, but `Projection(1, 0, ...)` |
//! | arrays | `[1, "x"]`, `[]`, `Array[int]([1, 2])` | `[ 1, "x" ]`, `[  ]` | as Godot 3 |
//! | dictionaries | `{\n"a": 1\n}`, `{}`, `Dictionary[String, int]({...})` | `{\n"a": 1\n}`, `{\n\n}` | `{\n"a": 1\n}`, `{\n}` |
//! | packed arrays | `PackedInt32Array(1, -2)` | `PoolIntArray( 1, -2 )` | as Godot 3, plus `PoolVector2iArray( ... )` ... |
//! | StringName | `&"name"` | (none; printed `&"name"`) | `@"name"` |
//! | renamed types | `Quaternion`, `Transform3D` | `Quat`, `Transform` | `Quaternion`, `Transform` |
//! | RID | `RID()`, `RID(5)` | nothing (the engine prints an empty text) | nothing |
//! | -inf | `inf_neg` | `-inf` (a FLOAT: `-inf.0`) | `inf_neg` |
//! | NaN with its sign bit set | `nan` | `-nan` (a FLOAT: `-nan.0`) | `nan` |
//!
//! Godot 2 text is the Godot 3 form with the Godot 2 names (`Matrix32`, `Matrix3`,
//! `RawArray`, `IntArray`, `RealArray`, ...). A type the chosen engine lacks (a `Vector2i`
//! in Godot 3 text) keeps its Godot 4 name, in that engine's spacing; a typed Array or
//! Dictionary prints as a plain one in engines without typed containers.
//!
//! As the engines do:
//! * Dictionary keys are printed in the engine's order: the engines sort the key list with
//!   their own sort and comparison (by type id, then by the type's `<` where it has one;
//!   String and StringName keys by their text in Godot 4), and where the comparison says
//!   nothing (Color, NodePath or Callable keys, NaN...) the order is whatever the engine's
//!   sort leaves of the packet's order, which this crate reproduces step by step. So text
//!   made from a Dictionary may list its entries in another order than the packet. Two
//!   orders cannot be reproduced, since the engine compares memory addresses there:
//!   StringName keys inside Array keys (Godot 4) and object keys (Godot 3). Parsing keeps
//!   the order of the text.
//! * Strings escape only `"` and `\` (a newline is printed as a newline); StringName,
//!   NodePath and PackedStringArray elements use C escapes (`\n`, `\t`, `\'`, ... and, in
//!   Godot 3 and Pandemonium, `\?`).
//! * An Object prints as `Object(Class,"property":value,...)` followed by a newline; an
//!   object sent as its id prints as the engine's `EncodedObjectAsID` object, and id 0
//!   (a null object) as `null`.
//! * `Callable()` and `Signal()` print empty: the engine stores neither in text.
//!
//! Unlike the engines, this crate prints everything, however deep: Godot 4's writer prints
//! an Array nested more than 100 levels deep as `[]`, a Dictionary as `{}` and an Object as
//! `null` (and logs "Max recursion reached"), which loses data; Godot 3.2's prints all.
//!
//! # Floats
//!
//! The engines print floats with 6 significant digits (`%g`), so `0.1 + 0.2` reads back as
//! a different number. This crate prints the **shortest** decimal text that reads back to
//! exactly the same float, in the engine's layout otherwise:
//! * a FLOAT (a double) prints with the shortest digits of the `f64`, and always shows it
//!   is a float: `1.0`, `0.0`, `-2.5`, `0.30000000000000004`, `1e+300`;
//! * components of vectors, matrices, colors and the 32-bit packed arrays are `f32` and
//!   print with the shortest digits of the `f32`, without a forced `.0`: `Vector2(1, 0.1)`;
//! * exponents appear as in C's `%g` (`1e-05`, `1.5e+20`): when the exponent is below -4,
//!   or at least max(6, number of digits);
//! * `inf`, `nan`, and `inf_neg` (Godot 4, Pandemonium) or `-inf` (Godot 3 and 2); a NaN
//!   whose sign bit is set prints `nan` in Godot 4 and Pandemonium but `-nan` in Godot 3
//!   and 2, whose numbers go through C's `printf`. Godot 3's `var2str` appends `.0` to a
//!   FLOAT's `-inf` and `-nan` (`-inf.0`, `-nan.0`), never to `inf` and `nan`, and so
//!   does this crate (Godot 3.2.3's own `str2var` reads all four as the int 0; this
//!   crate's parser reads them back);
//! * `-0.0` keeps its sign (`-0.0`, `-0`), where the engines print `0`;
//! * Godot 3 and Pandemonium (and Godot 2) print a FLOAT through their 32-bit `real_t`:
//!   this crate prints the double's own digits in every dialect, except that a FLOAT
//!   beyond the `f32` range prints there as the infinity it becomes, as those engines print
//!   it (`1e300` as `inf`, `-1e300` as `-inf.0` in Godot 3 and `inf_neg` in Pandemonium;
//!   `1e+300` in Godot 4 text).
//!
//! Every value from a packet therefore survives Variant → text → Variant unchanged (NaN
//! payloads aside), except what the engines' text cannot say: an RID in Godot 3 and
//! Pandemonium text, a FLOAT beyond the `f32` range in Godot 3, Godot 2 and Pandemonium
//! text (read back as an infinity), the contents of a Callable or Signal, an object id 0
//! (read back as `null`), typed-container types in engines without them, and the device and
//! event details of a Godot 2 `InputEvent`. Where every float has 6 or fewer significant
//! digits (and, in Godot 3 and Pandemonium, a FLOAT is an `f32` or beyond the `f32`
//! range), the text is the engine's own, character for character: that holds for 162 of
//! the 167 engine-made golden rows (the rest are rounded floats, and two rows whose packet
//! is not the printed value).
//!
//! # Parsing
//!
//! [`Variant::from_str`](std::str::FromStr::from_str) (or [`Variant::from_text`]) reads
//! the text of any dialect: spaces do not matter, every engine's type names are accepted
//! (`Quat` and `Quaternion`, `PoolIntArray` and `PackedInt32Array`...), as are `&"..."`
//! and `@"..."` StringNames, `inf_neg`, `-inf`, `-nan` (with or without `.0`), base64 `PackedByteArray("...")`, typed
//! containers, `Object(...)` and `;` comments. Escapes are read as both engines read them:
//! `\a` and `\v` are the letters (the engines' writers print BEL and VT so, and read them
//! back as letters); Godot 4's six-digit `\U` is read in every dialect, where Godot 3.2.3
//! reads `\U01F600` as `U01F600` (its writer never writes one). A parse error carries the byte offset, line
//! and column ([`ParseError`]). Nesting is limited to [`MAX_DEPTH`](crate::MAX_DEPTH) levels, so hostile text
//! cannot overflow the stack.

mod display;
mod hooks;
mod order;
mod parse;

pub use hooks::{Formatter, ParseHook, Plain};
pub use parse::{word_value, ParseError, MAX_CALL_DEPTH};

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind};
use crate::variant::Variant;
use std::fmt;

/// A [`Variant`] with the dialect to print it in: its `Display` writes that engine's text
/// form. Made by [`Variant::text`].
///
/// ```
/// use godot_bin::{Dialect, PackedInt32Array, Variant};
/// let v = Variant::from(PackedInt32Array::from(vec![1, -2]));
/// assert_eq!(v.text(Dialect::Godot3).to_string(), "PoolIntArray( 1, -2 )");
/// assert_eq!(v.text(Dialect::Godot4).to_string(), "PackedInt32Array(1, -2)");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    /// The value to print.
    pub value: &'a Variant,
    /// Whose text form to print.
    pub dialect: Dialect,
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display::write_variant(f, self.value, self.dialect, &mut Plain)
    }
}

/// Prints the Godot 4 text form (`var_to_str`); see the [module docs](crate::text).
///
/// ```
/// use godot_bin::Variant;
/// assert_eq!(Variant::Float(1.0).to_string(), "1.0");
/// assert_eq!(Variant::from("hi").to_string(), "\"hi\"");
/// assert_eq!(Variant::Nil.to_string(), "null");
/// ```
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display::write_variant(f, self, Dialect::Godot4, &mut Plain)
    }
}

/// Parses the text form of any dialect (`str_to_var`); see the [module docs](crate::text).
///
/// ```
/// use godot_bin::{Variant, Vector3};
/// let v: Variant = "Vector3(1, 2.5, -3)".parse()?;
/// assert_eq!(v, Variant::from(Vector3::new(1.0, 2.5, -3.0)));
/// assert!("Vector3(1, 2".parse::<Variant>().is_err());
/// # Ok::<(), godot_bin::text::ParseError>(())
/// ```
impl std::str::FromStr for Variant {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, ParseError> {
        parse::parse_one(s, &mut Plain)
    }
}

/// One error type, as serde_json has: `?` on a text parse in a function that returns
/// [`godot_bin::Result`](crate::error::Result) gives an
/// [`ErrorKind::Text`](crate::error::ErrorKind::Text) with the line, column and message,
/// and the byte offset as [`Error::offset`].
///
/// ```
/// use godot_bin::{ErrorKind, Variant};
/// fn f(s: &str) -> godot_bin::Result<Variant> {
///     Ok(s.parse::<Variant>()?)
/// }
/// let e = f("[1, ?]").unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Text { line: 1, column: 5, .. }));
/// assert_eq!(e.offset(), Some(4));
/// ```
impl From<ParseError> for Error {
    fn from(e: ParseError) -> Error {
        let kind = ErrorKind::Text {
            line: e.line(),
            column: e.column(),
            message: e.message().to_owned(),
        };
        Error::at(kind, e.offset())
    }
}

/// A `?Sized` hook as a sized one, for the parser's `&mut dyn ParseHook`.
struct Hooked<'h, H: ?Sized>(&'h mut H);

impl<H: ParseHook + ?Sized> ParseHook for Hooked<'_, H> {
    fn call(&mut self, name: &str, args: Vec<Variant>) -> Result<Option<Variant>, String> {
        self.0.call(name, args)
    }
    fn type_call(
        &mut self,
        name: &str,
        args: Vec<Variant>,
    ) -> Result<Option<crate::variant::ElementType>, String> {
        self.0.type_call(name, args)
    }
    fn float(&mut self, token: &str) -> Option<f64> {
        self.0.float(token)
    }
    fn string(&mut self, value: &mut String, raw: &str) {
        self.0.string(value, raw)
    }
}

impl Variant {
    /// This value's text form in `dialect`, as a wrapper that implements `Display`.
    ///
    /// ```
    /// use godot_bin::{Dialect, Variant};
    /// let v = Variant::from(vec![Variant::Nil]);
    /// println!("{}", v.text(Dialect::Godot3)); // [ null ]
    /// ```
    pub fn text(&self, dialect: Dialect) -> Text<'_> {
        Text {
            value: self,
            dialect,
        }
    }

    /// This value's text form in `dialect`: what that engine's `var_to_str` / `var2str`
    /// prints, floats aside (see the [module docs](crate::text#floats)).
    ///
    /// ```
    /// use godot_bin::{Dialect, Dictionary, Variant};
    /// let v = Variant::Dictionary(Dictionary::new());
    /// assert_eq!(v.to_text(Dialect::Godot4), "{}");
    /// assert_eq!(v.to_text(Dialect::Godot3), "{\n\n}");
    /// ```
    pub fn to_text(&self, dialect: Dialect) -> String {
        self.text(dialect).to_string()
    }

    /// Parses one value from its text form in any dialect; the same as `text.parse()`.
    ///
    /// ```
    /// use godot_bin::Variant;
    /// let v = Variant::from_text("{\n\"a\": PoolIntArray( 1, 2 )\n}")?;
    /// assert_eq!(v.get("a").unwrap().to_string(), "PackedInt32Array(1, 2)");
    /// # Ok::<(), godot_bin::text::ParseError>(())
    /// ```
    pub fn from_text(text: &str) -> Result<Variant, ParseError> {
        parse::parse_one(text, &mut Plain)
    }

    /// Parses one value as [`from_text`](Self::from_text) does, with `hook` deciding what
    /// the plain parser cannot: calls it does not know, float and string tokens (see
    /// [`ParseHook`]).
    pub fn from_text_with<H: ParseHook + ?Sized>(
        text: &str,
        hook: &mut H,
    ) -> Result<Variant, ParseError> {
        parse::parse_one(text, &mut Hooked(hook))
    }

    /// This value's text form in `dialect`, with `formatter` deciding what the text form
    /// leaves a choice about (floats, objects, byte arrays; see [`Formatter`]).
    pub fn to_text_with<F: Formatter + ?Sized>(
        &self,
        dialect: Dialect,
        formatter: &mut F,
    ) -> String {
        let mut out = String::new();
        let _ = self.write_text(&mut out, dialect, formatter);
        out
    }

    /// Writes this value's text form in `dialect` to `out`, with `formatter`'s choices (see
    /// [`Formatter`]); [`to_text`](Self::to_text) with [`Plain`].
    pub fn write_text<W: fmt::Write, F: Formatter + ?Sized>(
        &self,
        out: &mut W,
        dialect: Dialect,
        formatter: &mut F,
    ) -> fmt::Result {
        display::write_variant(out, self, dialect, formatter)
    }

    /// Parses the value at the start of `text` and returns it with the rest of the text
    /// (leading whitespace and comments skipped), for reading several values in a row.
    /// Returns `Ok(None)` when only whitespace and comments are left.
    ///
    /// ```
    /// use godot_bin::Variant;
    /// let mut rest = "1 \"two\"\n[3]";
    /// let mut values = Vec::new();
    /// while let Some((v, tail)) = Variant::take_from_text(rest)? {
    ///     values.push(v);
    ///     rest = tail;
    /// }
    /// assert_eq!(values.len(), 3);
    /// # Ok::<(), godot_bin::text::ParseError>(())
    /// ```
    pub fn take_from_text(text: &str) -> Result<Option<(Variant, &str)>, ParseError> {
        parse::parse_prefix(text, &mut Plain)
    }
}
