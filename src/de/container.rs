//! What comes before an Array's or a Dictionary's elements: the element types each
//! dialect marks its own way, and the count.

use super::{Deserializer, Header};
use crate::dialect::{TypedArrays, VariantType};
use crate::error::{ErrorKind, Result};
use crate::variant::ElementType;
use crate::wire::{COUNT_SHARED, MIN_ENTRY_SIZE};

/// An Array's or Dictionary's element types, count and Godot 2 shared flag.
pub(crate) struct ContainerHead {
    /// The element (Array) or key (Dictionary) type.
    pub first: ElementType,
    /// The value type (Dictionary).
    pub second: ElementType,
    pub count: usize,
    pub shared: bool,
}

impl Deserializer<'_> {
    /// Reads the type data and count after the header `h` of an ARRAY, DICTIONARY or
    /// (Pandemonium 5) TYPED_ARRAY / PACKED_TYPED_ARRAY packet. The count is checked
    /// against the bytes left (every element takes at least 4 bytes) before the caller
    /// allocates anything.
    pub(crate) fn container_head(&mut self, h: &Header) -> Result<ContainerHead> {
        let plain = h.flags == 0 && matches!(h.ty, VariantType::Array | VariantType::Dictionary);
        let (first, second) = match (h.ty, self.spec.typed_arrays) {
            // No header bits: untyped in every dialect (the common case, decided first).
            _ if plain => (ElementType::Untyped, ElementType::Untyped),
            (VariantType::TypedArray | VariantType::PackedTypedArray, _) => {
                (self.own_type_element(h)?, ElementType::Untyped)
            }
            (VariantType::Array, TypedArrays::HeaderBits) => {
                (self.kind_data((h.flags >> 16) & 3)?, ElementType::Untyped)
            }
            (VariantType::Dictionary, _) if self.spec.typed_dictionaries => (
                self.kind_data((h.flags >> 16) & 3)?,
                self.kind_data((h.flags >> 18) & 3)?,
            ),
            _ => (ElementType::Untyped, ElementType::Untyped),
        };
        let raw = self
            .reader
            .rest()
            .get(..4)
            .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        let shared = self.spec.shared_bit && raw & COUNT_SHARED != 0;
        let min_size = if h.ty == VariantType::Dictionary {
            MIN_ENTRY_SIZE
        } else {
            4
        };
        let count = self.reader.container_count(min_size)?;
        Ok(ContainerHead {
            first,
            second,
            count,
            shared,
        })
    }

    /// A type id that must exist in the dialect.
    fn element_type_id(&mut self) -> Result<VariantType> {
        let at = self.reader.pos();
        let id = self.reader.u32()?;
        self.spec.type_of(id).ok_or_else(|| {
            let dialect = self.config.dialect;
            self.reader
                .error_at(ErrorKind::UnknownTypeId { id, dialect }, at)
        })
    }

    /// Godot 4 type data for one kind field (FORMAT.md §2.8): nothing, a builtin type id,
    /// a class name, or a script path. Builtin id 0 is kept as `Builtin(Nil)` so that it
    /// re-encodes as sent (the engine treats it as untyped).
    fn kind_data(&mut self, kind: u32) -> Result<ElementType> {
        Ok(match kind {
            0 => ElementType::Untyped,
            1 => ElementType::Builtin(self.element_type_id()?),
            2 => ElementType::ClassName(self.reader.string()?.to_owned()),
            _ => ElementType::Script(self.reader.string()?.to_owned()),
        })
    }

    /// Pandemonium 5's element type (FORMAT.md §5.3): a type id; for OBJECT, a nested
    /// StringName class name unless header bit 16 marks objects sent as ids.
    fn own_type_element(&mut self, h: &Header) -> Result<ElementType> {
        let ty = self.element_type_id()?;
        if ty != VariantType::Object {
            return Ok(ElementType::Builtin(ty));
        }
        if h.wide() {
            return Ok(ElementType::ClassName("EncodedObjectAsID".into()));
        }
        let class = self.header()?;
        if class.ty != VariantType::StringName {
            return Err(self.mismatch("a StringName class name", &class));
        }
        Ok(ElementType::ClassName(self.reader.string()?.to_owned()))
    }
}
