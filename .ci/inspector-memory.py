"""The Inspector's memory, measured on the todos demo (a release build): what a connected page
costs on top of the same session without a page, and what is left after the page leaves.

Runs `todos --inspect` in line mode, fed through a pipe, twice per workload: once with no page,
once with a page's socket open (a plain WebSocket client that reads and drops every message, as
a page that draws nothing would). Reads the resident memory from /proc. Fails when a workload
costs more than LIMIT_MB with the page than without, or when the memory after the page leaves is
not back within RETURNED_MB of the run without a page.

Usage: python3 .ci/inspector-memory.py TODOS_BINARY WORK_DIRECTORY
"""

import base64
import os
import re
import socket
import subprocess
import sys
import threading
import time

LIMIT_MB = 100
RETURNED_MB = 40
TIMEOUT = 600

todos, work = sys.argv[1], sys.argv[2]


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def memory(pid):
    """The process's resident and peak resident memory, in MB."""
    with open("/proc/%d/status" % pid) as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


class Demo:
    def __init__(self, name):
        self.out = os.path.join(work, name + ".out")
        self.err = os.path.join(work, name + ".err")
        self.process = subprocess.Popen(
            # NB: line-buffered, so that the answers can be read while it runs.
            ["stdbuf", "-oL", todos, "--inspect", "--file", os.path.join(work, name + ".json")],
            stdin=subprocess.PIPE,
            stdout=open(self.out, "wb"), stderr=open(self.err, "wb"))
        self.url = None
        deadline = time.monotonic() + 60
        while self.url is None and time.monotonic() < deadline:
            with open(self.err) as err:
                found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)", err.read())
            if found:
                self.url = found
            elif self.process.poll() is not None:
                fail("todos --inspect quit before printing its URL")
            else:
                time.sleep(0.05)
        if self.url is None:
            fail("todos --inspect printed no URL")
        self.port, self.token = int(self.url.group(1)), self.url.group(2)
        self.marks = 0

    def send(self, lines):
        self.process.stdin.write(("\n".join(lines) + "\n").encode())
        self.process.stdin.flush()

    def settle(self):
        """Waits until the demo has read everything sent so far: it answers a filter command
        with the filter's name in its summary line."""
        self.marks += 1
        name = "done" if self.marks % 2 else "all"
        self.send(["filter " + name])
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            with open(self.out, "rb") as out:
                out.seek(max(0, os.path.getsize(self.out) - 4096))
                tail = out.read().decode(errors="replace")
            if tail.rstrip().endswith("filter: %s)" % name):
                return
            if self.process.poll() is not None:
                fail("the demo quit: " + open(self.err).read()[-2000:])
            time.sleep(0.05)
        fail("the demo did not finish the commands within %d s" % TIMEOUT)

    def memory(self):
        return memory(self.process.pid)

    def quit(self):
        self.send(["quit"])
        self.process.stdin.close()
        if self.process.wait(timeout=120) != 0:
            fail("the demo did not quit cleanly: " + open(self.err).read()[-2000:])


class Page:
    """A page's socket that reads and drops every message."""

    def __init__(self, port, token):
        self.socket = socket.create_connection(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((
            "GET /socket?token=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
            "Origin: http://127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
            % (token, port, port, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.socket.recv(4096)
            if not chunk:
                fail("the socket closed during the upgrade")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            fail("the socket was refused: " + head.decode(errors="replace"))
        self.received = len(head) - head.index(b"\r\n\r\n") - 4
        self.reader = threading.Thread(target=self.drain, daemon=True)
        self.reader.start()

    def drain(self):
        try:
            while True:
                chunk = self.socket.recv(1 << 20)
                if not chunk:
                    return
                self.received += len(chunk)
        except OSError:
            return

    def close(self):
        # A close frame (masked, code 1000), then the end of the connection.
        mask = os.urandom(4)
        payload = bytes(b ^ mask[n % 4] for n, b in enumerate(b"\x03\xe8"))
        self.socket.sendall(b"\x88\x82" + mask + payload)
        self.reader.join(timeout=30)
        self.socket.close()


def run(name, with_page, commands, setup, returned_below=None):
    demo = Demo(name)
    demo.send(setup)
    demo.settle()
    page = Page(demo.port, demo.token) if with_page else None
    start = time.monotonic()
    for chunk in range(0, len(commands), 1000):
        demo.send(commands[chunk:chunk + 1000])
    demo.settle()
    elapsed = time.monotonic() - start
    rss, peak = demo.memory()
    after = None
    if page:
        page.close()
        # NB: the session drops its timeline on the main actor once the socket's stream ends,
        # which a command read after the close may overtake: read the memory after a few.
        for _ in range(20):
            demo.settle()
            after = demo.memory()[0]
            if returned_below is not None and after <= returned_below:
                break
    demo.quit()
    return rss, peak, after, elapsed


workloads = [
    ("3,000 adds", ["add Todo number %d" % n for n in range(3000)], []),
    ("100,000 toggles of a 2-todo list", ["toggle 1"] * 100000, ["add first", "add second"]),
]
failed = []
for label, commands, setup in workloads:
    slug = re.sub(r"[^a-z0-9]+", "-", label.lower())
    alone = run(slug + "-alone", False, commands, setup)
    paged = run(slug + "-page", True, commands, setup, returned_below=alone[0] + RETURNED_MB)
    extra = paged[1] - alone[1]
    returned = paged[2] - alone[0]
    print("%s: peak %.0f MB without a page (%.1f s), %.0f MB with one (%.1f s): +%.0f MB "
          "(limit %d); %.0f MB after the page left, %+.0f MB against no page (limit %d)"
          % (label, alone[1], alone[3], paged[1], paged[3], extra, LIMIT_MB, paged[2],
             returned, RETURNED_MB))
    if extra > LIMIT_MB:
        failed.append("%s cost %.0f MB more with a page" % (label, extra))
    if returned > RETURNED_MB:
        failed.append("%s kept %.0f MB after the page left" % (label, returned))
if failed:
    fail("; ".join(failed))
print("inspector memory: within the limits")
