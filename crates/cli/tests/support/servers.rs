//! Debian's real servers as a test recipe's lanes: Puma and nginx answering
//! the same 13 bytes at "/", each on a port of its own, loopback only.

use std::sync::{Mutex, MutexGuard};

use super::free_port;

/// The Rack app Puma serves: `[[file]]` `app/hello.ru`.
pub const HELLO_RU: &str = r#"[[file]]
path = "app/hello.ru"
content = 'run ->(env) { [200, { "content-type" => "text/plain" }, ["Hello, world!"]] }'
why = "13 bytes."
"#;

/// A lane of Puma with `threads` threads (`1:1`, `4:4`) serving hello.ru.
pub fn puma_lane(name: &str, threads: &str, why: &str) -> String {
    puma_lane_serving(name, threads, "hello.ru", why)
}

/// A lane of Puma with `threads` threads serving `app` (a file of app/).
pub fn puma_lane_serving(name: &str, threads: &str, app: &str, why: &str) -> String {
    let port = free_port();
    format!(
        r#"[[lane]]
name = "{name}"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "{threads}", "{app}"]
dir = "files/app"
port = {port}
health = "/"
boot_budget = "30s"
why = "{why}"
"#
    )
}

/// A lane of nginx, one worker, answering the same 13 bytes, and the
/// `[[file]]` of its configuration.
pub fn nginx_lane(why: &str) -> (String, String) {
    let port = free_port();
    let lane = format!(
        r#"[[lane]]
name = "nginx"
command = ["nginx", "-p", ".", "-c", "nginx.conf", "-g", "daemon off;"]
dir = "files/app"
port = {port}
health = "/"
boot_budget = "10s"
why = "{why}"
"#
    );
    let conf = format!(
        r#"[[file]]
path = "app/nginx.conf"
content = """
worker_processes 1;
error_log stderr;
pid nginx.pid;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path tmp;
  proxy_temp_path tmp;
  fastcgi_temp_path tmp;
  uwsgi_temp_path tmp;
  scgi_temp_path tmp;
  server {{
    listen 127.0.0.1:{port};
    location / {{ default_type text/plain; return 200 "Hello, world!"; }}
  }}
}}
"""
why = "The same 13 bytes."
"#
    );
    (lane, conf)
}

/// One test's servers at a time within a test binary: servers measured
/// beside another test's (or a hog beside them) decide that test's claims.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static SERVERS: Mutex<()> = Mutex::new(());
    SERVERS.lock().unwrap_or_else(|e| e.into_inner())
}
