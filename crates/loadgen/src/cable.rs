//! An Action Cable client: the `actioncable-v1-json` subprotocol over
//! tokio-tungstenite — welcome, subscribe / confirm / reject, unsubscribe,
//! pings and messages. Like `@rails/actioncable`, a subscribe that is not
//! confirmed within 500 ms is sent again; the re-sends are counted (post 004:
//! they reveal commands the server processed out of order). The protocol
//! itself is kept apart from the socket, so that the people's cables, on
//! their threads' event loops, speak it the same way.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// The subprotocol Action Cable speaks.
pub const CABLE_PROTOCOL: &str = "actioncable-v1-json";
/// How long a subscribe may stay unconfirmed before it is sent again.
pub const RESUBSCRIBE_AFTER: Duration = Duration::from_millis(500);
/// A connection with no ping for this long is stale (the server pings every 3 s).
pub const STALE_AFTER: Duration = Duration::from_secs(6);

/// Why the cable failed.
#[derive(Debug, thiserror::Error)]
pub enum CableError {
    #[error("bad cable URL {url:?}: {reason}")]
    Url { url: String, reason: String },
    #[error("WebSocket: {0}")]
    WebSocket(String),
    /// The upgrade was answered with another status than 101: the status
    /// line's code and reason.
    #[error("WebSocket: HTTP error: {0}")]
    UpgradeRefused(String),
    #[error("WebSocket: the server's Sec-WebSocket-Accept does not match the key")]
    AcceptMismatch,
    #[error("WebSocket: the server did not take the {CABLE_PROTOCOL} subprotocol")]
    NoSubprotocol,
    #[error("the server did not send a welcome within {0:?}")]
    NoWelcome(Duration),
    #[error("the server refused the connection: {0}")]
    Refused(String),
    #[error("the server closed the cable")]
    Closed,
    #[error("unreadable cable frame {frame:?}: {reason}")]
    Frame { frame: String, reason: String },
}

/// How to open a cable: its URL and the browser's headers (`Debug` hides the cookie).
#[derive(Clone)]
pub struct CableConfig {
    /// e.g. `ws://127.0.0.1:3000/cable`.
    pub url: String,
    /// The `Cookie` header the page's session sends on the upgrade request.
    pub cookie: Option<String>,
    /// The `Origin` header, e.g. `http://127.0.0.1:3000`.
    pub origin: Option<String>,
    /// How long to wait for the connection and the welcome.
    pub timeout: Duration,
}

impl std::fmt::Debug for CableConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CableConfig")
            .field("url", &self.url)
            .field("cookie", &crate::secret::presence(&self.cookie))
            .field("origin", &self.origin)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl CableConfig {
    pub fn new(url: impl Into<String>) -> CableConfig {
        CableConfig {
            url: url.into(),
            cookie: None,
            origin: None,
            timeout: Duration::from_secs(5),
        }
    }
}

/// Something the server sent.
#[derive(Debug, Clone, PartialEq)]
pub enum CableEvent {
    Ping,
    Confirmed(String),
    Rejected(String),
    /// A broadcast on a subscription: its identifier and its message.
    Message {
        identifier: String,
        message: serde_json::Value,
    },
    /// The server asked the client to go away; `reconnect` says whether it
    /// may come back (as `@rails/actioncable` reads it: absent is no).
    Disconnect {
        reason: Option<String>,
        reconnect: bool,
    },
}

/// Where one subscription stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionState {
    /// Sent, not yet answered; `since` is when it was last sent.
    Pending {
        since: Instant,
    },
    Confirmed,
    Rejected,
}

/// A frame from the server, its fields borrowed from the frame's text.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    identifier: Option<&'a RawValue>,
    #[serde(borrow, default)]
    message: Option<&'a RawValue>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    reconnect: Option<bool>,
}

/// What the server said, as [`CableProtocol::read`] reads it: a broadcast
/// keeps its identifier and message as the JSON they came as, so a reader
/// that needs neither copies neither.
#[derive(Debug, Clone)]
pub(crate) enum ServerMessage<'a> {
    Welcome,
    Ping,
    Confirmed(String),
    Rejected(String),
    Message {
        /// A JSON string literal.
        identifier: &'a RawValue,
        message: &'a RawValue,
    },
    Disconnect {
        reason: Option<String>,
        reconnect: bool,
    },
}

impl ServerMessage<'_> {
    /// As [`CableEvent`] (the welcome is none).
    fn into_event(self) -> Result<Option<CableEvent>, CableError> {
        Ok(Some(match self {
            ServerMessage::Welcome => return Ok(None),
            ServerMessage::Ping => CableEvent::Ping,
            ServerMessage::Confirmed(id) => CableEvent::Confirmed(id),
            ServerMessage::Rejected(id) => CableEvent::Rejected(id),
            ServerMessage::Message {
                identifier,
                message,
            } => CableEvent::Message {
                identifier: json_string(identifier)?,
                message: match unescape_json_string(message.get()) {
                    Some(text) => serde_json::Value::String(text),
                    // Not a string, or an escape this does not read: serde_json says what it is.
                    None => serde_json::from_str(message.get())
                        .map_err(|e| frame_error(message.get(), e))?,
                },
            },
            ServerMessage::Disconnect { reason, reconnect } => {
                CableEvent::Disconnect { reason, reconnect }
            }
        }))
    }
}

/// The text of a JSON string literal, or why it is none.
fn json_string(raw: &RawValue) -> Result<String, CableError> {
    unescape_json_string(raw.get())
        .map_or_else(|| serde_json::from_str(raw.get()), Ok)
        .map_err(|e| frame_error(raw.get(), e))
}

fn frame_error(frame: &str, reason: impl std::fmt::Display) -> CableError {
    CableError::Frame {
        frame: frame.chars().take(200).collect(),
        reason: reason.to_string(),
    }
}

/// `actioncable-v1-json` without the socket: the commands to send, the
/// subscriptions and their answers, pings, and the subscribes due to be sent
/// again. [`Cable`] runs it over tokio-tungstenite; the people run it over
/// their thread's event loop.
#[derive(Debug, Clone)]
pub(crate) struct CableProtocol {
    /// Subscribed and not unsubscribed, in the order subscribed (a page has a few).
    subscriptions: Vec<(String, SubscriptionState)>,
    /// When the earliest unanswered subscribe is due to be sent again: kept,
    /// as a person's event loop asks at every event.
    resend_at: Option<Instant>,
    last_ping: Instant,
    resends: u64,
}

impl CableProtocol {
    /// A connection opened at `now`.
    pub fn new(now: Instant) -> CableProtocol {
        CableProtocol {
            subscriptions: Vec::new(),
            resend_at: None,
            last_ping: now,
            resends: 0,
        }
    }

    /// The subscribe command for `identifier`, which waits for its answer from `now`.
    pub fn subscribe(&mut self, identifier: &str, now: Instant) -> String {
        let pending = SubscriptionState::Pending { since: now };
        match self
            .subscriptions
            .iter_mut()
            .find(|(id, _)| id == identifier)
        {
            Some((_, state)) => *state = pending,
            None => self.subscriptions.push((identifier.to_owned(), pending)),
        }
        self.answers_changed();
        command("subscribe", identifier, None)
    }

    /// The unsubscribe command; the subscription is forgotten.
    pub fn unsubscribe(&mut self, identifier: &str) -> String {
        self.subscriptions.retain(|(id, _)| id != identifier);
        self.answers_changed();
        command("unsubscribe", identifier, None)
    }

    /// A new connection at `now`: every subscription waits for its answer
    /// again; their subscribe commands, to send on it.
    pub fn reopened(&mut self, now: Instant) -> Vec<String> {
        self.last_ping = now;
        let ids: Vec<String> = self
            .subscriptions
            .iter()
            .map(|(id, _)| id.clone())
            .collect();
        ids.iter().map(|id| self.subscribe(id, now)).collect()
    }

    pub fn subscription(&self, identifier: &str) -> Option<SubscriptionState> {
        self.subscriptions
            .iter()
            .find(|(id, _)| id == identifier)
            .map(|(_, state)| *state)
    }

    /// Every subscription standing, in the order subscribed.
    pub fn subscribed(&self) -> Vec<String> {
        self.subscriptions
            .iter()
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Whether a subscription still waits for its answer.
    pub fn any_pending(&self) -> bool {
        self.resend_at.is_some()
    }

    /// The identifiers still waiting for their answer.
    pub fn pending(&self) -> impl Iterator<Item = &str> {
        self.subscriptions.iter().filter_map(|(id, s)| match s {
            SubscriptionState::Pending { .. } => Some(id.as_str()),
            _ => None,
        })
    }

    pub fn resends(&self) -> u64 {
        self.resends
    }

    pub fn last_ping(&self) -> Instant {
        self.last_ping
    }

    pub fn is_stale(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last_ping) > STALE_AFTER
    }

    /// When the next unanswered subscribe is due to be sent again.
    pub fn next_resend(&self) -> Option<Instant> {
        self.resend_at
    }

    fn answers_changed(&mut self) {
        self.resend_at = (self.subscriptions.iter())
            .filter_map(|(_, s)| match s {
                SubscriptionState::Pending { since } => Some(*since + RESUBSCRIBE_AFTER),
                _ => None,
            })
            .min();
    }

    /// The server answered the subscription `raw` names (a JSON string):
    /// its identifier, and whether it was standing.
    fn answered(
        &mut self,
        raw: &RawValue,
        state: SubscriptionState,
    ) -> Result<(String, bool), CableError> {
        let id = json_string(raw)?;
        let found = self.subscriptions.iter_mut().find(|(i, _)| *i == id);
        let standing = found.map(|(_, s)| *s = state).is_some();
        self.answers_changed();
        Ok((id, standing))
    }

    /// The subscribes unanswered for [`RESUBSCRIBE_AFTER`] at `now`, sent
    /// again (as `@rails/actioncable` does) and counted.
    pub fn resend_due(&mut self, now: Instant) -> Vec<String> {
        let mut due = Vec::new();
        for (id, state) in &mut self.subscriptions {
            if let SubscriptionState::Pending { since } = state
                && *since + RESUBSCRIBE_AFTER <= now
            {
                *state = SubscriptionState::Pending { since: now };
                due.push(command("subscribe", id, None));
            }
        }
        self.resends += due.len() as u64;
        self.answers_changed();
        due
    }

    /// Reads one text frame the server sent at `now`. `None`: nothing a
    /// reader acts on (an answer for a subscription since left, a frame of
    /// no type this knows without its identifier and message).
    pub fn read<'a>(
        &mut self,
        text: &'a str,
        now: Instant,
    ) -> Result<Option<ServerMessage<'a>>, CableError> {
        let incoming: Incoming<'a> =
            serde_json::from_str(text).map_err(|e| frame_error(text, e))?;
        Ok(match incoming.kind.as_deref() {
            Some("ping") => {
                self.last_ping = now;
                Some(ServerMessage::Ping)
            }
            Some("welcome") => Some(ServerMessage::Welcome),
            // An answer for a subscription since unsubscribed is stale news.
            Some("confirm_subscription") => match incoming.identifier {
                Some(raw) => match self.answered(raw, SubscriptionState::Confirmed)? {
                    (id, true) => Some(ServerMessage::Confirmed(id)),
                    (_, false) => None,
                },
                None => None,
            },
            Some("reject_subscription") => match incoming.identifier {
                Some(raw) => Some(ServerMessage::Rejected(
                    self.answered(raw, SubscriptionState::Rejected)?.0,
                )),
                None => None,
            },
            Some("disconnect") => Some(ServerMessage::Disconnect {
                reason: incoming.reason,
                reconnect: incoming.reconnect.unwrap_or(false),
            }),
            _ => match (incoming.identifier, incoming.message) {
                (Some(identifier), _) if !identifier.get().starts_with('"') => {
                    let why = format!("the identifier {} is not a string", identifier.get());
                    return Err(frame_error(text, why));
                }
                (Some(identifier), Some(message)) => Some(ServerMessage::Message {
                    identifier,
                    message,
                }),
                _ => None,
            },
        })
    }
}

/// A command's text.
fn command(command: &str, identifier: &str, data: Option<&str>) -> String {
    let mut text = serde_json::json!({ "command": command, "identifier": identifier });
    if let Some(data) = data {
        text["data"] = serde_json::Value::String(data.to_owned());
    }
    text.to_string()
}

/// The text of a JSON string literal (quotes included, syntax already
/// checked), or `None` for anything else and for a lone surrogate escape.
/// serde_json would grow a scratch buffer for each string with escapes and
/// then copy it out: for the people, every delivery's HTML would cost a
/// dozen allocations.
fn unescape_json_string(literal: &str) -> Option<String> {
    let mut text = String::new();
    unescape_json_string_into(literal, &mut text).then_some(text)
}

/// As [`unescape_json_string`], into `text` (cleared first, its room
/// reused); false for anything but a string literal this reads.
pub(crate) fn unescape_json_string_into(literal: &str, text: &mut String) -> bool {
    text.clear();
    let Some(mut rest) = literal.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else {
        return false;
    };
    text.reserve(rest.len());
    let hex = |digits: Option<&str>| u32::from_str_radix(digits?, 16).ok();
    while let Some(at) = rest.find('\\') {
        text.push_str(&rest[..at]);
        let Some(&escape) = rest.as_bytes().get(at + 1) else {
            return false;
        };
        let Some(after) = rest.get(at + 2..) else {
            return false;
        };
        rest = after;
        let c = match escape {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let Some(unit) = hex(rest.get(..4)) else {
                    return false;
                };
                rest = &rest[4..];
                let c = if (0xD800..0xDC00).contains(&unit) {
                    let low = hex(rest.strip_prefix("\\u").and_then(|r| r.get(..4)))
                        .filter(|low| (0xDC00..0xE000).contains(low));
                    let Some(low) = low else {
                        return false;
                    };
                    rest = &rest[6..];
                    char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    char::from_u32(unit)
                };
                let Some(c) = c else {
                    return false;
                };
                c
            }
            _ => return false,
        };
        text.push(c);
    }
    text.push_str(rest);
    true
}

/// One open Action Cable connection.
pub struct Cable {
    ws: WebSocketStream<TcpStream>,
    protocol: CableProtocol,
}

impl Cable {
    /// Opens the WebSocket with the Action Cable subprotocol and waits for the welcome.
    pub async fn connect(config: &CableConfig) -> Result<Cable, CableError> {
        let bad_url = |reason: String| CableError::Url {
            url: config.url.clone(),
            reason,
        };
        let mut request = config
            .url
            .as_str()
            .into_client_request()
            .map_err(|e| bad_url(e.to_string()))?;
        let host = request
            .uri()
            .authority()
            .map(|a| a.to_string())
            .ok_or_else(|| bad_url("no host".into()))?;
        let headers = request.headers_mut();
        let value = |v: &str| HeaderValue::from_str(v).map_err(|e| bad_url(e.to_string()));
        headers.insert("Sec-WebSocket-Protocol", value(CABLE_PROTOCOL)?);
        if let Some(cookie) = &config.cookie {
            headers.insert("Cookie", value(cookie)?);
        }
        if let Some(origin) = &config.origin {
            headers.insert("Origin", value(origin)?);
        }
        let open = async {
            let stream = TcpStream::connect(&host)
                .await
                .map_err(|e| CableError::WebSocket(format!("connecting to {host}: {e}")))?;
            stream
                .set_nodelay(true)
                .map_err(|e| CableError::WebSocket(e.to_string()))?;
            // Small buffers: a cable carries short frames (a delivery is
            // ~600 bytes), and the default 128 KiB read buffer is zeroed on
            // every read.
            let buffers = WebSocketConfig::default()
                .read_buffer_size(2048)
                .write_buffer_size(0);
            let (ws, _response) =
                tokio_tungstenite::client_async_with_config(request, stream, Some(buffers))
                    .await
                    .map_err(|e| CableError::WebSocket(e.to_string()))?;
            let mut cable = Cable {
                ws,
                protocol: CableProtocol::new(Instant::now()),
            };
            loop {
                let text = cable.read().await?;
                match cable.protocol.read(&text, Instant::now())? {
                    Some(ServerMessage::Welcome) => return Ok(cable),
                    Some(ServerMessage::Disconnect { reason, .. }) => {
                        return Err(CableError::Refused(reason.unwrap_or_default()));
                    }
                    _ => continue,
                }
            }
        };
        tokio::time::timeout(config.timeout, open)
            .await
            .map_err(|_| CableError::NoWelcome(config.timeout))?
    }

    /// Sends a subscribe for `identifier` (a JSON object as text, e.g.
    /// `{"channel":"RoomChannel","room":1}`), re-sent until answered.
    pub async fn subscribe(&mut self, identifier: &str) -> Result<(), CableError> {
        let command = self.protocol.subscribe(identifier, Instant::now());
        self.send(command).await
    }

    /// Sends an unsubscribe and forgets the subscription.
    pub async fn unsubscribe(&mut self, identifier: &str) -> Result<(), CableError> {
        let command = self.protocol.unsubscribe(identifier);
        self.send(command).await
    }

    /// Calls a channel action: `data` is the action's JSON object, with its `action` key.
    pub async fn perform(
        &mut self,
        identifier: &str,
        data: &serde_json::Value,
    ) -> Result<(), CableError> {
        let data = data.to_string();
        self.send(command("message", identifier, Some(&data))).await
    }

    async fn send(&mut self, command: String) -> Result<(), CableError> {
        self.ws
            .send(Message::text(command))
            .await
            .map_err(|e| CableError::WebSocket(e.to_string()))
    }

    /// Where a subscription stands, if it was subscribed and not unsubscribed.
    pub fn subscription(&self, identifier: &str) -> Option<SubscriptionState> {
        self.protocol.subscription(identifier)
    }

    /// How many subscribes were sent again for want of a confirmation.
    pub fn resends(&self) -> u64 {
        self.protocol.resends()
    }

    /// When the server last pinged (or the connection opened).
    pub fn last_ping(&self) -> Instant {
        self.protocol.last_ping()
    }

    /// Whether the server has not pinged for longer than [`STALE_AFTER`].
    pub fn is_stale(&self, now: Instant) -> bool {
        self.protocol.is_stale(now)
    }

    /// Closes the WebSocket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }

    /// The next thing the server says; meanwhile re-sends unconfirmed subscribes.
    ///
    /// Cancel-safe: it can be raced against other futures in a `select!`.
    pub async fn next_event(&mut self) -> Result<CableEvent, CableError> {
        loop {
            let text = match self.protocol.next_resend() {
                Some(at) => tokio::select! {
                    text = self.read() => text?,
                    _ = tokio::time::sleep_until(at.into()) => {
                        for command in self.protocol.resend_due(Instant::now()) {
                            self.send(command).await?;
                        }
                        continue;
                    }
                },
                None => self.read().await?,
            };
            let said = self.protocol.read(&text, Instant::now())?;
            if let Some(event) = said.map(ServerMessage::into_event).transpose()?.flatten() {
                return Ok(event);
            }
        }
    }

    /// The next text frame.
    async fn read(&mut self) -> Result<Utf8Bytes, CableError> {
        loop {
            match self.ws.next().await {
                None => return Err(CableError::Closed),
                Some(Err(e)) => return Err(CableError::WebSocket(e.to_string())),
                Some(Ok(Message::Text(text))) => return Ok(text),
                Some(Ok(Message::Close(_))) => return Err(CableError::Closed),
                Some(Ok(_)) => continue,
            }
        }
    }
}

/// The identifier a `<turbo-cable-stream-source>` element subscribes with.
pub fn stream_identifier(channel: &str, signed_stream_name: &str) -> String {
    serde_json::json!({ "channel": channel, "signed_stream_name": signed_stream_name }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the async client makes of one frame on a fresh connection.
    fn event(frame: &str) -> Result<Option<CableEvent>, CableError> {
        let mut protocol = CableProtocol::new(Instant::now());
        let said = protocol.read(frame, Instant::now())?;
        Ok(said.map(ServerMessage::into_event).transpose()?.flatten())
    }

    #[test]
    fn strings_are_unescaped_as_serde_json_unescapes_them() {
        for value in [
            "",
            "plain",
            r#"<div id="message_12" data-x='y'>a\b/c</div>"#,
            "tab\tnew\nline\r\u{8}\u{c}\u{1}",
            "é — 😀",
        ] {
            let literal = serde_json::to_string(value).unwrap();
            assert_eq!(unescape_json_string(&literal).as_deref(), Some(value));
        }
        // Escapes serde_json does not write but Rails does (\u003c for <), and a surrogate pair.
        let literal = r#""\u003cp\u003e \u00e9 \ud83d\ude00 \/ \"""#;
        assert_eq!(
            unescape_json_string(literal),
            Some(serde_json::from_str::<String>(literal).unwrap())
        );
        // A lone surrogate is left to serde_json, which refuses it.
        assert_eq!(unescape_json_string(r#""\ud83d x""#), None);
        assert!(event(r#"{"identifier":"x","message":"\ud83d x"}"#).is_err());
        assert!(event(r#"{"identifier":7}"#).is_err());
        assert!(event(r#"{"identifier":7,"message":"hi"}"#).is_err());
        // The unescaping reuses its buffer and leaves nothing of the last string.
        let mut text = String::from("earlier text");
        assert!(unescape_json_string_into(r#""a\"b""#, &mut text));
        assert_eq!(text, "a\"b");
        assert!(!unescape_json_string_into("12", &mut text));
    }

    #[test]
    fn frames_read_as_serde_json_reads_them() {
        let frame = r#"{"identifier":"{\"channel\":\"Turbo::StreamsChannel\"}","message":"<p class=\"x\">hi</p>"}"#;
        assert_eq!(
            event(frame).unwrap(),
            Some(CableEvent::Message {
                identifier: r#"{"channel":"Turbo::StreamsChannel"}"#.into(),
                message: serde_json::Value::String(r#"<p class="x">hi</p>"#.into()),
            })
        );
        assert_eq!(
            event(r#"{"identifier":"x","message":{"text":"back"}}"#).unwrap(),
            Some(CableEvent::Message {
                identifier: "x".into(),
                message: serde_json::json!({"text": "back"}),
            })
        );
        assert_eq!(
            event(r#"{"type":"ping","message":1733}"#).unwrap(),
            Some(CableEvent::Ping)
        );
        assert_eq!(event(r#"{"type":"welcome"}"#).unwrap(), None);
        assert_eq!(event(r#"{"message":"no identifier"}"#).unwrap(), None);
        assert!(event("not json").is_err());
    }

    #[test]
    fn a_subscription_is_confirmed_rejected_or_sent_again_until_answered() {
        let start = Instant::now();
        let mut protocol = CableProtocol::new(start);
        let id = r#"{"channel":"RoomChannel","room":1}"#;
        let command = protocol.subscribe(id, start);
        let sent: serde_json::Value = serde_json::from_str(&command).unwrap();
        assert_eq!(
            sent,
            serde_json::json!({"command": "subscribe", "identifier": id})
        );
        assert!(protocol.any_pending());
        assert_eq!(protocol.next_resend(), Some(start + RESUBSCRIBE_AFTER));
        assert!(
            protocol
                .resend_due(start + RESUBSCRIBE_AFTER / 2)
                .is_empty()
        );
        assert_eq!(protocol.resend_due(start + RESUBSCRIBE_AFTER).len(), 1);
        assert_eq!(protocol.resends(), 1);
        let confirm = serde_json::json!({"type": "confirm_subscription", "identifier": id});
        let confirm = confirm.to_string();
        let said = protocol.read(&confirm, start).unwrap();
        assert!(matches!(said, Some(ServerMessage::Confirmed(c)) if c == id));
        assert_eq!(
            protocol.subscription(id),
            Some(SubscriptionState::Confirmed)
        );
        assert!(!protocol.any_pending() && protocol.next_resend().is_none());
        // A new connection asks again for every subscription.
        assert_eq!(protocol.reopened(start).len(), 1);
        assert!(protocol.any_pending());
        protocol.unsubscribe(id);
        let late = protocol.read(&confirm, start).unwrap();
        assert!(
            late.is_none(),
            "an answer for a subscription since left is stale news"
        );
    }
}
