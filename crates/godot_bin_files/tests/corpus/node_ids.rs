//! Godot 4.6+ node ids against the files 4.6 and 4.7 editors saved (issue 49 #17): every
//! scene of the corpus that shows 4.6 or later (`unique_id=` on its nodes) is
//!
//! * read to the ids its text holds: each `[node]` line's `unique_id=`, `parent_id_path=`
//!   and `owner_uid_path=`, found by a scan of the raw text that shares no code with the
//!   crate's reader, equal the attributes the crate reads;
//! * written back byte for byte;
//! * taken to binary (bytes, read back): the bundle's `node_ids` are the text's ids, node
//!   by node (0 where a node has none), and every id path of the text is one of the
//!   bundle's `id_paths`;
//! * and back to text: every node keeps its three attributes' text.
//!
//! A binary scene of 4.6+ is read to its bundle's `node_ids` and `id_paths`, written back
//! byte for byte, taken to text (each node's `unique_id=` is its id in the bundle, none
//! where it is 0) and back to binary (the same `node_ids` and `id_paths`). The counts of
//! files and ids checked are printed.

use crate::files::{files, Corpus, Kind};
use crate::table::Table;
use godot_bin::Variant;
use godot_bin_files::resource::EngineVersion;
use godot_bin_files::{BinaryResource, TextResource};
use libtest_mimic::Failed;

const ATTRS: [&str; 3] = ["unique_id", "parent_id_path", "owner_uid_path"];

/// One `[node]` line's id attributes, as the raw text spells them.
#[derive(Debug, Default, PartialEq)]
struct RawIds {
    unique_id: Option<i64>,
    paths: Vec<(&'static str, Vec<i64>)>,
}

/// The value text after ` name=` in a `[node ...]` line: digits (with a sign), or a
/// `PackedInt32Array(...)`'s numbers.
fn raw_attr<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=");
    let at = line.find(&key)? + key.len();
    let rest = &line[at..];
    if let Some(inner) = rest.strip_prefix("PackedInt32Array(") {
        return inner.split(')').next();
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

fn numbers(s: &str) -> Option<Vec<i64>> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().ok())
        .collect()
}

/// Every `[node` line of the text, in order, with its ids. A node's header is one line
/// in every file the engines write (their values here hold no newline).
fn scan(text: &str) -> Option<Vec<RawIds>> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("[node ")) {
        let mut ids = RawIds {
            unique_id: match raw_attr(line, "unique_id") {
                Some(n) => Some(n.parse().ok()?),
                None => None,
            },
            ..RawIds::default()
        };
        for name in ["parent_id_path", "owner_uid_path"] {
            if let Some(p) = raw_attr(line, name) {
                ids.paths.push((name, numbers(p)?));
            }
        }
        out.push(ids);
    }
    Some(out)
}

/// The same from the crate's reading of the file.
fn read(t: &TextResource) -> Vec<RawIds> {
    t.nodes()
        .map(|n| {
            let mut ids = RawIds {
                unique_id: n.attr("unique_id").and_then(Variant::as_int),
                ..RawIds::default()
            };
            for name in ["parent_id_path", "owner_uid_path"] {
                if let Some(Variant::PackedInt32Array(p)) = n.attr(name) {
                    ids.paths
                        .push((name, p.0.iter().map(|&x| i64::from(x)).collect()));
                }
            }
            ids
        })
        .collect()
}

/// The bundle's `node_ids` and `id_paths`.
fn bundle_ids(b: &BinaryResource) -> Option<(Vec<i64>, Vec<Vec<i64>>)> {
    let Some(Variant::Dictionary(d)) = b.resource().properties().get("_bundled") else {
        return None;
    };
    let ids = match d.get("node_ids")? {
        Variant::PackedInt32Array(a) => a.0.iter().map(|&x| i64::from(x)).collect(),
        _ => return None,
    };
    let paths = match d.get("id_paths")? {
        Variant::Array(a) => a
            .iter()
            .filter_map(|p| match p {
                Variant::PackedInt32Array(p) => Some(p.0.iter().map(|&x| i64::from(x)).collect()),
                _ => None,
            })
            .collect(),
        _ => return None,
    };
    Some((ids, paths))
}

/// A node's three id attributes as the text prints them.
fn attr_texts(t: &TextResource) -> Vec<Vec<String>> {
    t.nodes()
        .map(|n| {
            ATTRS
                .iter()
                .filter_map(|a| n.attr(a).map(|v| format!("{a}={v:?}")))
                .collect()
        })
        .collect()
}

/// One 4.6+ scene through every check; the ids it checked, or what went wrong.
fn check(bytes: &[u8]) -> Result<Option<usize>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    let t = TextResource::from_bytes(bytes).map_err(|e| e.to_string())?;
    if t.engine() < EngineVersion::GODOT_4_6 || !t.is_scene() {
        return Ok(None);
    }
    let raw = scan(text).ok_or("a [node] id attribute the scan cannot read")?;
    let ours = read(&t);
    if raw != ours {
        let at = raw.iter().zip(&ours).position(|(a, b)| a != b);
        return Err(format!(
            "the crate reads other ids than the text holds (node {at:?} of {}: {:?} read as {:?})",
            raw.len(),
            at.map(|i| &raw[i]),
            at.and_then(|i| ours.get(i))
        ));
    }
    if t.to_string().as_bytes() != bytes {
        return Err("not written back byte for byte".into());
    }
    let bin = t.to_binary().map_err(|e| e.to_string())?.file;
    let bin = BinaryResource::from_bytes(&bin.to_bytes().map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let (node_ids, id_paths) = bundle_ids(&bin).ok_or("the binary bundle has no node_ids")?;
    let want: Vec<i64> = raw.iter().map(|r| r.unique_id.unwrap_or(0)).collect();
    if node_ids != want {
        return Err(format!(
            "the bundle's node_ids are not the text's: {node_ids:?}, text {want:?}"
        ));
    }
    for (name, p) in raw.iter().flat_map(|r| &r.paths) {
        if !id_paths.contains(p) {
            return Err(format!("{name}={p:?} is not among the bundle's id_paths"));
        }
    }
    let back = bin.to_text().map_err(|e| e.to_string())?.file;
    let back = TextResource::parse(&back.to_string()).map_err(|e| e.to_string())?;
    let (a, b) = (attr_texts(&t), attr_texts(&back));
    if a != b {
        let at = a.iter().zip(&b).position(|(x, y)| x != y);
        return Err(format!(
            "text -> binary -> text changed node ids (node {at:?}: {:?} became {:?})",
            at.map(|i| &a[i]),
            at.map(|i| &b[i])
        ));
    }
    let ids = raw
        .iter()
        .map(|r| {
            usize::from(r.unique_id.is_some()) + r.paths.iter().map(|(_, p)| p.len()).sum::<usize>()
        })
        .sum();
    Ok(Some(ids))
}

/// One 4.6+ binary scene through its checks; the ids it checked, or what went wrong.
fn check_binary(bytes: &[u8]) -> Result<Option<usize>, String> {
    let b = BinaryResource::from_bytes(bytes).map_err(|e| e.to_string())?;
    if b.engine() < EngineVersion::GODOT_4_6 || !b.is_scene() {
        return Ok(None);
    }
    let (ids, paths) = bundle_ids(&b).ok_or("a 4.6+ scene's bundle without node_ids")?;
    if b.to_bytes().map_err(|e| e.to_string())? != bytes {
        return Err("not written back byte for byte".into());
    }
    let text = b.to_text().map_err(|e| e.to_string())?.file;
    let text = TextResource::parse(&text.to_string()).map_err(|e| e.to_string())?;
    let printed: Vec<i64> = text
        .nodes()
        .map(|n| n.attr("unique_id").and_then(Variant::as_int).unwrap_or(0))
        .collect();
    if printed != ids {
        return Err(format!(
            "the text's unique_ids are not the bundle's node_ids: {printed:?}, bundle {ids:?}"
        ));
    }
    let back = text.to_binary().map_err(|e| e.to_string())?.file;
    let back = BinaryResource::from_bytes(&back.to_bytes().map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    if bundle_ids(&back) != Some((ids.clone(), paths.clone())) {
        return Err("binary -> text -> binary changed node_ids or id_paths".into());
    }
    Ok(Some(
        ids.iter().filter(|&&i| i != 0).count() + paths.iter().map(Vec::len).sum::<usize>(),
    ))
}

/// The check over the corpus: its table, then the failures.
pub fn node_ids_46(c: &Corpus) -> Result<(), Failed> {
    let mut t = Table::new(
        "4.6+ node ids (read = text, rewrite, text -> binary -> text)",
        &["scenes 4.6+", "ids checked", "kept", "lost"],
    );
    let mut bad = Vec::new();
    let (mut scenes, mut ids) = (0usize, 0usize);
    for (e, kind, f, bytes) in files(c)? {
        let checked = match kind {
            Kind::Text => check(&bytes),
            Kind::Binary => check_binary(&bytes),
            Kind::Config => continue,
        };
        match checked {
            Ok(None) => {}
            Ok(Some(n)) => {
                scenes += 1;
                ids += n;
                t.add(&e.dir, f, "scenes 4.6+");
                t.add_n(&e.dir, f, "ids checked", n);
                t.add(&e.dir, f, "kept");
            }
            Err(why) => {
                scenes += 1;
                t.add(&e.dir, f, "scenes 4.6+");
                t.add(&e.dir, f, "lost");
                bad.push(format!("{}/{}: {why}", e.dir, e.path));
            }
        }
    }
    crate::print(&format!(
        "{}{scenes} scenes of 4.6+ editors, {ids} node ids (unique_id and id path elements) checked\n",
        t.render()
    ));
    if scenes == 0 {
        return Err("no 4.6+ scene in the corpus: the check checked nothing".into());
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(crate::listing("4.6+ scenes whose node ids changed", &bad, 40).into())
    }
}

/// The raw scan on a line of the form a 4.6 editor writes (a self-test of the check).
pub fn scan_self_test() -> Result<(), String> {
    let line = "[node name=\"Hat\" type=\"Node2D\" parent=\"Body/Head\" parent_id_path=PackedInt32Array(1591333926, 44157713) index=\"0\" unique_id=-1036036466]";
    let ids = scan(line).ok_or("unread")?;
    let want = RawIds {
        unique_id: Some(-1036036466),
        paths: vec![("parent_id_path", vec![1591333926, 44157713])],
    };
    if ids == [want] {
        Ok(())
    } else {
        Err(format!("scanned {ids:?}"))
    }
}
