//! What a fetch of a large repository holds in memory, against a local HTTP
//! server (hyper, on 127.0.0.1) that stands in for api.github.com: it
//! speaks GitHub's GraphQL wire format for a repository's discussions,
//! making each page's posts as it answers (so that the stand-in itself
//! holds nothing), every post with a result block near the 64 KiB a block
//! may be. Every allocation of this test program is counted: a fetch of far
//! more blocks than the cache keeps must stay near the cache's bounds, not
//! grow with the repository. No test talks to the internet.

use std::alloc::{GlobalAlloc, Layout, System};
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use reprise_share::GitHub;
use reprise_share::community::{Cache, MAX_BLOCKS, refresh};

/// Counts the bytes allocated now and the most there have been.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, size) };
        if !q.is_null() {
            if size > layout.size() {
                let now =
                    NOW.fetch_add(size - layout.size(), Ordering::Relaxed) + (size - layout.size());
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                NOW.fetch_sub(layout.size() - size, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

const PAGES: usize = 40;
const PER_PAGE: usize = 50;
/// A block's text: near [`reprise_share::community::MAX_BLOCK`].
const BLOCK: usize = 60_000;

/// Page `k` (from `after: "c{k}"`): 50 posts, newest first.
fn page(k: usize) -> String {
    let block = "x".repeat(BLOCK);
    let nodes: Vec<serde_json::Value> = (0..PER_PAGE)
        .map(|i| {
            let n = PAGES * PER_PAGE - (k * PER_PAGE + i);
            serde_json::json!({
                "id": format!("D_{n}"), "number": n, "title": "a result",
                "updatedAt": format!("2026-12-01T{:02}:{:02}:{:02}Z", n / 3600, n / 60 % 60, n % 60),
                "body": format!("```reprise-result v1\n{block}\n```\n"),
                "author": {"login": format!("reader-{n}")}
            })
        })
        .collect();
    serde_json::json!({"data": {"viewer": {"login": "me"}, "repository": {"discussions": {
        "totalCount": PAGES * PER_PAGE,
        "pageInfo": {"hasNextPage": k + 1 < PAGES, "endCursor": format!("c{}", k + 1)},
        "nodes": nodes
    }}}})
    .to_string()
}

async fn answer(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let asked: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let k = asked["variables"]["after"]
        .as_str()
        .and_then(|c| c.strip_prefix('c'))
        .and_then(|k| k.parse().ok())
        .unwrap_or(0);
    Ok(Response::builder()
        .header("content-type", "application/json")
        .header("x-ratelimit-remaining", "4000")
        .header("x-ratelimit-reset", "1900000000")
        .body(Full::new(Bytes::from(page(k))))
        .unwrap())
}

fn stand_in() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            while let Ok((stream, _)) = listener.accept().await {
                let service = hyper::service::service_fn(answer);
                tokio::spawn(async move {
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, service)
                        .await;
                });
            }
        });
    });
    let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    format!("http://{addr}")
}

/// 2,000 blocks of 60 KB (about 115 MiB of them) are read; the cache keeps
/// the newest 32 MiB, and the fetch never holds much more than that.
#[test]
fn a_fetch_of_a_large_repository_holds_about_what_the_cache_keeps() {
    let base = stand_in();
    let github = GitHub::new(&base, &base);
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), "rubys/reprise").unwrap();
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let done = refresh(
        &github,
        "gho_16C7e42F292c6912E7710c838347Ae178B4a",
        &mut cache,
    )
    .unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(done.pages, PAGES);
    let kept = cache.discussions.len();
    assert!(kept * BLOCK <= MAX_BLOCKS && kept > 400, "{kept}");
    assert_eq!(cache.dropped, PAGES * PER_PAGE - kept);
    assert_eq!(
        cache.discussions[0].number,
        (PAGES * PER_PAGE) as u64,
        "the newest kept"
    );
    let read = PAGES * PER_PAGE * BLOCK;
    assert!(
        peak < MAX_BLOCKS + 48 * 1024 * 1024,
        "peaked at {} MiB reading {} MiB of blocks (the cache keeps {} MiB)",
        peak >> 20,
        read >> 20,
        MAX_BLOCKS >> 20
    );
}
