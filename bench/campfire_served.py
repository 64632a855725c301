"""The real emitted Campfire, served for a bench: prepared by `reprise run` of
the published recipes/campfire-falcon.toml with the real-Campfire test's
substitutions (crates/cli/tests/campfire_real/: sources from the mirror
bundles, the seed through the app's own pages, the gems of the test's Debian
unstable image), up to its seed; then its `ruby` lane's tree served in a
container of that image, on a Podman API service of the bench's own, and
signed in as the seed's first user through the form, as the harness signs in.

Used by bench/generator-agreement and bench/harness-protocol. Needs what the
real-Campfire test needs, and that test run once (it makes the image and
the shared Roundhouse build): cargo test -p reprise-cli --test campfire_real.
"""

import math
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "crates" / "cli" / "tests"
# The revisions the mirror bundles hold, as the real-Campfire test pins them.
ROUNDHOUSE_REV = "fda6906d830cca21c2e258aee15c38f31fbd9368"
CAMPFIRE_REV = "af801ff9577b131006293a38da4b6c28acf24962"
EMAIL, PASSWORD = "user1@example.com", "secret123456"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_list(text):
    """The CPUs of a kernel CPU list such as `0-2,5`."""
    cpus = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        cpus += range(int(a), int(b or a) + 1)
    return cpus


def need(*tools):
    for tool in tools:
        if not shutil.which(tool):
            sys.exit(f"missing {tool} (scripts/test installs what the benches need)")


def podman_service(work):
    """Podman's Docker API with storage of its own in `work`, as the
    real-Campfire test starts it (runc, and ulimits it may set)."""
    need("podman")
    nofile = min(65536, int(subprocess.run(["sh", "-c", "ulimit -Hn"], capture_output=True,
                                           text=True).stdout.strip().replace("unlimited", "65536")))
    conf = work / "containers.conf"
    conf.write_text(f'[engine]\nruntime = "runc"\n[containers]\n'
                    f'default_ulimits = ["nofile={nofile}:{nofile}", "nproc=4096:4096"]\n')
    storage, socket_path = work / "podman", work / "podman.sock"
    proc = subprocess.Popen(
        ["podman", "--root", str(storage / "root"), "--runroot", str(storage / "run"),
         "system", "service", "--time=0", f"unix://{socket_path}"],
        env=dict(os.environ, CONTAINERS_CONF=str(conf)), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 30
    while not socket_path.exists():
        if time.time() > deadline:
            sys.exit("podman's API service did not start")
        time.sleep(0.05)

    def stop():
        proc.terminate()
        proc.wait(timeout=30)
        for line in Path("/proc/self/mounts").read_text().splitlines():
            point = line.split(" ")[1]
            if point.startswith(str(storage)):
                subprocess.run(["umount", "-l", point])

    return f"unix://{socket_path}", stop


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def request(url, headers=None, data=None):
    """(status, headers, body) of one request, redirects not followed."""
    req = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with OPENER.open(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def wait_for_any_answer(url, seconds=120):
    """The harness's readiness: any answer but none, 502 or 503."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if request(url)[0] not in (502, 503):
                return
        except OSError:
            pass
        time.sleep(0.3)
    sys.exit(f"{url} did not answer within {seconds} s")


def sign_in(base):
    """The session cookie, signed in as Campfire's main asks (no form token:
    `Sec-Fetch-Site: same-origin` and `Origin`)."""
    status, headers, _ = request(
        f"{base}/session",
        {"Sec-Fetch-Site": "same-origin", "Origin": base,
         "Content-Type": "application/x-www-form-urlencoded"},
        urllib.parse.urlencode({"email_address": EMAIL, "password": PASSWORD}).encode())
    cookies = [c.split(";")[0] for c in headers.get_all("Set-Cookie") or []]
    if status != 302 or not cookies:
        sys.exit(f"POST /session answered {status} with {len(cookies)} cookies")
    return "; ".join(cookies)


def serve(work, reprise, cpus="0", idle=0):
    """(base URL, cookie, run folder, stop) of the emitted Campfire, served
    on `cpus` as the recipe's `ruby` lane serves it. With `idle`, as many
    more lanes of the same tree on the same CPUs, up and answering, their
    container names in `stop.idle` and the Podman command in `stop.podman`."""
    need("podman", "git")
    real = ROOT / "target" / "real-things"
    images = sorted((real / "images").glob("sid-campfire-*.tar"), key=lambda p: p.stat().st_mtime)
    if not images:
        sys.exit("no image of Debian unstable in target/real-things/images: run the real-Campfire "
                 "test once (cargo test -p reprise-cli --test campfire_real)")
    host, stop_engine = podman_service(work)
    podman = ["podman", "--remote", "--url", host]
    name = "localhost/reprise-campfire-sid"
    subprocess.run(podman + ["import", str(images[-1]), f"{name}:bench"], check=True,
                   stdout=subprocess.DEVNULL)
    digest = subprocess.run(podman + ["image", "inspect", "--format", "{{.Digest}}", f"{name}:bench"],
                            check=True, capture_output=True, text=True).stdout.strip()
    image = f"{name}@{digest}"
    port = free_port()
    subs = work / "substitutions"
    subs.mkdir()
    for file in ["campfire.substitutions.toml", "campfire-falcon.substitutions.toml"]:
        text = (TESTS / "campfire_real" / file).read_text()
        for key, value in {"@PORT@": port, "@FALCON_PORT@": free_port(),
                           "@PORT_1P@": free_port(), "@IMAGE@": image}.items():
            text = text.replace(key, str(value))
        (subs / file).write_text(text)
    mirrors = Path(os.environ.get("REPRISE_MIRRORS", ROOT.parent / "shared" / "mirrors"))
    for repo in ["roundhouse", "once-campfire"]:
        subprocess.run(["git", "-c", "init.defaultBranch=main", "clone", "--quiet", "--bare", str(mirrors / f"{repo}.bundle"),
                        str(work / f"{repo}.git")], check=True)
    env = dict(os.environ, REPRISE_ROOT=str(ROOT), REPRISE_DATA_DIR=str(work / "data"),
               CARGO_TARGET_DIR=str(real / "roundhouse-target"), DOCKER_HOST=host)
    print("preparing the emitted Campfire: reprise run campfire-falcon --lane ruby --step seed, "
          "with the real-Campfire test's substitutions ...", flush=True)
    prepared = subprocess.run(
        [str(reprise), "run", "campfire-falcon", "--yes", "--new", "--lane", "ruby", "--step", "seed",
         "--substitutions", str(subs / "campfire.substitutions.toml"),
         "--substitutions", str(subs / "campfire-falcon.substitutions.toml"),
         "--source", f"roundhouse={work / 'roundhouse.git'}",
         "--source", f"campfire={work / 'once-campfire.git'}"],
        env=env, cwd=work, capture_output=True, text=True)
    if prepared.returncode != 0:
        stop_engine()
        sys.exit(f"reprise run failed:\n{prepared.stdout[-3000:]}\n{prepared.stderr[-3000:]}")
    run = sorted((work / "data" / "runs").iterdir())[-1]
    tree = run / "served" / "ruby"
    # The recipe's lane as the substitutions serve it: its command and
    # environment, its CPUs as `cpus` says.
    lane = (subs / "campfire-falcon.substitutions.toml").read_text()
    lane_env = dict(re.findall(r'(\w+) = "([^"]*)"',
                               re.search(r'name = "ruby"\n.*?\nenv = \{([^}]*)\}', lane, re.S)[1]))
    # The lane's `workers = { per_cpu = 0.666 }`, over the CPUs it is given,
    # as the run gives it WEB_CONCURRENCY.
    count = len(cpu_list(cpus))
    lane_env.setdefault("WEB_CONCURRENCY", str(max(1, math.ceil(count * 0.666 - 1e-9))))
    container = f"bench-campfire-{os.getpid()}"

    def lane(name, on_port):
        subprocess.run(podman + ["run", "-d", "--name", name, "--network", "host",
                                 "--cpuset-cpus", cpus, "-v", f"{run}:{run}", "-w", str(tree)]
                       + [a for k, v in lane_env.items() for a in ("-e", f"{k}={v}")]
                       + [image, "puma", "-C", "config/puma.rb", "-b", f"tcp://127.0.0.1:{on_port}",
                          "config.ru"], check=True, stdout=subprocess.DEVNULL)

    lane(container, port)
    idle_lanes = [(f"{container}-idle{i}", free_port()) for i in range(idle)]
    for name, idle_port in idle_lanes:
        lane(name, idle_port)

    def stop():
        subprocess.run(podman + ["logs", container], stdout=open(work / "campfire.log", "w"),
                       stderr=subprocess.STDOUT)
        for name in [container] + [n for n, _ in idle_lanes]:
            subprocess.run(podman + ["rm", "-f", name], stdout=subprocess.DEVNULL)
        stop_engine()

    stop.idle = [n for n, _ in idle_lanes]
    stop.podman = podman
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_any_answer(f"{base}/")
        for _, idle_port in idle_lanes:
            wait_for_any_answer(f"http://127.0.0.1:{idle_port}/")
        cookie = sign_in(base)
    except SystemExit:
        stop()
        raise
    return base, cookie, run, stop
