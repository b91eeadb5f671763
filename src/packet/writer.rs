//! Appending words, strings and padding to an output buffer.

use super::reader::pad_len;

/// Appending little-endian words, strings and padding.
pub(crate) trait Put {
    fn put_u32(&mut self, v: u32);
    fn put_u64(&mut self, v: u64);
    fn put_f32(&mut self, v: f32);
    fn put_f64(&mut self, v: f64);
    fn put_zeros(&mut self, n: usize);
    /// u32 length, the bytes, zero padding to 4.
    fn put_string(&mut self, s: &str);
    /// `PackedStringArray` element: length + 1, the bytes, a NUL, zero padding to 4.
    fn put_packed_string(&mut self, s: &str);
    /// Overwrites the u32 at `at` (a count written before its elements were counted).
    fn patch_u32(&mut self, at: usize, v: u32);
}

impl Put for Vec<u8> {
    #[inline]
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_u64(&mut self, v: u64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_f64(&mut self, v: f64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        self.resize(self.len() + n, 0);
    }
    #[inline]
    fn put_string(&mut self, s: &str) {
        let len = s.len();
        let pad = pad_len(len);
        self.reserve(4 + len + pad);
        self.extend_from_slice(&(len as u32).to_le_bytes());
        self.extend_from_slice(s.as_bytes());
        // A whole zero word cut back to the padding: a fixed-size copy, no memset call.
        self.extend_from_slice(&[0; 4]);
        self.truncate(self.len() - 4 + pad);
    }
    fn put_packed_string(&mut self, s: &str) {
        self.put_u32(s.len() as u32 + 1);
        self.extend_from_slice(s.as_bytes());
        self.put_zeros(1 + pad_len(s.len() + 1));
    }
    #[inline]
    fn patch_u32(&mut self, at: usize, v: u32) {
        self[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_string_writes_len_plus_one_and_nul() {
        let mut out = Vec::new();
        out.put_packed_string("a");
        assert_eq!(out, [2, 0, 0, 0, b'a', 0, 0, 0]);
        out.clear();
        out.put_packed_string("");
        assert_eq!(out, [1, 0, 0, 0, 0, 0, 0, 0]);
    }
}
