//! Containers: arrays, dictionaries, objects and typed containers (`Array[int]([...])`,
//! `Dictionary[K, V]({...})`), parsed with an explicit stack of open frames rather than by
//! recursion, so no text can overflow the call stack; [`MAX_DEPTH`] bounds the nesting.
//! A value that is not a container is handed to [`construct`](super::construct) by its
//! identifier. Also here: the element types of typed containers, and what an
//! `Object(...)` becomes.

use super::lexer::{Tok, Token};
use super::{ParseError, Parser};
use crate::config::MAX_DEPTH;
use crate::dialect::VariantType;
use crate::types::names::StringName;
use crate::types::object::ObjectId;
use crate::variant::Object;
use crate::variant::{Array, Dictionary, ElementType, Variant};
use std::collections::HashMap;

/// A container being parsed.
enum Frame {
    Array {
        open: usize,
        items: Vec<Variant>,
        /// `Some` for `Array[T]([...])`, which ends with one more `)`.
        element_type: Option<ElementType>,
        /// `PackedTypedArray[T]([...])` (Pandemonium 5).
        packed: bool,
    },
    Dictionary {
        open: usize,
        entries: Vec<(Variant, Variant)>,
        /// Entry indices by key fingerprint, to find repeated keys quickly.
        index: HashMap<u64, Vec<usize>>,
        /// The key read, while its value is being parsed.
        key: Option<Variant>,
        /// `Some` for `Dictionary[K, V]({...})`.
        types: Option<(ElementType, ElementType)>,
    },
    Object {
        open: usize,
        class_name: String,
        properties: Vec<(String, Variant)>,
        /// The property name read, while its value is being parsed.
        name: String,
    },
}

impl Frame {
    fn array(open: usize, element_type: Option<ElementType>) -> Frame {
        Frame::Array {
            open,
            items: Vec::new(),
            element_type,
            packed: false,
        }
    }

    /// The token that closes this container.
    fn closer(&self) -> Tok {
        match self {
            Frame::Array { .. } => Tok::BracketClose,
            Frame::Dictionary { .. } => Tok::CurlyClose,
            Frame::Object { .. } => Tok::ParenClose,
        }
    }

    fn dictionary(open: usize, types: Option<(ElementType, ElementType)>) -> Frame {
        Frame::Dictionary {
            open,
            entries: Vec::new(),
            index: HashMap::new(),
            key: None,
            types,
        }
    }
}

/// What the parser does next.
enum Step {
    /// Parse the value that starts with this token.
    Start(Token),
    /// The top frame expects an element or its closing bracket.
    ElementOrClose,
    /// A value is complete: add it to the top frame, or return it.
    Done(Variant),
}

impl Parser<'_> {
    /// Parses the value that starts with `first`. Containers are parsed with an explicit
    /// stack of open frames rather than by recursion, so no text can overflow the call
    /// stack; [`MAX_DEPTH`] bounds the nesting.
    pub(super) fn value(&mut self, first: Token) -> Result<Variant, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut step = Step::Start(first);
        loop {
            step = match step {
                Step::Start(tok) => self.start(tok, &mut stack)?,
                Step::ElementOrClose => {
                    let tok = self.next()?;
                    let Some(top) = stack.last_mut() else {
                        return Err(self.error_at(tok.start, "internal: no open container"));
                    };
                    match (top, tok.kind) {
                        (frame, kind) if kind == frame.closer() => {
                            Step::Done(self.close(&mut stack)?)
                        }
                        (frame, Tok::Eof) => return Err(self.unterminated(frame)),
                        (Frame::Object { name, .. }, Tok::Str(s)) => {
                            *name = s;
                            self.expect(Tok::Colon, "':' after a property name")?;
                            Step::Start(self.next()?)
                        }
                        (Frame::Object { .. }, other) => {
                            return Err(self.error_at(
                                tok.start,
                                format!(
                                    "expected a property name string, found {}",
                                    other.describe()
                                ),
                            ))
                        }
                        (_, kind) => Step::Start(Token {
                            kind,
                            start: tok.start,
                        }),
                    }
                }
                Step::Done(v) => {
                    let Some(top) = stack.last_mut() else {
                        return Ok(v);
                    };
                    match top {
                        Frame::Array { items, .. } => items.push(v),
                        Frame::Dictionary {
                            key: key @ None, ..
                        } => {
                            *key = Some(v);
                            self.expect(Tok::Colon, "':' after a dictionary key")?;
                            step = Step::Start(self.next()?);
                            continue;
                        }
                        Frame::Dictionary {
                            key,
                            entries,
                            index,
                            ..
                        } => {
                            let key = key.take().unwrap_or_default();
                            // A repeated key replaces the earlier value in its place, as the
                            // engine's assignment does.
                            let slot = index.entry(fingerprint(&key)).or_default();
                            match slot.iter().find(|&&i| entries[i].0 == key) {
                                Some(&i) => entries[i].1 = v,
                                None => {
                                    slot.push(entries.len());
                                    entries.push((key, v));
                                }
                            }
                        }
                        Frame::Object {
                            name, properties, ..
                        } => properties.push((std::mem::take(name), v)),
                    }
                    // After an element: a comma (then maybe the closer: trailing commas
                    // are allowed) or the closer.
                    let sep = self.next()?;
                    let Some(top) = stack.last() else {
                        return Err(self.error_at(sep.start, "internal: no open container"));
                    };
                    match (top, sep.kind) {
                        (_, Tok::Comma) => Step::ElementOrClose,
                        (frame, kind) if kind == frame.closer() => {
                            Step::Done(self.close(&mut stack)?)
                        }
                        (frame, Tok::Eof) => return Err(self.unterminated(frame)),
                        (frame, other) => {
                            let closer = frame.closer().describe();
                            return Err(self.error_at(
                                sep.start,
                                format!("expected ',' or {closer}, found {}", other.describe()),
                            ));
                        }
                    }
                }
            };
        }
    }

    fn unterminated(&self, frame: &Frame) -> ParseError {
        match frame {
            Frame::Array { open, .. } => self.error_at(*open, "unterminated array"),
            Frame::Dictionary { open, .. } => self.error_at(*open, "unterminated dictionary"),
            Frame::Object { open, .. } => self.error_at(*open, "unterminated Object(...)"),
        }
    }

    fn push(&self, stack: &mut Vec<Frame>, frame: Frame, at: usize) -> Result<Step, ParseError> {
        if stack.len() >= MAX_DEPTH {
            return Err(self.error_at(at, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        stack.push(frame);
        Ok(Step::ElementOrClose)
    }

    /// Begins the value at `tok`: a whole leaf, or a container frame pushed on `stack`.
    fn start(&mut self, tok: Token, stack: &mut Vec<Frame>) -> Result<Step, ParseError> {
        let at = tok.start;
        let id = match tok.kind {
            Tok::BracketOpen => return self.push(stack, Frame::array(at, None), at),
            Tok::CurlyOpen => return self.push(stack, Frame::dictionary(at, None), at),
            Tok::Str(s) => return Ok(Step::Done(Variant::String(s))),
            Tok::StrName(s) => return Ok(Step::Done(Variant::StringName(StringName(s)))),
            Tok::Int(i) => return Ok(Step::Done(Variant::Int(i))),
            Tok::Float(x) => return Ok(Step::Done(Variant::Float(x))),
            Tok::Ident(id) => id,
            _ => return Err(self.expected("a value", &tok)),
        };
        match id.as_str() {
            "Array" | "PackedTypedArray" => {
                self.expect(Tok::BracketOpen, "'[' after the type")?;
                let element_type = self.element_type()?;
                self.expect(Tok::BracketClose, "']'")?;
                self.expect(Tok::ParenOpen, "'('")?;
                let open = self.expect(Tok::BracketOpen, "'['")?;
                let mut frame = Frame::array(open.start, Some(element_type));
                if let Frame::Array { packed, .. } = &mut frame {
                    *packed = id == "PackedTypedArray";
                }
                self.push(stack, frame, at)
            }
            "Dictionary" => {
                self.expect(Tok::BracketOpen, "'[' after Dictionary")?;
                let key_type = self.element_type()?;
                self.expect(Tok::Comma, "','")?;
                let value_type = self.element_type()?;
                self.expect(Tok::BracketClose, "']'")?;
                self.expect(Tok::ParenOpen, "'('")?;
                let open = self.expect(Tok::CurlyOpen, "'{'")?;
                self.push(
                    stack,
                    Frame::dictionary(open.start, Some((key_type, value_type))),
                    at,
                )
            }
            "Object" => {
                self.expect(Tok::ParenOpen, "'(' after Object")?;
                let tok = self.next()?;
                let Tok::Ident(class_name) = tok.kind else {
                    return Err(self.error_at(tok.start, "expected the object's class name"));
                };
                let frame = Frame::Object {
                    open: at,
                    class_name,
                    properties: Vec::new(),
                    name: String::new(),
                };
                if self.comma_or_paren()? {
                    self.push(stack, frame, at)
                } else {
                    stack.push(frame);
                    Ok(Step::Done(self.close(stack)?))
                }
            }
            _ => Ok(Step::Done(self.identifier(&id, at)?)),
        }
    }

    /// Pops the finished frame off `stack` and makes its value, reading the `)` that
    /// closes a typed container.
    fn close(&mut self, stack: &mut Vec<Frame>) -> Result<Variant, ParseError> {
        let Some(frame) = stack.pop() else {
            return Err(self.error_at(self.pos, "internal: no open container"));
        };
        Ok(match frame {
            Frame::Array {
                mut items,
                element_type,
                packed,
                ..
            } => {
                // Text gives no count ahead of the elements: the room the Vec grew beyond
                // them goes back, so that nested arrays (`[[[]]]`, a 72-byte Variant
                // each, four slots after the first push) cost memory in proportion to
                // their text.
                items.shrink_to_fit();
                let mut array = Array::from(items);
                if let Some(t) = element_type {
                    self.expect(Tok::ParenClose, "')' after a typed Array")?;
                    array.element_type = t;
                }
                if packed {
                    Variant::PackedTypedArray(array)
                } else {
                    Variant::Array(array)
                }
            }
            Frame::Dictionary { entries, types, .. } => {
                let mut dict = Dictionary::from(entries);
                if let Some((k, v)) = types {
                    self.expect(Tok::ParenClose, "')' after a typed Dictionary")?;
                    dict.set_types(k, v);
                }
                Variant::Dictionary(dict)
            }
            Frame::Object {
                class_name,
                properties,
                ..
            } => object_value(class_name, properties),
        })
    }

    /// The type inside `Array[...]` or `Dictionary[...]`: a builtin type name, `Variant`
    /// (untyped), a class name, or `Resource("res://script.gd")`.
    fn element_type(&mut self) -> Result<ElementType, ParseError> {
        let tok = self.next()?;
        let Tok::Ident(name) = tok.kind else {
            return Err(self.expected("a type name", &tok));
        };
        if name == "Variant" {
            return Ok(ElementType::Untyped);
        }
        // A call: a script by path, or by what the hook knows (a file's reference).
        let save = self.pos;
        if self.next()?.kind != Tok::ParenOpen {
            // `Array[Resource]`: the class.
            self.pos = save;
            return Ok(match builtin_type(&name) {
                Some(ty) => ElementType::Builtin(ty),
                None => ElementType::ClassName(name),
            });
        }
        if name == "Resource" {
            // `Resource("res://x.gd")` or, with a uid, `Resource("uid://...", "res://x.gd")`.
            let paths = self.paren_items(false, |p, t| match t.kind {
                Tok::Str(s) => Ok(s),
                _ => Err(p.expected("a path string", &t)),
            })?;
            let path = paths
                .iter()
                .find(|p| !p.starts_with("uid://"))
                .or(paths.first())
                .cloned()
                .unwrap_or_default();
            return Ok(ElementType::Script(path));
        }
        let args = self.call_args(tok.start)?;
        match self.hook.type_call(&name, args) {
            Ok(Some(t)) => Ok(t),
            Ok(None) => Err(self.error_at(tok.start, format!("unknown type '{name}(...)'"))),
            Err(message) => Err(self.error_at(tok.start, message)),
        }
    }
}

/// An `Object(...)` read from text: `EncodedObjectAsID` with an `object_id` (and at most
/// a null `script`) becomes [`Variant::ObjectId`].
fn object_value(class_name: String, properties: Vec<(String, Variant)>) -> Variant {
    if class_name == "EncodedObjectAsID" {
        let id = properties
            .iter()
            .find(|(k, _)| k == "object_id")
            .map(|(_, v)| v);
        let rest_is_empty = properties
            .iter()
            .all(|(k, v)| k == "object_id" || (k == "script" && v.is_nil()));
        if let (Some(Variant::Int(id)), true) = (id, rest_is_empty) {
            return Variant::ObjectId(ObjectId(*id as u64));
        }
    }
    Variant::Object(Object {
        class_name,
        properties,
    })
}

/// The builtin type with this Godot 4 name (`int`, `String`, `PackedVector3Array`...).
fn builtin_type(name: &str) -> Option<VariantType> {
    VariantType::ALL.iter().copied().find(|t| t.name() == name)
}

/// A cheap hash of a dictionary key, for finding repeated keys without comparing every
/// pair. Keys of the same fingerprint are compared with `==`.
fn fingerprint(v: &Variant) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::mem::discriminant(v).hash(&mut h);
    match v {
        Variant::Bool(b) => b.hash(&mut h),
        Variant::Int(i) => i.hash(&mut h),
        Variant::Float(x) => x.to_bits().hash(&mut h),
        Variant::String(s) => s.hash(&mut h),
        Variant::StringName(s) => s.hash(&mut h),
        Variant::NodePath(p) => p.hash(&mut h),
        Variant::Vector2i(p) => (p.x, p.y).hash(&mut h),
        Variant::Vector3i(p) => (p.x, p.y, p.z).hash(&mut h),
        Variant::Vector2(p) => (p.x.to_bits(), p.y.to_bits()).hash(&mut h),
        Variant::Vector3(p) => (p.x.to_bits(), p.y.to_bits(), p.z.to_bits()).hash(&mut h),
        _ => {}
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_name_is_found() {
        for ty in &VariantType::ALL {
            assert_eq!(builtin_type(ty.name()), Some(*ty));
        }
        assert_eq!(builtin_type("Node"), None);
    }
}
