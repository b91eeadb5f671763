//! Hex text for packets: the tests' one hex helper (golden rows, engine output, messages).

/// Lower-case hex of `bytes`, the same text GDScript's `hex_encode()` prints.
pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of hex text (either case); whitespace anywhere is ignored, so packets can be
/// written a word at a time. `None` on an odd number of digits or a non-hex character.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u32> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(16))
        .collect::<Option<_>>()?;
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    Some(
        digits
            .chunks(2)
            .map(|pair| (pair[0] * 16 + pair[1]) as u8)
            .collect(),
    )
}

/// [`decode`] for hex written in a test: panics, quoting the text, if it is not hex.
pub fn bytes(text: &str) -> Vec<u8> {
    decode(text).unwrap_or_else(|| panic!("not hex: {text:?}"))
}
