//! Godot 2's two types whose text is not a list of numbers: `Image( width, height,
//! mipmaps, FORMAT, bytes... )` (the format by name or number) and
//! `InputEvent( KEY, scancode, mods )` and its other forms. Godot 2 saves and
//! `var2str` output still carry them; Godot 3 and 4 have neither.

use super::lexer::{Tok, Token};
use super::{ParseError, Parser};
use crate::text::display::IMAGE_FORMATS;
use crate::types::godot2::{Image, InputEvent};

impl Parser<'_> {
    /// Godot 2's `Image()` or `Image( width, height, mipmaps, FORMAT, bytes... )`, the
    /// format by name or number.
    pub(super) fn image(&mut self) -> Result<Image, ParseError> {
        self.expect(Tok::ParenOpen, "'(' after Image")?;
        let mut words = [0u32; 3];
        for (i, w) in words.iter_mut().enumerate() {
            let tok = self.next()?;
            match tok.kind {
                Tok::ParenClose if i == 0 => return Ok(Image::default()),
                Tok::Int(n) => {
                    *w =
                        u32::try_from(n).map_err(|_| self.error_at(tok.start, "expected a size"))?
                }
                _ => return Err(self.expected("an integer", &tok)),
            }
            self.expect(Tok::Comma, "','")?;
        }
        let tok = self.next()?;
        let format = match &tok.kind {
            Tok::Ident(name) => IMAGE_FORMATS
                .iter()
                .position(|f| f == name)
                .map(|i| i as u32),
            Tok::Int(n) => u32::try_from(*n).ok(),
            _ => None,
        }
        .ok_or_else(|| self.error_at(tok.start, "expected an image format"))?;
        let mut data = Vec::new();
        while self.comma_or_paren()? {
            let tok = self.next()?;
            match tok.kind {
                Tok::Int(b @ 0..=255) => data.push(b as u8),
                _ => {
                    return Err(
                        self.error_at(tok.start, "an Image byte must be an integer in 0..=255")
                    )
                }
            }
        }
        let [width, height, mipmaps] = words;
        Ok(Image {
            format,
            mipmaps,
            width,
            height,
            data,
        })
    }

    /// Godot 2's `InputEvent(KEY,scancode[,mods])`, `(MBUTTON,n)`, `(JBUTTON,n)`,
    /// `(JAXIS,axis,value)`, `(NONE)` or `()`. The device is not in the text (0).
    pub(super) fn input_event(&mut self) -> Result<InputEvent, ParseError> {
        self.expect(Tok::ParenOpen, "'(' after InputEvent")?;
        let tok = self.next()?;
        let kind = match tok.kind {
            Tok::ParenClose => return Ok(InputEvent::default()),
            Tok::Ident(k) => k,
            _ => return Err(self.expected("an event type", &tok)),
        };
        let mut args = Vec::new();
        while self.comma_or_paren()? {
            args.push(self.next()?);
        }
        let int = |p: &Self, t: &Token| match t.kind {
            Tok::Int(n) => {
                u32::try_from(n).map_err(|_| p.error_at(t.start, "expected a small integer"))
            }
            _ => Err(p.error_at(t.start, "expected an integer")),
        };
        let (event_type, extra) = match (kind.as_str(), args.as_slice()) {
            ("NONE", []) => (0, vec![]),
            ("KEY", [code]) => (1, vec![0, int(self, code)?]),
            ("KEY", [code, mods]) => {
                let Tok::Ident(m) = &mods.kind else {
                    return Err(self.error_at(mods.start, "expected modifier letters (A, S, C, M)"));
                };
                let mut mask = 0u32;
                for c in m.chars() {
                    mask |= match c {
                        'A' => 1 << 26,
                        'S' => 1 << 25,
                        'C' => 1 << 28,
                        'M' => 1 << 27,
                        _ => {
                            return Err(self.error_at(mods.start, format!("unknown modifier {c:?}")))
                        }
                    };
                }
                (1, vec![mask, int(self, code)?])
            }
            ("MBUTTON", [n]) => (3, vec![int(self, n)?]),
            ("JBUTTON", [n]) => (5, vec![int(self, n)?]),
            ("JAXIS", [axis, value]) => {
                let v = match value.kind {
                    Tok::Int(i) => i as f32,
                    Tok::Float(x) => x as f32,
                    _ => return Err(self.error_at(value.start, "expected the axis value")),
                };
                (4, vec![int(self, axis)?, v.to_bits()])
            }
            _ => {
                return Err(self.error_at(tok.start, format!("unknown InputEvent({kind}...) form")))
            }
        };
        Ok(InputEvent {
            event_type,
            device: 0,
            extra,
        })
    }
}
