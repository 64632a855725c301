//! Values that must never reach a log, an event or a result: cookies, CSRF
//! tokens, passwords and authorisation headers. The types that carry them
//! (`LoadSpec`, `PeopleSpec`, `CableConfig`, a request template) print
//! through these helpers in their `Debug`, so `{:?}` anywhere is safe.

use std::fmt;

/// What a hidden value prints as.
pub(crate) const HIDDEN: &str = "<hidden>";

/// Whether a header's value is a credential.
pub fn is_secret_header(name: &str) -> bool {
    const SECRET: [&str; 7] = [
        "cookie",
        "set-cookie",
        "authorization",
        "proxy-authorization",
        "x-csrf-token",
        "x-xsrf-token",
        "x-api-key",
    ];
    SECRET.iter().any(|s| name.trim().eq_ignore_ascii_case(s))
}

/// `(name, value)` headers for `Debug`: every name, secret values hidden.
pub(crate) struct Headers<'a, N, V>(pub &'a [(N, V)]);

impl<N: AsRef<str>, V: AsRef<str>> fmt::Debug for Headers<'_, N, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(name, value)| {
                let name = name.as_ref();
                let value = if is_secret_header(name) {
                    HIDDEN
                } else {
                    value.as_ref()
                };
                (name.to_string(), value.to_string())
            }))
            .finish()
    }
}

/// A value that is there or not, never shown.
pub(crate) fn presence<T>(value: &Option<T>) -> Option<&'static str> {
    value.as_ref().map(|_| HIDDEN)
}

#[cfg(test)]
mod tests {
    use crate::{CableConfig, LoadSpec, PeopleSpec};

    const COOKIE: &str = "_campfire_session=Q29va2llVmFsdWU--feedface";
    const CSRF: &str = "Y3NyZi10b2tlbi12YWx1ZQ";
    const PASSWORD: &str = "hunter2-Secret";

    fn assert_hidden(shown: &str) {
        for secret in [
            "Q29va2llVmFsdWU",
            "feedface",
            CSRF,
            PASSWORD,
            "Bearer abc123",
        ] {
            assert!(!shown.contains(secret), "{secret} leaked: {shown}");
        }
    }

    #[test]
    fn a_load_spec_prints_its_headers_without_their_secrets() {
        let mut spec = LoadSpec::new("http://127.0.0.1:3000/rooms/1");
        spec.headers = vec![
            ("Cookie".into(), COOKIE.into()),
            ("X-CSRF-Token".into(), CSRF.into()),
            ("authorization".into(), "Bearer abc123".into()),
            ("Accept".into(), "text/html".into()),
        ];
        let shown = format!("{spec:?} {spec:#?}");
        assert_hidden(&shown);
        assert!(
            shown.contains("Cookie") && shown.contains("text/html"),
            "{shown}"
        );
        let template = spec.template().unwrap();
        assert_hidden(&format!("{template:?}"));
    }

    #[test]
    fn a_people_spec_hides_the_password_and_the_minted_sessions() {
        let mut spec = PeopleSpec::new("http://127.0.0.1:3000");
        spec.password = PASSWORD.into();
        spec.sessions = Some(vec![COOKIE.into()]);
        let shown = format!("{spec:?}");
        assert_hidden(&shown);
        assert!(shown.contains("sessions: Some(1)"), "{shown}");
    }

    #[test]
    fn a_cable_config_hides_its_cookie() {
        let mut config = CableConfig::new("ws://127.0.0.1:3000/cable");
        config.cookie = Some(COOKIE.into());
        assert_hidden(&format!("{config:?}"));
    }
}
