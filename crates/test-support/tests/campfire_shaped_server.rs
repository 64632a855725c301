//! The Campfire-shaped server as the people tests meet it: a real process on
//! 127.0.0.1 that prints where it listens, answers /up, signs a person in
//! with a session cookie, and says "welcome" on that person's /cable. (That
//! `cargo test` builds the binary beside the test programs also rests on
//! this test.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

fn get(addr: &str, request: &str) -> String {
    let mut socket = TcpStream::connect(addr).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    socket.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = socket.read(&mut buf) {
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&answer).contains("welcome") {
            break;
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn the_server_listens_on_loopback_signs_in_and_welcomes_a_cable() {
    let mut child = Command::new(reprise_test_support::campfire_shaped_server())
        .args(["--accounts", "2", "--rooms", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_string();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    let up = get(
        &addr,
        "GET /up HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(up.starts_with("HTTP/1.1 200"), "{up}");
    let form = "email_address=person1%40example.test&password=secret123";
    let signed = get(
        &addr,
        &format!(
            "POST /session HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        ),
    );
    assert!(signed.starts_with("HTTP/1.1 303"), "{signed}");
    let cookie = signed
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string();
    let cable = get(
        &addr,
        &format!(
            "GET /cable HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: actioncable-v1-json\r\n\r\n"
        ),
    );
    assert!(cable.starts_with("HTTP/1.1 101"), "{cable}");
    assert!(cable.contains("\"type\":\"welcome\""), "{cable}");
    child.kill().unwrap();
    child.wait().unwrap();
}
