//! The built-in reference server: HTTP/1.1 keep-alive on loopback, answering
//! every request with the same 13 bytes ("Hello, world!"), one hyper
//! event loop per thread, each thread pinned to its CPU where asked.

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

use crate::ValidateError;

/// The body every request gets.
pub const BODY: &[u8] = b"Hello, world!";

/// A running reference server; stopped on [`ReferenceServer::stop`] or drop.
pub struct ReferenceServer {
    addr: SocketAddr,
    stopping: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl ReferenceServer {
    /// Listens on `addr` (port 0 for any) with one event-loop thread per
    /// entry of `cpus`, each pinned to that CPU; with `cpus` empty, one
    /// unpinned thread.
    pub fn start(addr: SocketAddr, cpus: &[usize]) -> Result<ReferenceServer, ValidateError> {
        let listener =
            TcpListener::bind(addr).map_err(|source| ValidateError::Bind { addr, source })?;
        listener
            .set_nonblocking(true)
            .map_err(|source| ValidateError::Bind { addr, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| ValidateError::Bind { addr, source })?;
        let stopping = Arc::new(AtomicBool::new(false));
        let placements: Vec<Option<usize>> = if cpus.is_empty() {
            vec![None]
        } else {
            cpus.iter().copied().map(Some).collect()
        };
        let mut server = ReferenceServer {
            addr,
            stopping: stopping.clone(),
            threads: Vec::new(),
        };
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        for (n, cpu) in placements.into_iter().enumerate() {
            let listener = listener
                .try_clone()
                .map_err(|source| ValidateError::Bind { addr, source })?;
            let stopping = stopping.clone();
            let ready = ready_tx.clone();
            let handle = std::thread::Builder::new()
                .name(format!("reprise-reference-{n}"))
                .spawn(move || serve_thread(listener, cpu, &stopping, ready))
                .map_err(|e| ValidateError::Thread(e.to_string()))?;
            server.threads.push(handle);
        }
        drop(ready_tx);
        for _ in 0..server.threads.len() {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(ValidateError::Thread("a server thread ended early".into())),
            }
        }
        Ok(server)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL the load generator is pointed at.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops every thread and closes every connection.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Each accept loop wakes on one connection, sees the flag and ends;
        // its runtime, and every connection on it, is dropped with it.
        for _ in 0..self.threads.len() {
            let _ = TcpStream::connect(self.addr);
        }
        for handle in self.threads.drain(..) {
            let _ = handle.join();
        }
    }
}

impl Drop for ReferenceServer {
    fn drop(&mut self) {
        if !self.threads.is_empty() {
            self.shut_down();
        }
    }
}

fn serve_thread(
    listener: TcpListener,
    cpu: Option<usize>,
    stopping: &AtomicBool,
    ready: std::sync::mpsc::Sender<Result<(), ValidateError>>,
) {
    let setup = || -> Result<(tokio::runtime::Runtime, TcpListener), ValidateError> {
        if let Some(cpu) = cpu {
            reprise_cpus::pin_current_thread(cpu)?;
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .map_err(|e| ValidateError::Thread(e.to_string()))?;
        Ok((runtime, listener))
    };
    let (runtime, listener) = match setup() {
        Ok(parts) => parts,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::from_std(listener) {
            Ok(l) => l,
            Err(e) => {
                let _ = ready.send(Err(ValidateError::Thread(e.to_string())));
                return;
            }
        };
        let _ = ready.send(Ok(()));
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of descriptors, or a connection reset before accept:
                // pause rather than spin (no timer driver on this runtime:
                // it would cost every request a little).
                Err(_) => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    continue;
                }
            };
            if stopping.load(Ordering::SeqCst) {
                return;
            }
            let _ = stream.set_nodelay(true);
            tokio::spawn(serve_connection(stream));
        }
    });
}

/// Serves one connection until the client closes it.
async fn serve_connection(stream: tokio::net::TcpStream) {
    let service = service_fn(|_request: Request<hyper::body::Incoming>| async {
        Ok::<_, Infallible>(Response::new(Full::new(Bytes::from_static(BODY))))
    });
    // One write per response: a 13-byte body is cheaper copied than sent as
    // a second iovec.
    let _ = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .writev(false)
        .serve_connection(TokioIo::new(stream), service)
        .await;
}
