//! The dialect hint: which other dialects decode a value that the configured one does not,
//! tried on the same bytes. The save-file reader (`file::Reader`) and `godot-bin` name them
//! when a value does not decode cleanly, since a packet of one engine often reads as
//! garbage, or fails far from its real mistake, in another's type table.

use crate::config::Config;
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind};
use crate::packet::Decoder;

impl Config {
    /// The dialects other than this one's in which `bytes` are exactly one value, decoded
    /// to their last byte with this configuration's other options, in the order of
    /// [`Dialect::ALL`]. Empty when no other dialect reads them cleanly.
    ///
    /// A value that decodes in the wrong dialect often fails far from its real mistake:
    /// this names the dialect to try instead.
    ///
    /// ```
    /// use godot_bin::{Config, Dialect, ErrorKind, Variant, Vector3};
    ///
    /// // A Godot 3 Vector3 (type 7) reads as a Godot 4 Rect2, four bytes short.
    /// let bytes = Config::new(Dialect::Godot3).to_vec(&Vector3::new(1.0, 2.0, 3.0))?;
    /// let err = godot_bin::from_slice::<Variant>(&bytes).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::UnexpectedEof));
    /// // Godot 3 and Godot 2 both number Vector3 7.
    /// assert_eq!(
    ///     Config::default().dialects_that_decode(&bytes),
    ///     [Dialect::Godot3, Dialect::Godot2]
    /// );
    /// // Nothing to say when the bytes are no value at all.
    /// assert!(Config::default().dialects_that_decode(&[0xff; 4]).is_empty());
    /// # Ok::<(), godot_bin::Error>(())
    /// ```
    pub fn dialects_that_decode(&self, bytes: &[u8]) -> Vec<Dialect> {
        Dialect::ALL
            .into_iter()
            .filter(|&d| d != self.dialect && self.with_dialect(d).decodes_cleanly(bytes))
            .collect()
    }

    /// `error`, from decoding `bytes` with this configuration, as
    /// [`ErrorKind::WrongDialect`] when other dialects decode the bytes cleanly (see
    /// [`dialects_that_decode`](Self::dialects_that_decode)); as it was otherwise. The
    /// offset and path stay.
    ///
    /// ```
    /// use godot_bin::{Config, Dialect, ErrorKind, Variant, Vector3};
    /// let bytes = Config::new(Dialect::Godot3).to_vec(&Vector3::new(1.0, 2.0, 3.0))?;
    /// let cfg = Config::default();
    /// let err = cfg.from_slice::<Variant>(&bytes).unwrap_err();
    /// let err = cfg.hint_dialect(&bytes, err);
    /// assert!(matches!(err.kind(), ErrorKind::WrongDialect { .. }));
    /// assert!(err.to_string().contains("decodes cleanly as Godot 3"));
    /// # Ok::<(), godot_bin::Error>(())
    /// ```
    pub fn hint_dialect(&self, bytes: &[u8], mut error: Error) -> Error {
        if matches!(
            error.kind(),
            ErrorKind::WrongDialect { .. } | ErrorKind::Io(_)
        ) {
            return error;
        }
        // A packet that reads cleanly in this dialect is this dialect's: the error is the
        // Rust type's (a struct that does not fit), not the engine's.
        if self.decodes_cleanly(bytes) {
            return error;
        }
        let decodes_as = self.dialects_that_decode(bytes);
        if decodes_as.is_empty() {
            return error;
        }
        let inner = std::mem::replace(error.kind_mut(), ErrorKind::UnexpectedEof);
        *error.kind_mut() = ErrorKind::WrongDialect {
            dialect: self.dialect,
            error: Box::new(inner),
            decodes_as,
        };
        error
    }

    /// This configuration with another dialect; a depth limit left at the old dialect's
    /// default becomes the new one's.
    pub fn with_dialect(&self, dialect: Dialect) -> Config {
        let mut cfg = self.clone();
        if cfg.max_depth == Config::new(self.dialect).max_depth {
            cfg.max_depth = Config::new(dialect).max_depth;
        }
        cfg.dialect = dialect;
        cfg
    }

    /// Whether `bytes` are exactly one value in this configuration.
    fn decodes_cleanly(&self, bytes: &[u8]) -> bool {
        let Ok(mut d) = Decoder::new(bytes, self) else {
            return false;
        };
        crate::variant::codec::decode(&mut d).is_ok() && d.r.rest().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;

    #[test]
    fn every_dialects_own_packet_is_named_by_the_others() {
        // An Array holding a Dictionary: ids 28 and 27 in Godot 4, 19 and 18 in Godot 3.
        let value = crate::variant::Variant::Array(
            vec![crate::variant::Variant::Dictionary(Default::default())].into(),
        );
        for d in Dialect::ALL {
            let bytes = Config::new(d).to_vec(&value).unwrap();
            for other in Dialect::ALL.into_iter().filter(|&o| o != d) {
                let named = Config::new(other).dialects_that_decode(&bytes);
                assert!(named.contains(&d), "{other} does not name {d}: {named:?}");
                assert!(!named.contains(&other));
            }
        }
    }

    #[test]
    fn a_depth_limit_left_at_its_default_follows_the_dialect() {
        let cfg = Config::new(Dialect::Godot4).with_dialect(Dialect::Godot3);
        assert_eq!(cfg, Config::new(Dialect::Godot3));
        let cfg = Config::new(Dialect::Godot4)
            .max_depth(3)
            .with_dialect(Dialect::Godot3);
        assert_eq!(cfg.max_depth, 3);
    }
}
