//! IMAGE and INPUT_EVENT: the two types only Godot 2 sends.
//!
//! - IMAGE: u32 format (below `Image::FORMAT_MAX`, 23, else refused), u32 mipmap count,
//!   u32 width, u32 height, then the data as a byte array (u32 count, bytes, padding that
//!   need not be present).
//! - INPUT_EVENT: u32 event type, u32 device, a u32 payload length, then the words the
//!   event type carries (see [`InputEvent`]). The engine ignores the length word except to
//!   tell the two JOYSTICK_MOTION forms apart: 16 without the axis value, 20 with it.

use super::reader::Reader;
use super::trace::Value;
use super::writer::Put;
use super::{header, packed, Ctx};
use crate::dialect::VariantType;
use crate::error::{ErrorKind, Result};
use crate::types::godot2::{Image, InputEvent};

fn word(r: &mut Reader<'_>, label: &'static str) -> Result<u32> {
    let at = r.pos();
    let v = r.u32()?;
    r.note(at, label, || Value::Int(v.into()));
    Ok(v)
}

/// An IMAGE payload.
pub(crate) fn read_image<'de>(r: &mut Reader<'de>) -> Result<(Image, &'de [u8])> {
    let at = r.pos();
    let format = word(r, "format")?;
    if format >= Image::FORMAT_MAX {
        return Err(r.error_at(ErrorKind::InvalidData("Image format past FORMAT_MAX"), at));
    }
    let mipmaps = word(r, "mipmaps")?;
    let width = word(r, "width")?;
    let height = word(r, "height")?;
    let data = packed::read_bytes(r)?;
    Ok((
        Image {
            format,
            mipmaps,
            width,
            height,
            data: Vec::new(),
        },
        data,
    ))
}

/// A whole IMAGE packet.
pub(crate) fn write_image(out: &mut Vec<u8>, ctx: &Ctx, image: &Image) -> Result<()> {
    if image.format >= Image::FORMAT_MAX {
        return Err(ErrorKind::Unsupported("an Image format at or past FORMAT_MAX".into()).into());
    }
    let len = u32::try_from(image.data.len())
        .ok()
        .filter(|&n| n <= i32::MAX as u32)
        .ok_or(ErrorKind::LengthOutOfRange(image.data.len() as i64))?;
    out.put_u32(header::word(ctx, VariantType::Image, 0)?);
    for w in [image.format, image.mipmaps, image.width, image.height, len] {
        out.put_u32(w);
    }
    out.extend_from_slice(&image.data);
    out.put_zeros(super::reader::pad_len(image.data.len()));
    Ok(())
}

/// An INPUT_EVENT payload.
pub(crate) fn read_input_event(r: &mut Reader<'_>) -> Result<InputEvent> {
    let event_type = word(r, "event type")?;
    let device = word(r, "device")?;
    let length = word(r, "length")?;
    let words = InputEvent::extra_words(event_type, length == 20);
    let mut extra = Vec::with_capacity(words);
    for _ in 0..words {
        extra.push(word(r, "extra")?);
    }
    Ok(InputEvent {
        event_type,
        device,
        extra,
    })
}

/// A whole INPUT_EVENT packet.
pub(crate) fn write_input_event(out: &mut Vec<u8>, ctx: &Ctx, event: &InputEvent) -> Result<()> {
    let words = event.extra.len();
    if InputEvent::extra_words(event.event_type, words == 2) != words {
        return Err(ErrorKind::Unsupported(
            "an InputEvent whose extra words do not fit its type".into(),
        )
        .into());
    }
    out.put_u32(header::word(ctx, VariantType::InputEvent, 0)?);
    out.put_u32(event.event_type);
    out.put_u32(event.device);
    out.put_u32(12 + 4 * words as u32);
    for w in &event.extra {
        out.put_u32(*w);
    }
    Ok(())
}
