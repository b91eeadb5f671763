//! `project.binary`: the project settings an export writes into a game's pack, in place of
//! `project.godot` (`ProjectSettings.save_custom("*.binary")` writes one too).
//!
//! The layout (both engines): `"ECFG"`, a u32 count, then per setting a u32 length and the
//! key's UTF-8 (`application/config/name`: the text form's section, `/`, its key; keys of
//! no section bare), a u32 length and the value as a Variant packet (objects allowed), all
//! little-endian.

use crate::error::{Error, ErrorKind, Result};
use crate::resource::config::ConfigFile;
use godot_bin::{Config, Variant};

/// A `project.binary`: its settings in the file's order, each a key and a value, written
/// back byte for byte when unchanged.
///
/// ```
/// use godot_bin_files::resource::ProjectBinary;
/// use godot_bin::{Config, Dialect, Variant};
/// let mut settings = ProjectBinary::new(Config::new(Dialect::Godot4));
/// settings.set("application/config/name", "My Game");
/// settings.set("config_version", 5);
/// let bytes = settings.to_bytes()?;
/// let back = ProjectBinary::from_bytes(&bytes, &Config::new(Dialect::Godot4))?;
/// assert_eq!(back.get("application/config/name"), Some(&Variant::from("My Game")));
/// assert_eq!(back.to_config().to_string(), "config_version=5\n\n[application]\n\nconfig/name=\"My Game\"\n");
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ProjectBinary {
    config: Config,
    settings: Vec<(String, Variant, Option<Vec<u8>>)>,
}

impl ProjectBinary {
    /// No settings, values to be written in `config`'s dialect.
    pub fn new(config: Config) -> ProjectBinary {
        ProjectBinary {
            config: config.allow_objects(true),
            settings: Vec::new(),
        }
    }

    /// Reads a `project.binary`, its values in `config`'s dialect (Godot 3's packets
    /// for a Godot 3 game). Lengths and the count are checked against the bytes there are.
    pub fn from_bytes(bytes: &[u8], config: &Config) -> Result<ProjectBinary> {
        if bytes.get(..4) != Some(b"ECFG") {
            return Err(Error::at_offset(
                ErrorKind::Corrupt("no ECFG magic: not a project.binary".into()),
                0,
            ));
        }
        let config = config.clone().allow_objects(true);
        let word = |at: usize| -> Result<usize> {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap_or_default()) as usize)
                .ok_or_else(|| Error::at_offset(ErrorKind::UnexpectedEof, bytes.len()))
        };
        let count = word(4)?;
        if count.saturating_mul(8) > bytes.len() - 8 {
            return Err(Error::at_offset(
                ErrorKind::Corrupt(format!(
                    "{count} settings claimed, more than the file holds"
                )),
                4,
            ));
        }
        let mut settings = Vec::with_capacity(count);
        let mut at = 8;
        for _ in 0..count {
            let len = word(at)?;
            let key = bytes
                .get(at + 4..(at + 4).saturating_add(len))
                .ok_or_else(|| Error::at_offset(ErrorKind::UnexpectedEof, bytes.len()))?;
            at += 4 + len;
            let vlen = word(at)?;
            let packet = bytes
                .get(at + 4..(at + 4).saturating_add(vlen))
                .ok_or_else(|| Error::at_offset(ErrorKind::UnexpectedEof, bytes.len()))?;
            let value: Variant = config
                .from_slice(packet)
                .map_err(|e| Error::from(e).at_byte(at + 4))?;
            settings.push((
                String::from_utf8_lossy(key).into_owned(),
                value,
                Some(packet.to_vec()),
            ));
            at += 4 + vlen;
        }
        Ok(ProjectBinary { config, settings })
    }

    /// The file's bytes: a setting left alone keeps its packet as read.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = b"ECFG".to_vec();
        out.extend_from_slice(&(self.settings.len() as u32).to_le_bytes());
        for (key, value, packet) in &self.settings {
            out.extend_from_slice(&(key.len() as u32).to_le_bytes());
            out.extend_from_slice(key.as_bytes());
            let fresh;
            let packet = match packet {
                Some(p) => p,
                None => {
                    fresh = self.config.to_vec(value)?;
                    &fresh
                }
            };
            out.extend_from_slice(&(packet.len() as u32).to_le_bytes());
            out.extend_from_slice(packet);
        }
        Ok(out)
    }

    /// The `Config` its values are read and written with (their dialect).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The settings, in the file's order.
    pub fn settings(&self) -> impl Iterator<Item = (&str, &Variant)> {
        self.settings.iter().map(|(k, v, _)| (k.as_str(), v))
    }

    /// The value of `key` (`application/config/name`).
    pub fn get(&self, key: &str) -> Option<&Variant> {
        self.settings
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, _)| v)
    }

    /// Sets `key` to `value` (added at the end if new).
    pub fn set(&mut self, key: &str, value: impl Into<Variant>) {
        let value = value.into();
        match self.settings.iter_mut().rev().find(|(k, _, _)| k == key) {
            Some(slot) => {
                slot.1 = value;
                slot.2 = None;
            }
            None => self.settings.push((key.to_string(), value, None)),
        }
    }

    /// The settings as the text `project.godot` would hold them: each key's part before
    /// the first `/` is its section (keys without one come first, in no section).
    pub fn to_config(&self) -> ConfigFile {
        let mut cfg = ConfigFile::new();
        cfg.set_dialect(self.config.dialect());
        for (key, value, _) in self.settings.iter().filter(|(k, _, _)| !k.contains('/')) {
            cfg.set("", key, value.clone());
        }
        for (key, value, _) in &self.settings {
            if let Some((section, rest)) = key.split_once('/') {
                cfg.set(section, rest, value.clone());
            }
        }
        cfg
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use godot_bin::Dialect;

    #[test]
    fn counts_and_lengths_that_lie_are_refused() {
        let cfg = Config::new(Dialect::Godot4);
        let mut b = b"ECFG".to_vec();
        b.extend_from_slice(&u32::MAX.to_le_bytes());
        let err = ProjectBinary::from_bytes(&b, &cfg).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Corrupt(_)), "{err}");
        let mut good = ProjectBinary::new(cfg.clone());
        good.set("a/b", 1);
        let bytes = good.to_bytes().unwrap();
        for cut in 0..bytes.len() {
            assert!(
                ProjectBinary::from_bytes(&bytes[..cut], &cfg).is_err(),
                "cut at {cut}"
            );
        }
        let mut long = bytes.clone();
        long[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(ProjectBinary::from_bytes(&long, &cfg).is_err());
    }
}
