//! `rusty_enet`'s socket over a tokio UDP socket, without blocking, which holds the
//! datagrams ENet hands it until the host's turn is done and sends the ones bound for the
//! same peer as one where ENet could have sent them as one.
//!
//! Why hold them: `service` acknowledges what it read at once, in a datagram of its own,
//! before the session has answered; the answer then leaves in a second datagram at the
//! flush. Two datagrams a call each way, where one would do, cost the kernel's UDP path
//! twice (the figures: the crate's benches/RESULTS.md). Held to the end of the turn, the
//! acknowledgements travel with the answers.
//!
//! ENet reads from the socket's inbox, not from the UDP socket itself: a server runs
//! several hosts on one UDP socket (`shards.rs`), which reads the datagrams and hands
//! each to the host of its sender.
//!
//! This file uses nothing of the crate, so that `examples/multiplayer_bare` (the bare
//! transport the load run measures against) runs on the same socket.

use rusty_enet::{PacketReceived, Socket, MTU_MAX};
use std::collections::{HashMap, VecDeque};
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::UdpSocket;

/// ENet's protocol header is a big-endian u16 (peer id in the low 12 bits, the session in
/// the next 2, then these two flags), followed by a u16 sent time when that flag is set,
/// then the commands, each of which carries its own length. The hosts here use neither a
/// checksum (which would follow the header) nor compression.
const HEADER_SENT_TIME: u16 = 0x8000;
const HEADER_COMPRESSED: u16 = 0x4000;
/// The bits of an ENet header's first field that hold the peer id.
pub const HEADER_PEER_ID: u16 = 0x0FFF;

/// The largest datagram a merge may make: ENet's default MTU, which every host here (and
/// the engine's) keeps, so a merged datagram is no larger than one ENet itself sends.
const MERGE_LIMIT: usize = rusty_enet::consts::HOST_DEFAULT_MTU as usize;

/// Emptied buffers kept for the next datagrams, per host (a server has one host per 64
/// peers, `shards.rs`); beyond this they are freed.
const SPARE_BUFFERS: usize = 64;

/// Appends datagram `next` to `held` when ENet could have sent both as one datagram: the
/// same peer and session, neither compressed, no two different sent times (the receiver
/// acknowledges every reliable command of a datagram with its one sent time), and no
/// larger than `limit` together. The result keeps the sent time of whichever had one and
/// `held`'s commands before `next`'s, the order they would have arrived in. Whether it
/// merged.
///
/// Two datagrams with the same sent time merge: ENet stamps every datagram of one flush
/// with the same time, and stops a datagram at 32 commands (its buffer array), not at
/// the MTU, so a burst of small reliable packets to one peer (the 999 "peer joined"
/// notices a peer gets as it joins 1,000 others) left in datagrams of 32 commands, each
/// a system call here and in the peer. Merged, the receiver acknowledges every command
/// with the same sent time it would have read from each datagram apart.
pub fn merge(held: &mut Vec<u8>, next: &[u8], limit: usize) -> bool {
    let header = |d: &[u8]| d.get(..2).map(|h| u16::from_be_bytes([h[0], h[1]]));
    let (Some(a), Some(b)) = (header(held), header(next)) else {
        return false;
    };
    let len = |h: u16| if h & HEADER_SENT_TIME != 0 { 4 } else { 2 };
    if (a | b) & HEADER_COMPRESSED != 0
        || (a ^ b) & !HEADER_SENT_TIME != 0
        || held.len() < len(a)
        || next.len() < len(b)
        || held.len() + next.len() - len(a & b) > limit
    {
        return false;
    }
    if a & b & HEADER_SENT_TIME != 0 {
        // Both stamped: one datagram only if the stamps are the same.
        if held[2..4] != next[2..4] {
            return false;
        }
        held.extend_from_slice(&next[4..]);
    } else if b & HEADER_SENT_TIME != 0 {
        // `next` has the sent time: its header goes first.
        held.splice(..2, next[..4].iter().copied());
        held.extend_from_slice(&next[4..]);
    } else {
        held.extend_from_slice(&next[2..]);
    }
    true
}

/// The socket ENet runs on.
pub struct Udp {
    socket: Arc<UdpSocket>,
    /// Datagrams read for this host and not yet given to ENet, in arrival order.
    inbox: VecDeque<(SocketAddr, Vec<u8>)>,
    /// Datagrams handed over since the last [`Udp::send_held`], in order.
    held: Vec<(SocketAddr, Vec<u8>)>,
    /// The last held datagram for each address, the one a new datagram may merge into.
    last: HashMap<SocketAddr, usize>,
    spare: Vec<Vec<u8>>,
    /// A send failed for a reason other than a full buffer or a gone peer: reported by the
    /// next receive, inside `service`.
    failed: Option<io::Error>,
}

impl Udp {
    /// ENet's socket over `socket`, nothing held or received yet.
    pub fn new(socket: Arc<UdpSocket>) -> Self {
        Udp {
            socket,
            inbox: VecDeque::new(),
            held: Vec::new(),
            last: HashMap::new(),
            spare: Vec::new(),
            failed: None,
        }
    }

    /// Queues a datagram from `from` for ENet's next receive.
    pub fn deliver(&mut self, from: SocketAddr, data: &[u8]) {
        let mut d = self.spare.pop().unwrap_or_default();
        d.extend_from_slice(data);
        self.inbox.push_back((from, d));
    }

    /// Whether every delivered datagram has been given to ENet.
    pub fn inbox_is_empty(&self) -> bool {
        self.inbox.is_empty()
    }

    /// A buffer back to the spare list.
    fn recycle(&mut self, mut d: Vec<u8>) {
        if self.spare.len() < SPARE_BUFFERS {
            d.clear();
            self.spare.push(d);
        }
    }

    /// Whether datagrams wait for [`Udp::send_held`].
    pub fn has_held(&self) -> bool {
        !self.held.is_empty()
    }

    /// Sends every held datagram. A full socket buffer drops the rest of them, as a send
    /// that would block drops a datagram in ENet (reliable commands are sent again).
    pub fn send_held(&mut self) {
        let mut full = false;
        // Taken out and put back to keep its capacity: `recycle` needs `self`.
        let mut held = std::mem::take(&mut self.held);
        for (addr, d) in held.drain(..) {
            if !full && self.failed.is_none() {
                match self.socket.try_send_to(&d, addr) {
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => full = true,
                    // A datagram to a peer that went away: ENet's timeouts deal with it.
                    Err(e) if transient(&e) => {}
                    Err(e) => self.failed = Some(e),
                }
            }
            self.recycle(d);
        }
        self.held = held;
        self.last.clear();
    }
}

impl Socket for Udp {
    type Address = SocketAddr;
    type Error = io::Error;

    fn send(&mut self, address: SocketAddr, buffer: &[u8]) -> io::Result<usize> {
        if let Some(&i) = self.last.get(&address) {
            if merge(&mut self.held[i].1, buffer, MERGE_LIMIT) {
                return Ok(buffer.len());
            }
        }
        let mut d = self.spare.pop().unwrap_or_default();
        d.extend_from_slice(buffer);
        self.last.insert(address, self.held.len());
        self.held.push((address, d));
        Ok(buffer.len())
    }

    fn receive(
        &mut self,
        buffer: &mut [u8; MTU_MAX],
    ) -> io::Result<Option<(SocketAddr, PacketReceived)>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let Some((from, d)) = self.inbox.pop_front() else {
            return Ok(None);
        };
        // The reader's buffer is MTU_MAX long, so `d` fits.
        let n = d.len().min(buffer.len());
        buffer[..n].copy_from_slice(&d[..n]);
        self.recycle(d);
        Ok(Some((from, PacketReceived::Complete(n))))
    }
}

/// Whether a socket error is passing (the next datagram may go), not the socket's end.
pub fn transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionReset
    )
}

/// The receive buffer asked for on a server socket. ENet's own hosts ask for 256 KiB, which
/// a thousand peers sending at once overflow on Linux (each small datagram costs about a
/// kilobyte of buffer), and every lost datagram costs a reliable packet a retransmission
/// timeout. The kernel caps it at `net.core.rmem_max`.
const SERVER_RECV_BUFFER: usize = 4 << 20;

/// A non-blocking UDP socket on `addr` with a large receive buffer.
pub fn bind_server(addr: SocketAddr) -> io::Result<UdpSocket> {
    use socket2::{Domain, Protocol, Socket as RawSocket, Type};
    let socket = RawSocket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    // Best effort: a smaller buffer only means more retransmissions under bursts.
    let _ = socket.set_recv_buffer_size(SERVER_RECV_BUFFER);
    socket.set_nonblocking(true)?;
    socket.bind(&addr.into())?;
    UdpSocket::from_std(socket.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A datagram: header word, optional sent time, then `body`.
    fn dg(peer: u16, session: u16, sent: Option<u16>, body: &[u8]) -> Vec<u8> {
        let mut h = peer | (session << 12);
        if sent.is_some() {
            h |= HEADER_SENT_TIME;
        }
        let mut d = h.to_be_bytes().to_vec();
        if let Some(t) = sent {
            d.extend_from_slice(&t.to_be_bytes());
        }
        d.extend_from_slice(body);
        d
    }

    #[test]
    fn acknowledgements_then_answer_become_one_datagram_with_the_answers_sent_time() {
        let mut held = dg(7, 1, None, b"ACK1ACK2");
        assert!(merge(&mut held, &dg(7, 1, Some(0x1234), b"SEND"), 1392));
        assert_eq!(held, dg(7, 1, Some(0x1234), b"ACK1ACK2SEND"));
        // And the other way round: the sent time stays where it was.
        let mut held = dg(7, 1, Some(0x0102), b"SEND");
        assert!(merge(&mut held, &dg(7, 1, None, b"ACK"), 1392));
        assert_eq!(held, dg(7, 1, Some(0x0102), b"SENDACK"));
        let mut held = dg(7, 1, None, b"A");
        assert!(merge(&mut held, &dg(7, 1, None, b"B"), 1392));
        assert_eq!(held, dg(7, 1, None, b"AB"));
    }

    /// One flush stamps all its datagrams with one sent time, and ENet ends a datagram at
    /// 32 commands: those of the same peer become one, under the one stamp, up to the
    /// limit (the stamp counted once).
    #[test]
    fn datagrams_of_one_flush_become_one_under_their_one_sent_time() {
        let mut held = dg(7, 1, Some(0x1234), b"CMDS1");
        assert!(merge(&mut held, &dg(7, 1, Some(0x1234), b"CMDS2"), 1392));
        assert_eq!(held, dg(7, 1, Some(0x1234), b"CMDS1CMDS2"));
        let a = dg(3, 0, Some(9), &[1; 600]);
        let b = dg(3, 0, Some(9), &[2; 600]);
        // 604 + 604 - 4 = 1204 bytes together.
        let mut held = a.clone();
        assert!(!merge(&mut held, &b, 1203));
        assert_eq!(held, a);
        assert!(merge(&mut held, &b, 1204));
        assert_eq!(held.len(), 1204);
    }

    #[test]
    fn what_enet_would_not_send_as_one_stays_apart() {
        let cases: [(Vec<u8>, Vec<u8>); 5] = [
            // Two different sent times: the receiver would acknowledge one command with
            // the other's.
            (dg(7, 1, Some(1), b"S1"), dg(7, 1, Some(2), b"S2")),
            // Another peer slot, another session.
            (dg(7, 1, None, b"A"), dg(8, 1, None, b"B")),
            (dg(7, 1, None, b"A"), dg(7, 2, None, b"B")),
            // Compressed.
            (
                dg(7 | HEADER_COMPRESSED, 1, None, b"A"),
                dg(7, 1, None, b"B"),
            ),
            // Too short to hold the header its flag says.
            (dg(7, 1, None, b"A"), vec![0x80, 0x07, 0x12]),
        ];
        for (a, b) in cases {
            let mut held = a.clone();
            assert!(!merge(&mut held, &b, 1392), "{a:?} + {b:?}");
            assert_eq!(held, a);
        }
    }

    #[test]
    fn a_merge_never_passes_the_limit() {
        let a = dg(3, 0, None, &[1; 600]);
        let b = dg(3, 0, Some(9), &[2; 600]);
        // 602 + 604 - 2 = 1204 bytes together.
        let mut held = a.clone();
        assert!(!merge(&mut held, &b, 1203));
        assert_eq!(held, a);
        assert!(merge(&mut held, &b, 1204));
        assert_eq!(held.len(), 1204);
    }

    async fn recv(rx: &UdpSocket, buf: &mut [u8]) -> usize {
        let wait = std::time::Duration::from_secs(5);
        let got = tokio::time::timeout(wait, rx.recv(buf)).await;
        got.expect("a datagram within 5 s").unwrap()
    }

    /// Datagrams go out merged per address, in order, and each arrives as one.
    #[tokio::test]
    async fn held_datagrams_go_out_merged_per_address() {
        let local: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let tx = Arc::new(UdpSocket::bind(local).await.unwrap());
        let rx1 = UdpSocket::bind(local).await.unwrap();
        let rx2 = UdpSocket::bind(local).await.unwrap();
        let (a1, a2) = (rx1.local_addr().unwrap(), rx2.local_addr().unwrap());
        // tokio's `try_send_to` needs the reactor to have seen the socket writable.
        tx.writable().await.unwrap();
        let mut udp = Udp::new(tx);
        udp.send(a1, &dg(1, 0, None, b"ack-a")).unwrap();
        udp.send(a2, &dg(2, 0, None, b"ack-b")).unwrap();
        udp.send(a1, &dg(1, 0, Some(5), b"reply-a")).unwrap();
        // A second reliable datagram to the same peer cannot join (a second sent time).
        udp.send(a1, &dg(1, 0, Some(6), b"more-a")).unwrap();
        assert!(udp.has_held());
        udp.send_held();
        assert!(!udp.has_held());
        let mut buf = [0u8; 64];
        let n = recv(&rx1, &mut buf).await;
        assert_eq!(&buf[..n], &dg(1, 0, Some(5), b"ack-areply-a")[..]);
        let n = recv(&rx1, &mut buf).await;
        assert_eq!(&buf[..n], &dg(1, 0, Some(6), b"more-a")[..]);
        let n = recv(&rx2, &mut buf).await;
        assert_eq!(&buf[..n], &dg(2, 0, None, b"ack-b")[..]);
        // The next turn starts afresh: nothing merges into what was sent.
        udp.send(a2, &dg(2, 0, None, b"x")).unwrap();
        udp.send_held();
        let n = recv(&rx2, &mut buf).await;
        assert_eq!(&buf[..n], &dg(2, 0, None, b"x")[..]);
    }
}
