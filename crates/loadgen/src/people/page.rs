//! What a page from a Campfire-shaped server says, read without a DOM: the
//! user it was rendered for, its messages and their rooms, the sidebar's
//! rooms and the `<turbo-cable-stream-source>` elements it subscribes with.
//!
//! The markers (this generator's contract with the servers it checks):
//! `data-current-user-id="7"` on the page, `data-sidebar-room-id="3"` per
//! sidebar room, and per message `data-message-id="12"`,
//! `data-message-room-id="3"` and `data-client-message-id="p5-2"`.

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
        let found = attr(html, "data-current-user-id");
        if found.and_then(|v| v.parse::<u32>().ok()) != Some(expect.user_id) {
            return Err(PageProblem::WrongUser {
                expected: expect.user_id,
                found: found.map(str::to_owned),
            });
        }
    }
    if let Some(room) = expect.room {
        for found in attr_values(html, "data-message-room-id") {
            if found.parse::<u32>().ok() != Some(room) {
                return Err(PageProblem::WrongRoom {
                    expected: room,
                    found: found.to_owned(),
                });
            }
        }
    }
    if let Some(rooms) = expect.rooms {
        for found in attr_values(html, "data-sidebar-room-id") {
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
            None => attr_values(html, "data-client-message-id").any(|id| id == client_id),
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

    const PAGE: &str = r#"<body data-current-user-id="7">
<nav><a data-sidebar-room-id="1">All</a><a data-sidebar-room-id="3">Ops</a></nav>
<turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="cm9vbToz--ab&amp;c"></turbo-cable-stream-source>
<div data-message-id="4" data-message-room-id="3" data-client-message-id="p1-1">hi</div>
<div data-message-id="5" data-message-room-id="3" data-client-message-id="p2-1">yo</div>"#;

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
        // A newer message than the acknowledged one will do; an older one will not.
        assert_eq!(
            check_page(PAGE, &expect(&[1, 3], Some(("p0-1", Some(5))))),
            Ok(())
        );
        assert!(check_page(PAGE, &expect(&[1, 3], Some(("p0-1", Some(6))))).is_err());
    }

    #[test]
    fn each_kind_of_wrong_page_is_named() {
        let other_user = PAGE.replace("data-current-user-id=\"7\"", "data-current-user-id=\"8\"");
        assert_eq!(
            check_page(&other_user, &expect(&[1, 3], None))
                .unwrap_err()
                .cause(),
            "wrong_user"
        );
        let other_room = PAGE.replace(
            "data-message-room-id=\"3\" data-client-message-id=\"p2-1\"",
            "data-message-room-id=\"4\" data-client-message-id=\"p2-1\"",
        );
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
