//! An Action Cable client: the `actioncable-v1-json` subprotocol over
//! tokio-tungstenite — welcome, subscribe / confirm / reject, unsubscribe,
//! pings and messages. Like `@rails/actioncable`, a subscribe that is not
//! confirmed within 500 ms is sent again; the re-sends are counted (post 004:
//! they reveal commands the server processed out of order).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

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

#[derive(Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "json_string")]
    identifier: Option<String>,
    #[serde(default, deserialize_with = "json_value")]
    message: Option<serde_json::Value>,
    reason: Option<String>,
    reconnect: Option<bool>,
}

/// A string field, unescaped into a `String` allocated once at its size.
/// serde_json would grow a scratch buffer for each string with escapes and
/// then copy it out: for the people, every delivery's identifier and HTML
/// (the most frequent frames) would cost a dozen allocations.
fn json_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    unescaped_or_parsed(d, |text| text)
}

/// A message: a string one as [`json_string`] reads it, anything else as serde_json does.
fn json_value<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    unescaped_or_parsed(d, serde_json::Value::String)
}

fn unescaped_or_parsed<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    from_text: fn(String) -> T,
) -> Result<Option<T>, D::Error> {
    let Some(raw) = <Option<&'de serde_json::value::RawValue>>::deserialize(d)? else {
        return Ok(None);
    };
    match unescape_json_string(raw.get()) {
        Some(text) => Ok(Some(from_text(text))),
        // Not a string, or an escape this does not read: serde_json says what it is.
        None => serde_json::from_str(raw.get()).map_err(serde::de::Error::custom),
    }
}

/// The text of a JSON string literal (quotes included, syntax already
/// checked), or `None` for anything else and for a lone surrogate escape.
fn unescape_json_string(literal: &str) -> Option<String> {
    let mut rest = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut text = String::with_capacity(rest.len());
    let hex = |digits: Option<&str>| u32::from_str_radix(digits?, 16).ok();
    while let Some(at) = rest.find('\\') {
        text.push_str(&rest[..at]);
        let escape = *rest.as_bytes().get(at + 1)?;
        rest = rest.get(at + 2..)?;
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
                let unit = hex(rest.get(..4))?;
                rest = rest.get(4..)?;
                if (0xD800..0xDC00).contains(&unit) {
                    let low = hex(rest.strip_prefix("\\u").and_then(|r| r.get(..4)))
                        .filter(|low| (0xDC00..0xE000).contains(low))?;
                    rest = rest.get(6..)?;
                    char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                } else {
                    char::from_u32(unit)?
                }
            }
            _ => return None,
        };
        text.push(c);
    }
    text.push_str(rest);
    Some(text)
}

/// One open Action Cable connection.
pub struct Cable {
    ws: WebSocketStream<TcpStream>,
    subscriptions: HashMap<String, SubscriptionState>,
    last_ping: Instant,
    resends: u64,
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
            // Small buffers: a person's cable carries short frames (a
            // delivery is ~600 bytes), and the default 128 KiB read buffer
            // would cost that much per person.
            let buffers = WebSocketConfig::default()
                .read_buffer_size(2048)
                .write_buffer_size(0);
            let (ws, _response) =
                tokio_tungstenite::client_async_with_config(request, stream, Some(buffers))
                    .await
                    .map_err(|e| CableError::WebSocket(e.to_string()))?;
            let mut cable = Cable {
                ws,
                subscriptions: HashMap::new(),
                last_ping: Instant::now(),
                resends: 0,
            };
            loop {
                let incoming = cable.read().await?;
                match incoming.kind.as_deref() {
                    Some("welcome") => return Ok(cable),
                    Some("disconnect") => {
                        return Err(CableError::Refused(incoming.reason.unwrap_or_default()));
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
        self.subscriptions.insert(
            identifier.to_owned(),
            SubscriptionState::Pending {
                since: Instant::now(),
            },
        );
        self.command("subscribe", identifier, None).await
    }

    /// Sends an unsubscribe and forgets the subscription.
    pub async fn unsubscribe(&mut self, identifier: &str) -> Result<(), CableError> {
        self.subscriptions.remove(identifier);
        self.command("unsubscribe", identifier, None).await
    }

    /// Calls a channel action: `data` is the action's JSON object, with its `action` key.
    pub async fn perform(
        &mut self,
        identifier: &str,
        data: &serde_json::Value,
    ) -> Result<(), CableError> {
        let data = data.to_string();
        self.command("message", identifier, Some(&data)).await
    }

    async fn command(
        &mut self,
        command: &str,
        identifier: &str,
        data: Option<&str>,
    ) -> Result<(), CableError> {
        let mut text = serde_json::json!({ "command": command, "identifier": identifier });
        if let Some(data) = data {
            text["data"] = serde_json::Value::String(data.to_owned());
        }
        self.ws
            .send(Message::text(text.to_string()))
            .await
            .map_err(|e| CableError::WebSocket(e.to_string()))
    }

    /// Where a subscription stands, if it was subscribed and not unsubscribed.
    pub fn subscription(&self, identifier: &str) -> Option<SubscriptionState> {
        self.subscriptions.get(identifier).copied()
    }

    /// How many subscribes were sent again for want of a confirmation.
    pub fn resends(&self) -> u64 {
        self.resends
    }

    /// When the server last pinged (or the connection opened).
    pub fn last_ping(&self) -> Instant {
        self.last_ping
    }

    /// Whether the server has not pinged for longer than [`STALE_AFTER`].
    pub fn is_stale(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last_ping) > STALE_AFTER
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
            let resend_at = self
                .subscriptions
                .values()
                .filter_map(|s| match s {
                    SubscriptionState::Pending { since } => Some(*since + RESUBSCRIBE_AFTER),
                    _ => None,
                })
                .min();
            let incoming = match resend_at {
                Some(at) => tokio::select! {
                    incoming = self.read() => incoming?,
                    _ = tokio::time::sleep_until(at.into()) => {
                        self.resend_due().await?;
                        continue;
                    }
                },
                None => self.read().await?,
            };
            if let Some(event) = self.apply(incoming) {
                return Ok(event);
            }
        }
    }

    async fn resend_due(&mut self) -> Result<(), CableError> {
        let now = Instant::now();
        let due: Vec<String> = self
            .subscriptions
            .iter_mut()
            .filter_map(|(id, state)| match state {
                SubscriptionState::Pending { since } if *since + RESUBSCRIBE_AFTER <= now => {
                    *state = SubscriptionState::Pending { since: now };
                    Some(id.clone())
                }
                _ => None,
            })
            .collect();
        for identifier in due {
            self.resends += 1;
            self.command("subscribe", &identifier, None).await?;
        }
        Ok(())
    }

    fn apply(&mut self, incoming: Incoming) -> Option<CableEvent> {
        match incoming.kind.as_deref() {
            Some("ping") => {
                self.last_ping = Instant::now();
                Some(CableEvent::Ping)
            }
            Some("welcome") => None,
            Some("confirm_subscription") => {
                let id = incoming.identifier?;
                // A confirmation for a subscription since unsubscribed is stale news.
                let state = self.subscriptions.get_mut(&id)?;
                *state = SubscriptionState::Confirmed;
                Some(CableEvent::Confirmed(id))
            }
            Some("reject_subscription") => {
                let id = incoming.identifier?;
                if let Some(state) = self.subscriptions.get_mut(&id) {
                    *state = SubscriptionState::Rejected;
                }
                Some(CableEvent::Rejected(id))
            }
            Some("disconnect") => Some(CableEvent::Disconnect {
                reason: incoming.reason,
                reconnect: incoming.reconnect.unwrap_or(false),
            }),
            _ => Some(CableEvent::Message {
                identifier: incoming.identifier?,
                message: incoming.message?,
            }),
        }
    }

    async fn read(&mut self) -> Result<Incoming, CableError> {
        loop {
            let frame = match self.ws.next().await {
                None => return Err(CableError::Closed),
                Some(Err(e)) => return Err(CableError::WebSocket(e.to_string())),
                Some(Ok(frame)) => frame,
            };
            let text = match frame {
                Message::Text(text) => text,
                Message::Close(_) => return Err(CableError::Closed),
                _ => continue,
            };
            return serde_json::from_str(text.as_str()).map_err(|e| CableError::Frame {
                frame: text.as_str().chars().take(200).collect(),
                reason: e.to_string(),
            });
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
        // A lone surrogate is left to serde_json, which refuses it, as before.
        assert_eq!(unescape_json_string(r#""\ud83d x""#), None);
        assert!(serde_json::from_str::<Incoming>(r#"{"message":"\ud83d x"}"#).is_err());
        assert!(serde_json::from_str::<Incoming>(r#"{"identifier":7}"#).is_err());
    }

    #[test]
    fn frames_read_as_serde_json_reads_them() {
        let frame = r#"{"identifier":"{\"channel\":\"Turbo::StreamsChannel\"}","message":"<p class=\"x\">hi</p>"}"#;
        let incoming: Incoming = serde_json::from_str(frame).unwrap();
        assert_eq!(
            incoming.identifier.as_deref(),
            Some(r#"{"channel":"Turbo::StreamsChannel"}"#)
        );
        assert_eq!(
            incoming.message,
            Some(serde_json::Value::String(r#"<p class="x">hi</p>"#.into()))
        );
        let object: Incoming =
            serde_json::from_str(r#"{"identifier":"x","message":{"text":"back"}}"#).unwrap();
        assert_eq!(object.message, Some(serde_json::json!({"text": "back"})));
        let ping: Incoming = serde_json::from_str(r#"{"type":"ping","message":1733}"#).unwrap();
        assert_eq!(ping.kind.as_deref(), Some("ping"));
        assert_eq!(ping.message, Some(serde_json::json!(1733)));
        assert_eq!(ping.identifier, None);
        let welcome: Incoming = serde_json::from_str(r#"{"type":"welcome"}"#).unwrap();
        assert_eq!((welcome.identifier, welcome.message), (None, None));
    }
}
