//! A transport of the caller's: `net::Host` and `net::Peer` drive any
//! `ServerTransport` / `ClientTransport`, here an in-process pipe, with nothing of the
//! bundled WebSocket or ENet code. What a third-party driver needs is public.

use godot_bin_multiplayer::net::{
    self, ClientTransport, LinkEvent, Sent, ServerTransport, TransportEvent,
};
use godot_bin_multiplayer::{Event, NodeConfig, Rpc, Scene, TransferMode};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// One direction of the pipe: packets and the waker of the side that reads them.
#[derive(Default)]
struct Queue {
    packets: VecDeque<Vec<u8>>,
    reader: Option<Waker>,
    closed: bool,
}

#[derive(Default)]
struct Pipe {
    to_server: Mutex<Queue>,
    to_client: Mutex<Queue>,
}

const CLIENT_ID: i32 = 77;

struct ServerEnd {
    pipe: Arc<Pipe>,
    announced: bool,
    sent: usize,
}

impl ServerTransport for ServerEnd {
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        _now: Instant,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> godot_bin_multiplayer::Result<bool> {
        let mut any = false;
        if !self.announced {
            self.announced = true;
            assert!(on(TransportEvent::Connected(CLIENT_ID)));
            any = true;
        }
        let mut q = self.pipe.to_server.lock().unwrap();
        while let Some(p) = q.packets.pop_front() {
            on(TransportEvent::Packet {
                from: CLIENT_ID,
                channel: 0,
                mode: TransferMode::Reliable,
                data: &p,
            });
            any = true;
        }
        q.reader = Some(cx.waker().clone());
        Ok(any)
    }

    fn send(&mut self, to: i32, _channel: u8, _mode: TransferMode, data: Vec<u8>) -> Sent {
        if to != CLIENT_ID {
            return Sent::NotMine(data);
        }
        self.sent += 1;
        let mut q = self.pipe.to_client.lock().unwrap();
        q.packets.push_back(data);
        if let Some(w) = q.reader.take() {
            w.wake();
        }
        Sent::Queued(None)
    }

    fn disconnect(&mut self, to: i32) -> bool {
        to == CLIENT_ID
    }

    fn flush(&mut self) {}

    fn next_wake(&self) -> Option<Instant> {
        None
    }

    fn local_addr(&self) -> Option<SocketAddr> {
        None
    }
}

struct ClientEnd {
    pipe: Arc<Pipe>,
}

impl ClientTransport for ClientEnd {
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        _now: Instant,
        on: &mut dyn FnMut(LinkEvent<'_>),
    ) -> godot_bin_multiplayer::Result<bool> {
        let mut q = self.pipe.to_client.lock().unwrap();
        let mut any = false;
        while let Some(p) = q.packets.pop_front() {
            on(LinkEvent::Packet {
                channel: 0,
                mode: TransferMode::Reliable,
                data: &p,
            });
            any = true;
        }
        if q.closed {
            on(LinkEvent::Closed);
            return Ok(true);
        }
        q.reader = Some(cx.waker().clone());
        Ok(any)
    }

    fn send(&mut self, _channel: u8, _mode: TransferMode, data: Vec<u8>) {
        let mut q = self.pipe.to_server.lock().unwrap();
        q.packets.push_back(data);
        if let Some(w) = q.reader.take() {
            w.wake();
        }
    }

    fn poll_flush(&mut self, _cx: &mut Context<'_>) -> Poll<godot_bin_multiplayer::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn close(&mut self) {
        self.pipe.to_server.lock().unwrap().closed = true;
    }

    fn next_wake(&self) -> Option<Instant> {
        None
    }
}

#[test]
fn a_host_and_a_peer_talk_over_a_transport_of_the_callers() {
    let scene = Arc::new(
        Scene::new()
            .with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))
            .unwrap(),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let answers = rt.block_on(async {
        let pipe = Arc::new(Pipe::default());
        let mut host = net::Host::builder(scene.clone())
            .transport(Box::new(ServerEnd {
                pipe: pipe.clone(),
                announced: false,
                sent: 0,
            }))
            .start()
            .await
            .unwrap();
        // No bundled transport: no addresses.
        assert_eq!((host.websocket_addr(), host.enet_addr()), (None, None));
        let server = tokio::spawn(async move {
            let mut calls = 0;
            loop {
                match host.next_event().await.unwrap() {
                    Event::Call(c) => {
                        host.call_args(c.from, c.node, &c.method, &c.args).unwrap();
                        calls += 1;
                        if calls == 3 {
                            host.flush();
                            return calls;
                        }
                    }
                    Event::PeerConnected(id) => assert_eq!(id, CLIENT_ID),
                    _ => {}
                }
            }
        });
        let mut peer = net::Peer::builder(scene)
            .connect_with(Box::new(ClientEnd { pipe }), CLIENT_ID, Vec::new())
            .unwrap();
        let mut got = Vec::new();
        for i in 0..3i64 {
            peer.rpc_id(1, "Echo", "echo", &(i * 10,)).unwrap();
            loop {
                if let Event::Call(c) = peer.next_event().await.unwrap() {
                    let (v,): (i64,) = c.args.decode().unwrap();
                    got.push(v);
                    break;
                }
            }
        }
        assert_eq!(server.await.unwrap(), 3);
        got
    });
    assert_eq!(answers, [0, 10, 20]);
}
