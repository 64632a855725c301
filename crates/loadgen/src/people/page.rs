//! What a Campfire page says, read without a DOM: the user it was rendered
//! for, its messages and their rooms, the sidebar's rooms and the
//! `<turbo-cable-stream-source>` elements it subscribes with.
//!
//! The markers are Campfire's own markup (its layout, `messages/_message`
//! and the sidebar, as Rails and the emitted Campfire render them):
//! `<meta name="current-user-id" content="7">` in the page's head; per
//! message `id="message_<client message id>"`, `data-message-id="12"` and
//! its permalink `href="/rooms/3/@12"` (a message's room is its
//! permalink's); per sidebar room a link with `data-room-id="3"`.

/// Values of every `name="…"` attribute in `html`, in order.
pub(crate) fn attr_values<'a>(html: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let at = rest.find(name)?;
            let after = &rest[at + name.len()..];
            // The name must be a whole attribute name followed by ="…".
            let whole = at == 0 || rest.as_bytes()[at - 1].is_ascii_whitespace();
            rest = after;
            if let (true, Some(value)) = (whole, after.strip_prefix("=\"")) {
                let end = value.find('"')?;
                rest = &value[end..];
                return Some(&value[..end]);
            }
        }
    })
}

/// The first value of attribute `name`.
pub(crate) fn attr<'a>(html: &'a str, name: &'a str) -> Option<&'a str> {
    attr_values(html, name).next()
}

/// The `(channel, signed-stream-name)` of every `<turbo-cable-stream-source>`.
pub(crate) fn stream_sources(html: &str) -> Vec<(String, String)> {
    const TAG: &str = "<turbo-cable-stream-source";
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(TAG) {
        let tag = &rest[at + TAG.len()..];
        let end = tag.find('>').unwrap_or(tag.len());
        let tag = &tag[..end];
        if let (Some(channel), Some(name)) = (attr(tag, "channel"), attr(tag, "signed-stream-name"))
        {
            found.push((unescape(channel), unescape(name)));
        }
        rest = &rest[at + TAG.len() + end..];
    }
    found
}

/// The `content` of `<meta name="{name}" …>`.
pub(crate) fn meta<'a>(html: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = html;
    while let Some(at) = rest.find("<meta ") {
        let tag = &rest[at..];
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        if attr(tag, "name") == Some(name) {
            return attr(tag, "content");
        }
        rest = &rest[at + 6..];
    }
    None
}

/// The client message id of every message (`id="message_…"`), in order.
pub(crate) fn message_client_ids(html: &str) -> impl Iterator<Item = &str> {
    attr_values(html, "id").filter_map(|id| id.strip_prefix("message_"))
}

/// The room of every message permalink (`href="/rooms/3/@12"`), in order.
pub(crate) fn permalink_rooms(html: &str) -> impl Iterator<Item = &str> {
    attr_values(html, "href").filter_map(|href| {
        let (room, message) = href.strip_prefix("/rooms/")?.split_once("/@")?;
        (!room.is_empty()
            && room.bytes().all(|b| b.is_ascii_digit())
            && message.bytes().next().is_some_and(|b| b.is_ascii_digit()))
        .then_some(room)
    })
}

/// Undoes HTML's attribute escapes for the characters that appear in them.
pub(crate) fn unescape(value: &str) -> String {
    if !value.contains('&') {
        return value.to_owned();
    }
    value
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// What is wrong with a page, if anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PageProblem {
    WrongUser {
        expected: u32,
        found: Option<String>,
    },
    WrongRoom {
        expected: u32,
        found: String,
    },
    ForeignSidebarRoom {
        room: String,
    },
    MissingNewestPost {
        client_id: String,
    },
}

impl PageProblem {
    pub fn cause(&self) -> &'static str {
        match self {
            PageProblem::WrongUser { .. } => "wrong_user",
            PageProblem::WrongRoom { .. } => "wrong_room",
            PageProblem::ForeignSidebarRoom { .. } => "foreign_sidebar_room",
            PageProblem::MissingNewestPost { .. } => "missing_newest_post",
        }
    }
}

/// What a page must show.
pub(crate) struct PageExpectation<'a> {
    pub user_id: u32,
    /// The room whose messages these are, for room and history pages.
    pub room: Option<u32>,
    /// The person's rooms: the sidebar may list no other, when there is a sidebar.
    pub rooms: Option<&'a [u32]>,
    /// The newest post acknowledged in this room before the page was asked
    /// for: its client message id and, when the server's answer to the post
    /// named it, its message id. The page must show it or a newer message.
    pub newest: Option<(&'a str, Option<u64>)>,
    /// Whether the page is a whole page (with its user marker) or a fragment.
    pub whole: bool,
}

/// Checks a page; the first problem found.
pub(crate) fn check_page(html: &str, expect: &PageExpectation) -> Result<(), PageProblem> {
    if expect.whole {
        let found = meta(html, "current-user-id");
        if found.and_then(|v| v.parse::<u32>().ok()) != Some(expect.user_id) {
            return Err(PageProblem::WrongUser {
                expected: expect.user_id,
                found: found.map(str::to_owned),
            });
        }
    }
    if let Some(room) = expect.room {
        for found in permalink_rooms(html) {
            if found.parse::<u32>().ok() != Some(room) {
                return Err(PageProblem::WrongRoom {
                    expected: room,
                    found: found.to_owned(),
                });
            }
        }
    }
    if let Some(rooms) = expect.rooms {
        for found in attr_values(html, "data-room-id") {
            if !found.parse::<u32>().is_ok_and(|r| rooms.contains(&r)) {
                return Err(PageProblem::ForeignSidebarRoom {
                    room: found.to_owned(),
                });
            }
        }
    }
    if let Some((client_id, message_id)) = expect.newest {
        let shown = match message_id {
            // Posts acknowledged since may have pushed it off the page: a newer one will do.
            Some(id) => attr_values(html, "data-message-id")
                .filter_map(|m| m.parse::<u64>().ok())
                .any(|m| m >= id),
            None => message_client_ids(html).any(|id| id == client_id),
        };
        if !shown {
            return Err(PageProblem::MissingNewestPost {
                client_id: client_id.to_owned(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Campfire's markup, as the emitted Campfire renders it (trimmed).
    const PAGE: &str = r#"<head><meta name="current-user-name" content="User 7" /><meta name="current-user-id" content="7" /><meta name="current-room-id" content="3" /></head>
<body><a class="room btn" data-room-id="1" href="/rooms/1">All</a><a class="room btn" data-room-id="3" href="/rooms/3">Ops</a>
<form data-composer-room-id-value="3" action="/rooms/3/messages"></form>
<turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="cm9vbToz--ab&amp;c"></turbo-cable-stream-source>
<div id="message_p1-1" class="message" data-user-id="2" data-message-id="4"><a class="message__permalink" target="_top" href="/rooms/3/@4">#</a>hi</div>
<div id="message_p2-1" class="message" data-user-id="3" data-message-id="5"><a class="message__permalink" target="_top" href="/rooms/3/@5">#</a>yo</div>"#;

    fn expect<'a>(rooms: &'a [u32], newest: Option<(&'a str, Option<u64>)>) -> PageExpectation<'a> {
        PageExpectation {
            user_id: 7,
            room: Some(3),
            rooms: Some(rooms),
            newest,
            whole: true,
        }
    }

    #[test]
    fn a_right_page_passes_and_its_stream_sources_are_read() {
        assert_eq!(
            check_page(PAGE, &expect(&[1, 3], Some(("p2-1", None)))),
            Ok(())
        );
        assert_eq!(
            stream_sources(PAGE),
            vec![("Turbo::StreamsChannel".into(), "cm9vbToz--ab&c".into())]
        );
        assert_eq!(attr(PAGE, "data-message-id"), Some("4"));
        assert_eq!(meta(PAGE, "current-room-id"), Some("3"));
        assert_eq!(meta(PAGE, "csrf-token"), None);
        // Only permalinks name a message's room, not the room's other links.
        assert_eq!(permalink_rooms(PAGE).collect::<Vec<_>>(), ["3", "3"]);
        assert_eq!(
            message_client_ids(PAGE).collect::<Vec<_>>(),
            ["p1-1", "p2-1"]
        );
        // A newer message than the acknowledged one will do; an older one will not.
        assert_eq!(
            check_page(PAGE, &expect(&[1, 3], Some(("p0-1", Some(5))))),
            Ok(())
        );
        assert!(check_page(PAGE, &expect(&[1, 3], Some(("p0-1", Some(6))))).is_err());
    }

    #[test]
    fn each_kind_of_wrong_page_is_named() {
        let other_user = PAGE.replace(
            "name=\"current-user-id\" content=\"7\"",
            "name=\"current-user-id\" content=\"8\"",
        );
        assert_eq!(
            check_page(&other_user, &expect(&[1, 3], None))
                .unwrap_err()
                .cause(),
            "wrong_user"
        );
        let other_room = PAGE.replace("href=\"/rooms/3/@5\"", "href=\"/rooms/4/@5\"");
        assert_eq!(
            check_page(&other_room, &expect(&[1, 3], None))
                .unwrap_err()
                .cause(),
            "wrong_room"
        );
        assert_eq!(
            check_page(PAGE, &expect(&[1], None)).unwrap_err().cause(),
            "foreign_sidebar_room"
        );
        assert_eq!(
            check_page(PAGE, &expect(&[1, 3], Some(("p9-9", None))))
                .unwrap_err()
                .cause(),
            "missing_newest_post"
        );
    }
}
