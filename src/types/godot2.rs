//! The two types only Godot 2 sends: `Image` and `InputEvent`.

use serde_derive::{Deserialize, Serialize};

/// A Godot 2 `Image`: format, mipmap count, size and raw data (wire layout in
/// `packet::godot2`).
///
/// Data, not pixels: the bytes are kept as sent so that the packet re-encodes identically.
/// `format` is the engine's `Image::Format` (0 = grayscale ... 22 = custom); decoding
/// refuses 23 and above, as the engine does.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::Image")]
pub struct Image {
    /// `Image::Format`.
    pub format: u32,
    /// Number of mipmaps (0 = none).
    pub mipmaps: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The image data.
    #[serde(with = "serde_bytes")]
    pub data: Vec<u8>,
}

/// A Godot 2 `InputEvent` (wire layout in `packet::godot2`): its type, device and the extra words that type
/// carries, as raw 32-bit values.
///
/// | `event_type` | `extra` |
/// |---|---|
/// | 1 KEY | modifier mask (Shift `1<<25`, Alt `1<<26`, Meta `1<<27`, Ctrl `1<<28`), scancode |
/// | 3 MOUSE_BUTTON | button index |
/// | 4 JOYSTICK_MOTION | axis, and in 2.1 the axis value as `f32::to_bits` |
/// | 5 JOYSTICK_BUTTON | button index |
/// | 6 SCREEN_TOUCH | touch index |
/// | others | nothing |
///
/// The type numbers follow 2.1's `InputEvent::Type` (from the engine's source; no Godot 2
/// engine runs in the tests).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::InputEvent")]
pub struct InputEvent {
    /// `InputEvent::Type`.
    pub event_type: u32,
    /// The device id.
    pub device: u32,
    /// The words this type carries (see the table).
    pub extra: Vec<u32>,
}

impl Image {
    /// `Image::FORMAT_MAX` of Godot 2.x (`core/image.h`): formats are below it.
    pub const FORMAT_MAX: u32 = 23;
}

impl InputEvent {
    /// How many extra words an event of `event_type` carries; `long_joystick` says whether a
    /// JOYSTICK_MOTION event also carries its axis value (payload length 20, not 16).
    pub(crate) fn extra_words(event_type: u32, long_joystick: bool) -> usize {
        match event_type {
            1 => 2,
            4 if long_joystick => 2,
            3..=6 => 1,
            _ => 0,
        }
    }
}
