//! SceneMultiplayer packets: parsing and building every command, with no state.
//!
//! Each packet's first byte names the command in bits 0-2; bits 4-7 are flags for the
//! command. Integers are little-endian. Parsing never panics, never reads past the packet
//! and never allocates on the word of a length field; it refuses what the engine refuses
//! and, like the engine, ignores bytes after the last field it reads.

use super::error::{Error, ErrorKind, Result};
use super::variant_io::{self, ArgsForm};

/// Command numbers (bits 0-2 of the first byte).
pub mod cmd {
    /// REMOTE_CALL: an RPC.
    pub const REMOTE_CALL: u8 = 0;
    /// SIMPLIFY_PATH: "my cache id N means this node path".
    pub const SIMPLIFY_PATH: u8 = 1;
    /// CONFIRM_PATH: "I stored your cache id N".
    pub const CONFIRM_PATH: u8 = 2;
    /// RAW: `send_bytes`.
    pub const RAW: u8 = 3;
    /// SPAWN: a MultiplayerSpawner made a node.
    pub const SPAWN: u8 = 4;
    /// DESPAWN: a spawned node went away.
    pub const DESPAWN: u8 = 5;
    /// SYNC: MultiplayerSynchronizer state, plain or delta.
    pub const SYNC: u8 = 6;
    /// SYS: auth, peer announcements and relay.
    pub const SYS: u8 = 7;
    /// The bits of the first byte that hold the command.
    pub const MASK: u8 = 7;
}

/// SYS sub-commands (the second byte).
pub mod sys {
    /// Auth payload, or (empty) "I have completed".
    pub const AUTH: u8 = 0;
    /// A peer joined (server to clients).
    pub const ADD_PEER: u8 = 1;
    /// A peer left (server to clients).
    pub const DEL_PEER: u8 = 2;
    /// A packet for (client to server) or from (server to client) another peer.
    pub const RELAY: u8 = 3;
}

/// REMOTE_CALL flag bits.
const CALL_NODE_WIDTH_SHIFT: u8 = 4;
const CALL_METHOD_WIDE: u8 = 1 << 6;
const CALL_RAW: u8 = 1 << 7;
/// In a 32-bit node field: the path follows the arguments, at the offset in bits 0-30.
pub const NODE_PATH_FLAG: u32 = 0x8000_0000;
/// SYNC flag: a delta sync.
const SYNC_DELTA: u8 = 1 << 4;
/// An RPC checksum: 32 lowercase hex digits of an md5.
pub const CHECKSUM_LEN: usize = 32;
/// The spawner's scene index meaning "custom spawn (`spawn_function`), an argument follows".
pub const SPAWN_CUSTOM: u8 = 0xFF;

/// Which node a REMOTE_CALL is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeTarget<'a> {
    /// The sender's path-cache id (announced with SIMPLIFY_PATH).
    Cached(u32),
    /// The node path itself, relative to the multiplayer root.
    Path(&'a str),
}

/// A parsed REMOTE_CALL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteCall<'a> {
    /// The node.
    pub target: NodeTarget<'a>,
    /// The method id (index in the node's sorted RPC list; `0x8000 |` for node-level ones).
    pub method: u16,
    /// How the arguments travel.
    pub form: ArgsForm,
    /// The argument bytes (after the argc byte; before the path in the full-path form).
    pub args: &'a [u8],
}

/// A parsed SPAWN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn<'a> {
    /// Index in the spawner's spawnable scenes, or [`SPAWN_CUSTOM`].
    pub scene: u8,
    /// The spawner's path-cache id.
    pub spawner: u32,
    /// The spawned node's network id.
    pub net_id: u32,
    /// The network ids of the node's synchronizers, 4 bytes each (see [`Spawn::sync_ids`]).
    sync_ids: &'a [u8],
    /// The node's name.
    pub name: &'a str,
    /// The custom spawn's argument: one compressed value.
    pub arg: Option<&'a [u8]>,
    /// The synchronizers' spawn properties: compressed values, in config order.
    pub state: &'a [u8],
}

impl Spawn<'_> {
    /// The network ids of the spawned node's synchronizers, in order.
    pub fn sync_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.sync_ids.chunks_exact(4).map(le32)
    }
}

/// A parsed SYNC: entries of `(net id, compressed values)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncPacket<'a> {
    /// The sender's network frame counter (plain sync only; 0 for delta).
    pub time: u16,
    /// Whether this is a delta sync (entries carry an index mask).
    pub delta: bool,
    body: &'a [u8],
}

/// One synchronizer's state in a SYNC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncEntry<'a> {
    /// The synchronizer's network id (`0x8000_0000 |` path-cache id for a synchronizer that
    /// was not spawned).
    pub net_id: u32,
    /// Delta only: bit i set = the i-th "on change" property is in `state`.
    pub indexes: u64,
    /// Compressed values.
    pub state: &'a [u8],
}

impl<'a> SyncPacket<'a> {
    /// The entries, as the engine reads them: it stops at the first entry whose size runs
    /// past the packet (an error) or when fewer bytes than an entry header remain.
    pub fn entries(&self) -> impl Iterator<Item = Result<SyncEntry<'a>>> + 'a {
        let delta = self.delta;
        let mut rest = self.body;
        let header = if delta { 16 } else { 8 };
        let mut failed = false;
        std::iter::from_fn(move || {
            if failed || rest.len() <= header {
                return None;
            }
            let net_id = le32(&rest[0..4]);
            let (indexes, size) = if delta {
                (le64(&rest[4..12]), le32(&rest[12..16]) as usize)
            } else {
                (0, le32(&rest[4..8]) as usize)
            };
            let body = &rest[header..];
            if size > body.len() {
                failed = true;
                return Some(Err(Error::from(ErrorKind::Truncated("sync entry"))));
            }
            rest = &body[size..];
            Some(Ok(SyncEntry {
                net_id,
                indexes,
                state: &body[..size],
            }))
        })
    }
}

/// A parsed SYS packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sys<'a> {
    /// Auth payload; empty = the sender completed its side.
    Auth(&'a [u8]),
    /// A peer joined.
    AddPeer(i32),
    /// A peer left.
    DelPeer(i32),
    /// A relayed packet: destination (client to server) or source (server to client).
    Relay {
        /// The peer id field.
        peer: i32,
        /// The wrapped packet (at least one byte).
        inner: &'a [u8],
    },
}

/// Any SceneMultiplayer packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// An RPC.
    RemoteCall(RemoteCall<'a>),
    /// A path-cache announcement.
    SimplifyPath {
        /// md5 of the node's RPC names, as the sender has them (32 bytes, meant to be hex).
        checksum: &'a [u8],
        /// The sender's id for the node.
        cache_id: u32,
        /// The node path.
        path: &'a str,
    },
    /// A path-cache confirmation.
    ConfirmPath {
        /// Whether the receiver's checksum matched.
        valid: bool,
        /// The id being confirmed.
        cache_id: u32,
    },
    /// `send_bytes` payload (at least one byte).
    Raw(&'a [u8]),
    /// A spawn.
    Spawn(Spawn<'a>),
    /// A despawn.
    Despawn {
        /// The node's network id.
        net_id: u32,
    },
    /// A plain or delta sync.
    Sync(SyncPacket<'a>),
    /// A SYS packet.
    Sys(Sys<'a>),
}

fn le16(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}
fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}
fn le64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// The text from `bytes` up to its first NUL (or its end), as UTF-8.
fn c_str(bytes: &[u8]) -> Result<&str> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[..end])
        .map_err(|_| Error::from(ErrorKind::Invalid("path is not UTF-8")))
}

/// Parses one packet. `Sys` packets are parsed with the length rules the engine applies to
/// an admitted peer (AUTH exactly 2 bytes then is the caller's concern; see
/// [`parse_sys`]).
pub fn parse(packet: &[u8]) -> Result<Command<'_>> {
    let Some(&first) = packet.first() else {
        return Err(Error::from(ErrorKind::Truncated("empty packet")));
    };
    match first & cmd::MASK {
        cmd::REMOTE_CALL => parse_remote_call(packet).map(Command::RemoteCall),
        cmd::SIMPLIFY_PATH => {
            if packet.len() < 38 {
                return Err(Error::from(ErrorKind::Truncated("simplify path")));
            }
            Ok(Command::SimplifyPath {
                checksum: &packet[1..1 + CHECKSUM_LEN],
                cache_id: le32(&packet[34..38]),
                path: c_str(&packet[38..])?,
            })
        }
        cmd::CONFIRM_PATH => {
            if packet.len() != 6 {
                return Err(Error::from(ErrorKind::Invalid(
                    "confirm path must be 6 bytes",
                )));
            }
            Ok(Command::ConfirmPath {
                valid: packet[1] != 0,
                cache_id: le32(&packet[2..6]),
            })
        }
        cmd::RAW => {
            if packet.len() < 2 {
                return Err(Error::from(ErrorKind::Truncated("raw packet without data")));
            }
            Ok(Command::Raw(&packet[1..]))
        }
        cmd::SPAWN => parse_spawn(packet).map(Command::Spawn),
        cmd::DESPAWN => {
            if packet.len() < 5 {
                return Err(Error::from(ErrorKind::Truncated("despawn")));
            }
            Ok(Command::Despawn {
                net_id: le32(&packet[1..5]),
            })
        }
        cmd::SYNC => {
            if packet.len() < 11 {
                return Err(Error::from(ErrorKind::Truncated("sync")));
            }
            let delta = first & SYNC_DELTA != 0;
            Ok(Command::Sync(if delta {
                SyncPacket {
                    time: 0,
                    delta,
                    body: &packet[1..],
                }
            } else {
                SyncPacket {
                    time: le16(&packet[1..3]),
                    delta,
                    body: &packet[3..],
                }
            }))
        }
        cmd::SYS => parse_sys(packet).map(Command::Sys),
        _ => Err(Error::from(ErrorKind::Invalid("unknown command"))),
    }
}

/// Parses a SYS packet (first byte already known to be SYS).
pub fn parse_sys(packet: &[u8]) -> Result<Sys<'_>> {
    if packet.len() < 2 {
        return Err(Error::from(ErrorKind::Truncated("sys")));
    }
    if packet[1] == sys::AUTH {
        return Ok(Sys::Auth(&packet[2..]));
    }
    if packet.len() < 6 {
        return Err(Error::from(ErrorKind::Truncated("sys")));
    }
    let peer = le32(&packet[2..6]) as i32;
    match packet[1] {
        sys::ADD_PEER => Ok(Sys::AddPeer(peer)),
        sys::DEL_PEER => Ok(Sys::DelPeer(peer)),
        sys::RELAY => {
            if packet.len() < 7 {
                return Err(Error::from(ErrorKind::Truncated("relay without a packet")));
            }
            Ok(Sys::Relay {
                peer,
                inner: &packet[6..],
            })
        }
        _ => Err(Error::from(ErrorKind::Invalid("unknown sys command"))),
    }
}

fn parse_remote_call(packet: &[u8]) -> Result<RemoteCall<'_>> {
    let meta = packet[0];
    let node_width = match (meta >> CALL_NODE_WIDTH_SHIFT) & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => return Err(Error::from(ErrorKind::Invalid("node id width 3"))),
    };
    let method_width = if meta & CALL_METHOD_WIDE != 0 { 2 } else { 1 };
    let min = 1 + node_width + method_width;
    if packet.len() < min {
        return Err(Error::from(ErrorKind::Truncated("remote call")));
    }
    let node = &packet[1..1 + node_width];
    let node = match node_width {
        1 => u32::from(node[0]),
        2 => u32::from(le16(node)),
        _ => le32(node),
    };
    let method = &packet[1 + node_width..min];
    let method = if method_width == 1 {
        u16::from(method[0])
    } else {
        le16(method)
    };
    // In the full-path form the arguments end where the path begins.
    let (target, end) = if node_width == 4 && node & NODE_PATH_FLAG != 0 {
        let at = (node & !NODE_PATH_FLAG) as usize;
        if at >= packet.len() {
            return Err(Error::from(ErrorKind::Truncated(
                "node path offset past the packet",
            )));
        }
        if at < min {
            return Err(Error::from(ErrorKind::Invalid(
                "node path inside the call header",
            )));
        }
        (NodeTarget::Path(c_str(&packet[at..])?), at)
    } else {
        (NodeTarget::Cached(node), packet.len())
    };
    let body = &packet[min..end];
    let (form, args) = if meta & CALL_RAW != 0 {
        (ArgsForm::Raw, body)
    } else {
        let Some((&argc, values)) = body.split_first() else {
            return Err(Error::from(ErrorKind::Truncated(
                "remote call without argc",
            )));
        };
        let len = variant_io::check_values(values, usize::from(argc))?;
        (ArgsForm::Values(argc), &values[..len])
    };
    Ok(RemoteCall {
        target,
        method,
        form,
        args,
    })
}

fn parse_spawn(packet: &[u8]) -> Result<Spawn<'_>> {
    if packet.len() < 18 {
        return Err(Error::from(ErrorKind::Truncated("spawn")));
    }
    let scene = packet[1];
    let spawner = le32(&packet[2..6]);
    let net_id = le32(&packet[6..10]);
    let sync_len = le32(&packet[10..14]) as usize;
    let name_len = le32(&packet[14..18]) as usize;
    let rest = &packet[18..];
    let ids_len = sync_len
        .checked_mul(4)
        .filter(|n| n.checked_add(name_len).is_some_and(|t| t <= rest.len()))
        .ok_or(Error::from(ErrorKind::Truncated("spawn ids and name")))?;
    if name_len < 1 {
        return Err(Error::from(ErrorKind::Invalid("empty spawn name")));
    }
    let (sync_ids, rest) = rest.split_at(ids_len);
    let (name, mut rest) = rest.split_at(name_len);
    let name = c_str(name)?;
    if !valid_node_name(name) {
        return Err(Error::from(ErrorKind::Invalid("invalid node name")));
    }
    let arg = if scene == SPAWN_CUSTOM {
        if rest.len() < 4 {
            return Err(Error::from(ErrorKind::Truncated("spawn argument size")));
        }
        let size = le32(&rest[..4]) as usize;
        rest = &rest[4..];
        if size > rest.len() {
            return Err(Error::from(ErrorKind::Truncated("spawn argument")));
        }
        let (arg, after) = rest.split_at(size);
        variant_io::compressed_len(arg)?;
        rest = after;
        Some(arg)
    } else {
        None
    };
    Ok(Spawn {
        scene,
        spawner,
        net_id,
        sync_ids,
        name,
        arg,
        state: rest,
    })
}

/// Whether the engine accepts `name` as a node name (`validate_node_name` leaves it as is).
pub fn valid_node_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| matches!(c, '.' | ':' | '@' | '/' | '"' | '%'))
}

/// Appends a SIMPLIFY_PATH.
pub fn put_simplify_path(out: &mut Vec<u8>, checksum: &str, cache_id: u32, path: &str) {
    out.push(cmd::SIMPLIFY_PATH);
    out.extend_from_slice(checksum.as_bytes());
    out.push(0);
    out.extend_from_slice(&cache_id.to_le_bytes());
    out.extend_from_slice(path.as_bytes());
    out.push(0);
}

/// Appends a CONFIRM_PATH.
pub fn put_confirm_path(out: &mut Vec<u8>, valid: bool, cache_id: u32) {
    out.push(cmd::CONFIRM_PATH);
    out.push(u8::from(valid));
    out.extend_from_slice(&cache_id.to_le_bytes());
}

/// How the node of an outgoing REMOTE_CALL is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeField {
    /// A confirmed cache id in the smallest width that holds it (what the engine sends when
    /// every target confirmed the path).
    Compact(u32),
    /// A cache id in the 32-bit field.
    Wide(u32),
    /// The full-path form: the path follows the arguments.
    Path,
}

/// The most bytes [`put_remote_call`] writes before the arguments: the meta byte, a
/// 4-byte node field, a 2-byte method id and the argument count.
pub(crate) const REMOTE_CALL_MAX_HEADER: usize = 8;

/// Appends a REMOTE_CALL whose argument bytes are `args` (in `form`); `path` is written
/// after them when `node` is [`NodeField::Path`].
pub fn put_remote_call(
    out: &mut Vec<u8>,
    node: NodeField,
    method: u16,
    form: ArgsForm,
    args: &[u8],
    path: &str,
) {
    let start = out.len();
    let mut meta = cmd::REMOTE_CALL;
    if form == ArgsForm::Raw {
        meta |= CALL_RAW;
    }
    if method > 0xFF {
        meta |= CALL_METHOD_WIDE;
    }
    out.push(0);
    let path_field = match node {
        NodeField::Compact(id) if id <= 0xFF => {
            out.push(id as u8);
            None
        }
        NodeField::Compact(id) if id <= 0xFFFF => {
            meta |= 1 << CALL_NODE_WIDTH_SHIFT;
            out.extend_from_slice(&(id as u16).to_le_bytes());
            None
        }
        NodeField::Compact(id) | NodeField::Wide(id) => {
            meta |= 2 << CALL_NODE_WIDTH_SHIFT;
            out.extend_from_slice(&id.to_le_bytes());
            None
        }
        NodeField::Path => {
            meta |= 2 << CALL_NODE_WIDTH_SHIFT;
            let at = out.len();
            out.extend_from_slice(&[0; 4]);
            Some(at)
        }
    };
    out[start] = meta;
    if method > 0xFF {
        out.extend_from_slice(&method.to_le_bytes());
    } else {
        out.push(method as u8);
    }
    if let ArgsForm::Values(n) = form {
        out.push(n);
    }
    out.extend_from_slice(args);
    if let Some(at) = path_field {
        let offset = (out.len() - start) as u32 | NODE_PATH_FLAG;
        out[at..at + 4].copy_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(path.as_bytes());
        out.push(0);
    }
}

/// Appends a RAW packet.
pub fn put_raw(out: &mut Vec<u8>, data: &[u8]) {
    out.push(cmd::RAW);
    out.extend_from_slice(data);
}

/// Appends a SYS AUTH (an empty `data` = "completed").
pub fn put_auth(out: &mut Vec<u8>, data: &[u8]) {
    out.extend_from_slice(&[cmd::SYS, sys::AUTH]);
    out.extend_from_slice(data);
}

/// Appends SYS ADD_PEER or DEL_PEER.
pub fn put_peer_notice(out: &mut Vec<u8>, added: bool, peer: i32) {
    let sub = if added { sys::ADD_PEER } else { sys::DEL_PEER };
    out.extend_from_slice(&[cmd::SYS, sub]);
    out.extend_from_slice(&peer.to_le_bytes());
}

/// Appends a SYS RELAY wrapping `inner`.
pub fn put_relay(out: &mut Vec<u8>, peer: i32, inner: &[u8]) {
    out.extend_from_slice(&[cmd::SYS, sys::RELAY]);
    out.extend_from_slice(&peer.to_le_bytes());
    out.extend_from_slice(inner);
}

/// Appends a SPAWN. `arg` is the custom spawn's compressed argument (with
/// `scene == SPAWN_CUSTOM`), `state` the compressed spawn properties.
#[allow(clippy::too_many_arguments)]
pub fn put_spawn(
    out: &mut Vec<u8>,
    scene: u8,
    spawner: u32,
    net_id: u32,
    sync_ids: &[u32],
    name: &str,
    arg: Option<&[u8]>,
    state: &[u8],
) {
    out.extend_from_slice(&[cmd::SPAWN, scene]);
    out.extend_from_slice(&spawner.to_le_bytes());
    out.extend_from_slice(&net_id.to_le_bytes());
    out.extend_from_slice(&(sync_ids.len() as u32).to_le_bytes());
    out.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
    for id in sync_ids {
        out.extend_from_slice(&id.to_le_bytes());
    }
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    if let Some(arg) = arg {
        out.extend_from_slice(&(arg.len() as u32).to_le_bytes());
        out.extend_from_slice(arg);
    }
    out.extend_from_slice(state);
}

/// Appends a DESPAWN.
pub fn put_despawn(out: &mut Vec<u8>, net_id: u32) {
    out.push(cmd::DESPAWN);
    out.extend_from_slice(&net_id.to_le_bytes());
}

/// Starts a plain SYNC packet; add entries with [`put_sync_entry`].
pub fn put_sync_header(out: &mut Vec<u8>, time: u16) {
    out.push(cmd::SYNC);
    out.extend_from_slice(&time.to_le_bytes());
}

/// Starts a delta SYNC packet; add entries with [`put_delta_entry`].
pub fn put_delta_header(out: &mut Vec<u8>) {
    out.push(cmd::SYNC | SYNC_DELTA);
}

/// Appends one plain sync entry.
pub fn put_sync_entry(out: &mut Vec<u8>, net_id: u32, state: &[u8]) {
    out.extend_from_slice(&net_id.to_le_bytes());
    out.extend_from_slice(&(state.len() as u32).to_le_bytes());
    out.extend_from_slice(state);
}

/// Appends one delta sync entry.
pub fn put_delta_entry(out: &mut Vec<u8>, net_id: u32, indexes: u64, state: &[u8]) {
    out.extend_from_slice(&net_id.to_le_bytes());
    out.extend_from_slice(&indexes.to_le_bytes());
    out.extend_from_slice(&(state.len() as u32).to_le_bytes());
    out.extend_from_slice(state);
}

#[cfg(test)]
mod tests {
    use super::{put_remote_call, NodeField, REMOTE_CALL_MAX_HEADER};
    use crate::variant_io::ArgsForm;

    #[test]
    fn the_widest_remote_call_header_is_the_bound_callers_reserve() {
        // Every field at its widest: a 4-byte node field, a 2-byte method, a count.
        for node in [
            NodeField::Wide(7),
            NodeField::Compact(0x1_0000),
            NodeField::Path,
        ] {
            let mut out = Vec::new();
            put_remote_call(&mut out, node, 0x100, ArgsForm::Values(1), b"ARGS", "");
            let header = out.len() - b"ARGS".len() - usize::from(node == NodeField::Path);
            assert_eq!(header, REMOTE_CALL_MAX_HEADER, "{node:?}");
        }
    }
}
