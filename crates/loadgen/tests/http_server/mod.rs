//! Real HTTP/1.1 servers on 127.0.0.1 for the load tests.
//!
//! `HyperServer` is hyper's own server, one OS thread (with its own runtime) per
//! connection, so a reply may block its thread with a precise `std::thread::sleep`
//! without slowing other connections. `IdleClosingServer` is a plain keep-alive
//! server that closes connections the way real servers do: silently, when idle
//! too long, or after a number of responses.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;

/// What the server answers to one request.
pub struct Reply {
    pub status: u16,
    pub body: &'static str,
    /// Blocks this connection before answering.
    pub delay: Duration,
}

impl Reply {
    pub fn ok(body: &'static str) -> Reply {
        Reply {
            status: 200,
            body,
            delay: Duration::ZERO,
        }
    }
}

/// Counts of what a server answered.
#[derive(Default)]
pub struct Served {
    pub requests: AtomicU64,
    pub non_2xx: AtomicU64,
    pub connections: AtomicU64,
    /// "METHOD /path cookie=... body=..." of the latest request.
    pub last_request: Mutex<String>,
}

pub struct HyperServer {
    pub addr: SocketAddr,
    pub served: Arc<Served>,
    stop: Arc<AtomicBool>,
}

impl HyperServer {
    /// Starts a server whose reply to the n-th request (1-based, over all connections) is `reply(n)`.
    pub fn start(reply: impl Fn(u64) -> Reply + Send + Sync + 'static) -> HyperServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let served = Arc::new(Served::default());
        let stop = Arc::new(AtomicBool::new(false));
        let reply = Arc::new(reply);
        let (served_in, stop_in) = (served.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_in.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                served_in.connections.fetch_add(1, Ordering::Relaxed);
                let (reply, served) = (reply.clone(), served_in.clone());
                std::thread::spawn(move || serve_connection(stream, reply, served));
            }
        });
        HyperServer { addr, served, stop }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn requests(&self) -> u64 {
        self.served.requests.load(Ordering::SeqCst)
    }
}

impl Drop for HyperServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve_connection(
    stream: TcpStream,
    reply: Arc<dyn Fn(u64) -> Reply + Send + Sync>,
    served: Arc<Served>,
) {
    precise_timers();
    stream.set_nonblocking(true).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let stream = tokio::net::TcpStream::from_std(stream).unwrap();
        stream.set_nodelay(true).unwrap();
        let service = service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
            let (reply, served) = (reply.clone(), served.clone());
            async move {
                let (head, body) = request.into_parts();
                let body = body
                    .collect()
                    .await
                    .map(|b| b.to_bytes())
                    .unwrap_or_default();
                let cookie = head
                    .headers
                    .get("cookie")
                    .map(|v| v.to_str().unwrap_or("?").to_string());
                *served.last_request.lock().unwrap() = format!(
                    "{} {} cookie={} body={}",
                    head.method,
                    head.uri,
                    cookie.unwrap_or_default(),
                    String::from_utf8_lossy(&body)
                );
                let n = served.requests.fetch_add(1, Ordering::SeqCst) + 1;
                let answer = reply(n);
                if !(200..300).contains(&answer.status) {
                    served.non_2xx.fetch_add(1, Ordering::SeqCst);
                }
                if !answer.delay.is_zero() {
                    std::thread::sleep(answer.delay);
                }
                let mut response =
                    hyper::Response::new(Full::new(Bytes::from_static(answer.body.as_bytes())));
                *response.status_mut() = hyper::StatusCode::from_u16(answer.status).unwrap();
                Ok::<_, std::convert::Infallible>(response)
            }
        });
        let _ = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(stream), service)
            .await;
    });
}

/// A keep-alive server that closes a connection without notice (no `Connection: close`)
/// once it has been idle for `idle_timeout`, or after `close_after` responses.
pub struct IdleClosingServer {
    pub addr: SocketAddr,
    pub served: Arc<Served>,
}

impl IdleClosingServer {
    pub fn start(idle_timeout: Duration, close_after: Option<u64>) -> IdleClosingServer {
        IdleClosingServer::start_with_delay(idle_timeout, close_after, Duration::ZERO)
    }

    pub fn start_with_delay(
        idle_timeout: Duration,
        close_after: Option<u64>,
        delay: Duration,
    ) -> IdleClosingServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let served = Arc::new(Served::default());
        let served_in = served.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                served_in.connections.fetch_add(1, Ordering::Relaxed);
                let served = served_in.clone();
                std::thread::spawn(move || {
                    serve_until_idle(stream, idle_timeout, close_after, delay, &served)
                });
            }
        });
        IdleClosingServer { addr, served }
    }
}

fn serve_until_idle(
    mut stream: TcpStream,
    idle_timeout: Duration,
    close_after: Option<u64>,
    delay: Duration,
    served: &Served,
) {
    precise_timers();
    stream.set_nodelay(true).unwrap();
    stream.set_read_timeout(Some(idle_timeout)).unwrap();
    let mut buf = [0u8; 4096];
    let mut pending = Vec::new();
    let mut answered = 0;
    let mut received = Instant::now();
    loop {
        // Requests here are GETs without a body: one request ends at the blank line.
        while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            pending.drain(..end + 4);
            served.requests.fetch_add(1, Ordering::SeqCst);
            // The delay runs from the moment the request arrived.
            wait_until(received + delay);
            if stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
                .is_err()
            {
                return;
            }
            answered += 1;
            if close_after == Some(answered) {
                return;
            }
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return, // EOF, or idle too long: close silently.
            Ok(n) => {
                received = Instant::now();
                pending.extend_from_slice(&buf[..n]);
            }
        }
    }
}

/// Sleeps to just short of `deadline`, then spins: a sleeping thread wakes
/// late by its scheduler's latency, which on a busy machine is a sizeable
/// share of a 5 ms delay and would be charged to the client under test.
fn wait_until(deadline: Instant) {
    let spin = Duration::from_micros(300);
    let now = Instant::now();
    if deadline > now + spin {
        std::thread::sleep(deadline - now - spin);
    }
    while Instant::now() < deadline {
        std::hint::spin_loop();
    }
}

/// This thread's timer slack at 1 ns: its blocking delays are then precise
/// to a few microseconds.
fn precise_timers() {
    let _ = rustix::thread::set_current_timer_slack(std::num::NonZeroU64::new(1));
}
