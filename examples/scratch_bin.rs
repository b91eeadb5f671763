fn main() {
    let path = std::env::args().nth(1).unwrap();
    let d = std::fs::read(path).unwrap();
    let r = godot_bin::resource::BinaryResource::from_bytes(&d).unwrap();
    let w = r.to_bytes().unwrap();
    let at = d
        .iter()
        .zip(&w)
        .position(|(a, b)| a != b)
        .unwrap_or(d.len().min(w.len()));
    println!("len {} vs {}, first difference at {at}", d.len(), w.len());
    let lo = at.saturating_sub(16);
    println!("read : {:02x?}", &d[lo..(at + 24).min(d.len())]);
    println!("wrote: {:02x?}", &w[lo..(at + 24).min(w.len())]);
    let skip: usize = std::env::args().nth(2).map_or(0, |s| s.parse().unwrap());
    let at = d
        .iter()
        .zip(&w)
        .enumerate()
        .skip(skip)
        .position(|(_, (a, b))| a != b)
        .map(|p| p + skip)
        .unwrap_or(0);
    let lo = at.saturating_sub(40);
    println!(
        "after {skip}: at {at}\nread : {:02x?}\nwrote: {:02x?}",
        &d[lo..(at + 24).min(d.len())],
        &w[lo..(at + 24).min(w.len())]
    );
}
