//! Who the simulated people are: accounts, their user ids and room
//! memberships, seeded the same way by the generator and by the servers the
//! tests and the bench make (Campfire's real seed is not published).

/// Room 1 holds everyone; room `r` (2…) holds about one account in `r`, so a
/// few rooms are busy and most are quiet, as in a real deployment.
pub fn seeded_rooms(account: u32, rooms: u32) -> Vec<u32> {
    let mut mine = vec![1];
    for room in 2..=rooms {
        if mix(u64::from(account) << 32 | u64::from(room)).is_multiple_of(u64::from(room)) {
            mine.push(room);
        }
    }
    mine
}

/// How many accounts room `room` holds, as [`seeded_rooms`] seeds them.
pub fn seeded_room_size(room: u32, accounts: u32, rooms: u32) -> u32 {
    (0..accounts)
        .filter(|&a| seeded_rooms(a, rooms).contains(&room))
        .count() as u32
}

/// The user id of account `account` (0-based accounts, ids from 1).
pub fn user_id(account: u32) -> u32 {
    account + 1
}

/// The sign-in address of account `account`.
pub fn email(account: u32) -> String {
    format!("person{account}@example.test")
}

/// Why a minted-sessions file could not be read. It names the line and what
/// was expected there, never what the line holds: any line of that file may
/// carry a session cookie, and this message reaches the terminal, `--json`
/// events and `state.json`. The fields are numbers and constant text only, so
/// no caller can put a line's content in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionsError {
    #[error("line {line}: expected {expected} (the line is not shown: it may hold a cookie)")]
    Line { line: usize, expected: &'static str },
    #[error("no session for {}", email(*account))]
    Missing { account: u32 },
    #[error(
        "{accounts} accounts: a people load has at most {}",
        super::MAX_ACCOUNTS
    )]
    TooMany { accounts: u32 },
}

const EXPECTED_TAB: &str = "`email<TAB>cookie`";
const EXPECTED_ADDRESS: &str = "an address like person0@example.test before the tab";
const EXPECTED_COOKIE: &str = "a cookie `name=value` after the tab";

/// Reads minted sessions: `email<TAB>cookie` a line (blank lines and `#`
/// comments skipped), as a seed step writes them. Returns the cookies in
/// account order; every account up to `accounts` must have one.
pub fn parse_sessions(text: &str, accounts: u32) -> Result<Vec<String>, SessionsError> {
    if accounts > super::MAX_ACCOUNTS {
        return Err(SessionsError::TooMany { accounts });
    }
    let mut by_account: Vec<Option<String>> = vec![None; accounts as usize];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |expected| SessionsError::Line {
            line: n + 1,
            expected,
        };
        let (address, cookie) = line.split_once('\t').ok_or_else(|| bad(EXPECTED_TAB))?;
        let account = address
            .strip_prefix("person")
            .and_then(|a| a.strip_suffix("@example.test"))
            .and_then(|a| a.parse::<u32>().ok())
            .ok_or_else(|| bad(EXPECTED_ADDRESS))?;
        if !cookie.contains('=') {
            return Err(bad(EXPECTED_COOKIE));
        }
        if let Some(slot) = by_account.get_mut(account as usize) {
            *slot = Some(cookie.trim().to_owned());
        }
    }
    by_account
        .into_iter()
        .enumerate()
        .map(|(a, c)| c.ok_or(SessionsError::Missing { account: a as u32 }))
        .collect()
}

/// SplitMix64's finaliser: a well-mixed hash of one number.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A small, fast random sequence per person (SplitMix64).
#[derive(Debug, Clone)]
pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(mix(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_is_in_room_one_and_later_rooms_are_quieter() {
        let sizes: Vec<u32> = (1..=10).map(|r| seeded_room_size(r, 3000, 10)).collect();
        assert_eq!(sizes[0], 3000);
        assert!(sizes[1] > sizes[9] * 3, "{sizes:?}");
        assert!(sizes.iter().all(|&s| s > 0), "{sizes:?}");
    }

    #[test]
    fn sessions_come_back_in_account_order() {
        let text = "# minted\nperson1@example.test\tsession_token=b\n\nperson0@example.test\tsession_token=a\n";
        assert_eq!(
            parse_sessions(text, 2).unwrap(),
            ["session_token=a", "session_token=b"]
        );
    }

    #[test]
    fn a_missing_account_or_a_bad_line_is_named() {
        let e = parse_sessions("person0@example.test\tsession_token=a\n", 2).unwrap_err();
        assert_eq!(e.to_string(), "no session for person1@example.test");
        let e = parse_sessions("person0@example.test session_token=a\n", 1).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 1: expected `email<TAB>cookie`"),
            "{e}"
        );
        let e = parse_sessions("x\n\nsomeone@else\tc=1\n", 1).unwrap_err();
        assert!(e.to_string().starts_with("line 1:"), "{e}");
        let e = parse_sessions("person0@example.test\tnocookie\n", 1).unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: expected a cookie"),
            "{e}"
        );
    }

    /// Whatever is wrong with a line, the message names it by number and
    /// never repeats it: a malformed line is still a line of cookies.
    #[test]
    fn a_malformed_line_is_never_echoed() {
        let cookie = "_campfire_session=c2VjcmV0LWNvb2tpZQ--deadbeef";
        let lines = [
            // No tab: the whole line, cookie included, is one field.
            format!("person0@example.test {cookie}"),
            // Fields swapped: the "address" is the cookie.
            format!("{cookie}\tperson0@example.test"),
            // A cookie value with no `=` (a bare token).
            "person0@example.test\tc2VjcmV0LWNvb2tpZQ--deadbeef".to_string(),
        ];
        for bad in lines {
            let text = format!("# minted\nperson1@example.test\t{cookie}\n{bad}\n");
            let e = parse_sessions(&text, 2).unwrap_err();
            let shown = format!("{e} {e:?}");
            assert!(shown.contains("line 3: expected"), "{shown}");
            for secret in ["c2VjcmV0LWNvb2tpZQ", "deadbeef", "_campfire_session"] {
                assert!(!shown.contains(secret), "{secret} leaked: {shown}");
            }
        }
    }
}
