//! A Campfire-shaped server for testing and benchmarking the people load:
//! sign-in with a rate limit, room / history / search pages carrying
//! Campfire's own markers (`meta[name=current-user-id]`, `id="message_<client
//! id>"`, `data-message-id`, permalinks `/rooms/R/@M`, sidebar links with
//! `data-room-id`) and `<turbo-cable-stream-source>` elements, an
//! Action Cable endpoint (`actioncable-v1-json`, pings every 3 s), posting,
//! and an in-memory database whose saved posts `GET /writes` lists.
//!
//! It is not Campfire: it is the smallest server of Campfire's shape, so the
//! generator's checks can be proven against it. `--fault` makes it misbehave
//! in one way: `lost-delivery`, `wrong-room`, `wrong-user`, `unsaved-write`,
//! or `drop-cables` (each person's first cable is told to go away and come
//! back, as Rails does on a restart). `--mint-sessions FILE` writes a session
//! for every account (`email<TAB>cookie` a line) before listening, as a
//! seed step would.
//!
//! Usage: `campfire_shaped_server [--port N] [--accounts N] [--rooms N]
//! [--fault KIND] [--sign-ins-per-s N] [--mint-sessions FILE]`; prints
//! `listening on http://…` first.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use reprise_loadgen::people::roster::{seeded_rooms, user_id};
use reprise_loadgen::websocket::{Kind, read_frame, write_frame};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    LostDelivery,
    WrongRoom,
    WrongUser,
    UnsavedWrite,
    DropCables,
}

struct Post {
    id: u64,
    room: u32,
    user: u32,
    client_id: String,
}

struct Db {
    accounts: u32,
    rooms: u32,
    fault: Fault,
    memberships: Vec<Vec<u32>>,
    sessions: HashMap<String, u32>,
    posts: Vec<Post>,
    /// Stream name → its subscribers.
    streams: HashMap<String, Vec<Subscriber>>,
    next_id: u64,
    counter: u64,
    sign_ins: (Instant, f64),
    sign_ins_per_s: f64,
    /// Users whose cable was already dropped once (`--fault drop-cables`).
    dropped: std::collections::HashSet<u32>,
}

type Shared = Rc<RefCell<Db>>;

/// A cable connection and the identifier it subscribed with.
type Subscriber = (Rc<CableConn>, Rc<str>);

/// One cable's socket. A broadcast writes its frame straight to the socket
/// (one system call a viewer, no task woken); what the socket has no room
/// for waits in the backlog, which the cable's task sends when it can.
struct CableConn {
    id: u64,
    stream: TcpStream,
    backlog: RefCell<Vec<u8>>,
    /// Told when the backlog has bytes.
    backlogged: Notify,
}

impl CableConn {
    fn send(&self, frame: &[u8]) {
        let mut backlog = self.backlog.borrow_mut();
        if !backlog.is_empty() {
            backlog.extend_from_slice(frame);
            return;
        }
        let sent = match self.stream.try_write(frame) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
            // A closed cable: its task sees it too, and unsubscribes it.
            Err(_) => return,
        };
        if sent < frame.len() {
            backlog.extend_from_slice(&frame[sent..]);
            self.backlogged.notify_one();
        }
    }

    /// Sends a text frame.
    fn send_text(&self, text: &str) {
        let mut frame = Vec::with_capacity(text.len() + 4);
        write_frame(&mut frame, Kind::Text, text.as_bytes(), None);
        self.send(&frame);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number =
        |name: &str, default: u32| value(name).and_then(|v| v.parse().ok()).unwrap_or(default);
    let fault = match value("--fault").as_deref() {
        None | Some("none") => Fault::None,
        Some("lost-delivery") => Fault::LostDelivery,
        Some("wrong-room") => Fault::WrongRoom,
        Some("wrong-user") => Fault::WrongUser,
        Some("unsaved-write") => Fault::UnsavedWrite,
        Some("drop-cables") => Fault::DropCables,
        Some(other) => {
            eprintln!("unknown fault {other:?}");
            std::process::exit(2);
        }
    };
    let accounts = number("--accounts", 5000);
    let rooms = number("--rooms", 30);
    let db = Rc::new(RefCell::new(Db {
        accounts,
        rooms,
        fault,
        memberships: (0..accounts).map(|a| seeded_rooms(a, rooms)).collect(),
        sessions: HashMap::new(),
        posts: Vec::new(),
        streams: HashMap::new(),
        next_id: 1,
        counter: 0,
        sign_ins: (Instant::now(), 0.0),
        sign_ins_per_s: f64::from(number("--sign-ins-per-s", 1_000_000)),
        dropped: std::collections::HashSet::new(),
    }));
    if let Some(path) = value("--mint-sessions") {
        let mut lines = String::new();
        let mut db = db.borrow_mut();
        for account in 0..accounts {
            let token = new_session(&mut db, account);
            lines.push_str(&format!(
                "{}\tsession_token={token}\n",
                reprise_loadgen::people::roster::email(account)
            ));
        }
        if let Err(e) = std::fs::write(&path, lines) {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async move {
        let port = number("--port", 0);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port as u16))
            .await
            .expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("a local address");
        println!("listening on http://{addr}");
        let _ = std::io::stdout().flush();
        let mut next_conn = 0u64;
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            next_conn += 1;
            let db = db.clone();
            let conn_id = next_conn;
            tokio::task::spawn_local(async move {
                let service = hyper::service::service_fn(move |req| {
                    let db = db.clone();
                    async move { Ok::<_, std::convert::Infallible>(route(db, req, conn_id).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades()
                    .await;
            });
        }
    });
}

fn reply(status: StatusCode, content_type: &str, body: String) -> Response<Full<Bytes>> {
    Response::builder()
        .status(status)
        .header("Content-Type", content_type)
        .body(Full::new(Bytes::from(body)))
        .expect("a valid response")
}

fn header<'a>(req: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

fn session_user(db: &Db, req: &Request<Incoming>) -> Option<u32> {
    let cookie = header(req, "cookie")?;
    let token = cookie
        .split(';')
        .find_map(|c| c.trim().strip_prefix("session_token="))?;
    db.sessions.get(token).copied()
}

/// Decodes an `application/x-www-form-urlencoded` value.
fn form_decode(v: &str) -> String {
    let bytes = v.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn form_field(form: &str, name: &str) -> Option<String> {
    form.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (form_decode(k) == name).then(|| form_decode(v))
    })
}

/// A stream name signed the way Turbo signs them: its base64, `--`, a digest.
fn sign(stream: &str) -> String {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(format!("\"{stream}\""));
    format!("{encoded}--{:016x}", digest(stream))
}

fn verify(signed: &str) -> Option<String> {
    use base64::Engine;
    let (encoded, _) = signed.split_once("--")?;
    let json = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let stream = std::str::from_utf8(&json)
        .ok()?
        .trim_matches('"')
        .to_owned();
    (sign(&stream) == signed).then_some(stream)
}

fn digest(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3) ^ 0x5eed
    })
}

async fn route(db: Shared, mut req: Request<Incoming>, conn: u64) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or("").to_owned();
    let method = req.method().clone();
    if path == "/cable" {
        return upgrade_cable(db, &mut req, conn);
    }
    if method == hyper::Method::POST && path == "/session" {
        let form = read_form(req).await;
        return sign_in(&db, &form);
    }
    if path == "/up" {
        // Rails' health check, which Campfire keeps.
        return reply(StatusCode::OK, "text/plain", "up".into());
    }
    if path == "/writes" {
        let db = db.borrow();
        let mut out = String::new();
        for post in &db.posts {
            out.push_str(&post.client_id);
            out.push('\n');
        }
        return reply(StatusCode::OK, "text/plain", out);
    }
    let Some(user) = session_user(&db.borrow(), &req) else {
        return reply(StatusCode::UNAUTHORIZED, "text/plain", "sign in".into());
    };
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (&method, parts.as_slice()) {
        (&hyper::Method::GET, ["rooms", room]) => match room.parse() {
            Ok(room) => room_page(&db, user, room),
            Err(_) => reply(StatusCode::NOT_FOUND, "text/plain", "no room".into()),
        },
        (&hyper::Method::GET, ["rooms", room, "messages"]) => {
            let before = query
                .strip_prefix("before=")
                .and_then(|b| b.parse().ok())
                .unwrap_or(u64::MAX);
            match room.parse() {
                Ok(room) => history(&db, user, room, before),
                Err(_) => reply(StatusCode::NOT_FOUND, "text/plain", "no room".into()),
            }
        }
        (&hyper::Method::GET, ["searches"]) => search_page(&db, user),
        (&hyper::Method::POST, ["rooms", room, "messages"]) => {
            let Ok(room) = room.parse() else {
                return reply(StatusCode::NOT_FOUND, "text/plain", "no room".into());
            };
            let form = read_form(req).await;
            post(&db, user, room, &form)
        }
        _ => reply(StatusCode::NOT_FOUND, "text/plain", "not found".into()),
    }
}

async fn read_form(req: Request<Incoming>) -> String {
    match req.into_body().collect().await {
        Ok(body) => String::from_utf8_lossy(&body.to_bytes()).into_owned(),
        Err(_) => String::new(),
    }
}

fn sign_in(db: &Shared, form: &str) -> Response<Full<Bytes>> {
    let mut db = db.borrow_mut();
    // A token bucket of one second's sign-ins, like Campfire's rate limit.
    let (at, tokens) = db.sign_ins;
    let rate = db.sign_ins_per_s;
    let tokens = (tokens + at.elapsed().as_secs_f64() * rate).min(rate.max(1.0));
    if tokens < 1.0 {
        db.sign_ins = (Instant::now(), tokens);
        return reply(
            StatusCode::TOO_MANY_REQUESTS,
            "text/plain",
            "slow down".into(),
        );
    }
    db.sign_ins = (Instant::now(), tokens - 1.0);
    let account = form_field(form, "email_address")
        .and_then(|e| {
            e.strip_prefix("person")?
                .strip_suffix("@example.test")?
                .parse::<u32>()
                .ok()
        })
        .filter(|&a| a < db.accounts);
    let (Some(account), Some("secret123")) = (account, form_field(form, "password").as_deref())
    else {
        return reply(
            StatusCode::UNPROCESSABLE_ENTITY,
            "text/html",
            "<p>wrong</p>".into(),
        );
    };
    let token = new_session(&mut db, account);
    Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header("Location", "/")
        .header(
            "Set-Cookie",
            format!("session_token={token}; path=/; HttpOnly"),
        )
        .body(Full::new(Bytes::new()))
        .expect("a valid response")
}

/// A new session for `account`: its token.
fn new_session(db: &mut Db, account: u32) -> String {
    db.counter += 1;
    let token = format!(
        "{:016x}{:08x}",
        digest(&format!("{account}/{}", db.counter)),
        db.counter
    );
    db.sessions.insert(token.clone(), user_id(account));
    token
}

fn rooms_of(db: &Db, user: u32) -> &[u32] {
    &db.memberships[(user - 1) as usize]
}

/// The page's frame: user marker, sidebar and the user's own stream.
fn layout(db: &mut Db, user: u32, out: &mut String) {
    db.counter += 1;
    let shown = if db.fault == Fault::WrongUser && db.counter.is_multiple_of(5) {
        user % db.accounts + 1
    } else {
        user
    };
    out.push_str(&format!(
        "<!DOCTYPE html><html><head><meta name=\"current-user-id\" content=\"{shown}\" /></head><body><nav>"
    ));
    for room in rooms_of(db, user) {
        out.push_str(&format!(
            "<a class=\"room btn\" data-room-id=\"{room}\" href=\"/rooms/{room}\">Room {room}</a>"
        ));
    }
    out.push_str("</nav>");
    stream_source(out, &format!("user:{user}"));
}

fn stream_source(out: &mut String, stream: &str) {
    out.push_str(&format!(
        "<turbo-cable-stream-source channel=\"Turbo::StreamsChannel\" signed-stream-name=\"{}\"></turbo-cable-stream-source>",
        sign(stream)
    ));
}

fn message_html(post: &Post) -> String {
    format!(
        "<div id=\"message_{client}\" class=\"message\" data-user-id=\"{user}\" data-message-id=\"{id}\"><a class=\"message__permalink\" target=\"_top\" href=\"/rooms/{room}/@{id}\">#</a>person {user}: hello</div>",
        id = post.id,
        room = post.room,
        client = post.client_id,
        user = post.user
    )
}

fn messages(db: &Db, room: u32, before: u64, out: &mut String) {
    let mut shown: Vec<&Post> = db
        .posts
        .iter()
        .rev()
        .filter(|p| p.room == room && p.id < before)
        .take(20)
        .collect();
    shown.reverse();
    for post in shown {
        out.push_str(&message_html(post));
    }
}

fn room_page(db: &Shared, user: u32, room: u32) -> Response<Full<Bytes>> {
    let mut db = db.borrow_mut();
    if !rooms_of(&db, user).contains(&room) {
        return reply(StatusCode::NOT_FOUND, "text/plain", "not a member".into());
    }
    let mut out = String::with_capacity(8192);
    layout(&mut db, user, &mut out);
    stream_source(&mut out, &format!("room:{room}"));
    out.push_str("<main>");
    messages(&db, room, u64::MAX, &mut out);
    if db.fault == Fault::WrongRoom
        && db.counter.is_multiple_of(5)
        && let Some(stray) = db.posts.iter().rev().find(|p| p.room != room)
    {
        out.push_str(&message_html(stray));
    }
    out.push_str("</main></body></html>");
    reply(StatusCode::OK, "text/html", out)
}

fn history(db: &Shared, user: u32, room: u32, before: u64) -> Response<Full<Bytes>> {
    let db = db.borrow();
    if !rooms_of(&db, user).contains(&room) {
        return reply(StatusCode::NOT_FOUND, "text/plain", "not a member".into());
    }
    let mut out = String::with_capacity(4096);
    messages(&db, room, before, &mut out);
    reply(StatusCode::OK, "text/html", out)
}

fn search_page(db: &Shared, user: u32) -> Response<Full<Bytes>> {
    let mut db = db.borrow_mut();
    let mut out = String::with_capacity(4096);
    layout(&mut db, user, &mut out);
    out.push_str("<main>");
    let rooms = rooms_of(&db, user);
    for post in db
        .posts
        .iter()
        .rev()
        .filter(|p| rooms.contains(&p.room))
        .take(10)
    {
        out.push_str(&message_html(post));
    }
    out.push_str("</main></body></html>");
    reply(StatusCode::OK, "text/html", out)
}

fn post(db: &Shared, user: u32, room: u32, form: &str) -> Response<Full<Bytes>> {
    let mut db = db.borrow_mut();
    if !rooms_of(&db, user).contains(&room) {
        return reply(StatusCode::NOT_FOUND, "text/plain", "not a member".into());
    }
    let Some(client_id) = form_field(form, "message[client_message_id]") else {
        return reply(
            StatusCode::UNPROCESSABLE_ENTITY,
            "text/plain",
            "no id".into(),
        );
    };
    let id = db.next_id;
    db.next_id += 1;
    let post = Post {
        id,
        room,
        user,
        client_id,
    };
    let stream = format!(
        "<turbo-stream action=\"append\" target=\"messages\"><template>{}</template></turbo-stream>",
        message_html(&post)
    );
    let fault = db.fault;
    let unlucky = id.is_multiple_of(3);
    if !(fault == Fault::LostDelivery && unlucky) {
        send(&db, &format!("room:{room}"), &stream);
    }
    if fault == Fault::WrongRoom && unlucky {
        let other = room % db.rooms + 1;
        send(&db, &format!("room:{other}"), &stream);
    }
    if !(fault == Fault::UnsavedWrite && unlucky) {
        db.posts.push(post);
    }
    reply(StatusCode::CREATED, "text/vnd.turbo-stream.html", stream)
}

fn send(db: &Db, stream: &str, html: &str) {
    // Everyone on a stream subscribed with the same identifier: one frame serves them all.
    let mut frames: Vec<(Rc<str>, Vec<u8>)> = Vec::new();
    for (conn, identifier) in db.streams.get(stream).into_iter().flatten() {
        let at = match frames.iter().position(|(i, _)| i == identifier) {
            Some(at) => at,
            None => {
                let json = serde_json::json!({ "identifier": &**identifier, "message": html });
                let mut frame = Vec::new();
                write_frame(&mut frame, Kind::Text, json.to_string().as_bytes(), None);
                frames.push((identifier.clone(), frame));
                frames.len() - 1
            }
        };
        conn.send(&frames[at].1);
    }
}

fn upgrade_cable(db: Shared, req: &mut Request<Incoming>, conn: u64) -> Response<Full<Bytes>> {
    let user = session_user(&db.borrow(), req);
    let protocol_ok = header(req, "sec-websocket-protocol")
        .is_some_and(|p| p.split(',').any(|p| p.trim() == "actioncable-v1-json"));
    let (Some(user), true, Some(key)) = (user, protocol_ok, header(req, "sec-websocket-key"))
    else {
        return reply(StatusCode::FORBIDDEN, "text/plain", "no session".into());
    };
    let accept = derive_accept_key(key.as_bytes());
    let upgrade = hyper::upgrade::on(req);
    tokio::task::spawn_local(async move {
        let Ok(upgraded) = upgrade.await else { return };
        // The socket itself, with what the client sent after its request.
        let Ok(parts) = upgraded.downcast::<TokioIo<TcpStream>>() else {
            return;
        };
        let cable = Rc::new(CableConn {
            id: conn,
            stream: parts.io.into_inner(),
            backlog: RefCell::new(Vec::new()),
            backlogged: Notify::new(),
        });
        serve_cable(&db, &cable, user, parts.read_buf.to_vec()).await;
        for subscribers in db.borrow_mut().streams.values_mut() {
            subscribers.retain(|(c, _)| c.id != conn);
        }
    });
    Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header("Upgrade", "websocket")
        .header("Connection", "Upgrade")
        .header("Sec-WebSocket-Accept", accept)
        .header("Sec-WebSocket-Protocol", "actioncable-v1-json")
        .body(Full::new(Bytes::new()))
        .expect("a valid response")
}

/// Serves one cable until it closes: its commands, its pings every 3 s,
/// and its backlog.
async fn serve_cable(db: &Shared, cable: &Rc<CableConn>, user: u32, mut input: Vec<u8>) {
    cable.send_text(r#"{"type":"welcome"}"#);
    let mut ping = tokio::time::interval(Duration::from_secs(3));
    let drop_at = {
        let mut db = db.borrow_mut();
        (db.fault == Fault::DropCables && db.dropped.insert(user))
            .then(|| tokio::time::Instant::now() + Duration::from_millis(800))
    };
    let dropping = tokio::time::sleep_until(drop_at.unwrap_or_else(tokio::time::Instant::now));
    tokio::pin!(dropping);
    let mut chunk = [0u8; 4096];
    loop {
        // Commands that came whole are carried out, in order.
        let mut used = 0;
        loop {
            match read_frame(&mut input[used..]) {
                Ok(Some(frame)) => {
                    let payload = &input[used..][frame.payload.clone()];
                    used += frame.len;
                    match frame.kind {
                        Kind::Text => {
                            let text = std::str::from_utf8(payload).unwrap_or("");
                            if let Some(reply) = command(db, text, user, cable) {
                                cable.send_text(&reply);
                            }
                        }
                        Kind::Close => return,
                        _ => {}
                    }
                }
                Ok(None) => break,
                Err(_) => return,
            }
        }
        input.drain(..used);
        let backlogged = !cable.backlog.borrow().is_empty();
        tokio::select! {
            readable = cable.stream.readable() => {
                if readable.is_err() {
                    return;
                }
                match cable.stream.try_read(&mut chunk) {
                    Ok(0) => return,
                    Ok(n) => input.extend_from_slice(&chunk[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(_) => return,
                }
            }
            writable = cable.stream.writable(), if backlogged => {
                if writable.is_err() {
                    return;
                }
                let mut backlog = cable.backlog.borrow_mut();
                match cable.stream.try_write(&backlog) {
                    Ok(n) => drop(backlog.drain(..n)),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(_) => return,
                }
            }
            () = cable.backlogged.notified(), if !backlogged => {}
            _ = ping.tick() => {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
                cable.send_text(&format!(r#"{{"type":"ping","message":{now}}}"#));
            }
            () = &mut dropping, if drop_at.is_some() => {
                cable.send_text(r#"{"type":"disconnect","reason":"server_restart","reconnect":true}"#);
                let mut close = Vec::new();
                write_frame(&mut close, Kind::Close, &[], None);
                cable.send(&close);
                return;
            }
        }
    }
}

/// Carries out one cable command; the reply to send, if any.
fn command(db: &Shared, text: &str, user: u32, cable: &Rc<CableConn>) -> Option<String> {
    let command: serde_json::Value = serde_json::from_str(text).ok()?;
    let identifier = command["identifier"].as_str()?.to_owned();
    let params: serde_json::Value = serde_json::from_str(&identifier).ok()?;
    let stream = params["signed_stream_name"].as_str().and_then(verify);
    let mut db = db.borrow_mut();
    match command["command"].as_str()? {
        "subscribe" => {
            let allowed = stream.as_deref().is_some_and(|s| {
                s == format!("user:{user}")
                    || s.strip_prefix("room:")
                        .and_then(|r| r.parse::<u32>().ok())
                        .is_some_and(|r| rooms_of(&db, user).contains(&r))
            });
            let kind = match (allowed, stream) {
                (true, Some(stream)) => {
                    let subscribers = db.streams.entry(stream).or_default();
                    if subscribers
                        .iter()
                        .any(|(c, i)| c.id == cable.id && **i == *identifier)
                    {
                        return None; // a duplicate, as Action Cable treats it: no answer
                    }
                    subscribers.push((cable.clone(), Rc::from(identifier.as_str())));
                    "confirm_subscription"
                }
                _ => "reject_subscription",
            };
            Some(serde_json::json!({ "type": kind, "identifier": identifier }).to_string())
        }
        "unsubscribe" => {
            if let Some(subscribers) = stream.and_then(|s| db.streams.get_mut(&s)) {
                subscribers.retain(|(c, i)| !(c.id == cable.id && **i == *identifier));
            }
            None
        }
        _ => None,
    }
}
