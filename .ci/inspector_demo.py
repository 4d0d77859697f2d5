"""The release todos demo under `--inspect`, driven as CI's Inspector checks drive it.

Shared by `.ci/inspector-memory.py` and `.ci/inspector-scale.py`:
- `Demo` runs `todos --inspect` in line mode, fed through a pipe, and reads its answers;
- `Page` is a page's socket: it reads and parses every message, can answer each burst of steps
  as the real page does (a request for the live step's detail), and can wait for a message;
- `fetch` is a plain HTTP request to the Inspector (export, import).
"""

import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time

TIMEOUT = 600


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def memory(pid):
    """The process's resident and peak resident memory, in MB."""
    with open("/proc/%d/status" % pid) as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


class Demo:
    """`todos --inspect --file WORK/NAME.json`, its standard input a pipe."""

    def __init__(self, todos, work, name):
        self.out = os.path.join(work, name + ".out")
        self.err = os.path.join(work, name + ".err")
        data = os.path.join(work, name + ".json")
        # NB: every run starts from an empty list: a work directory used again would hold the
        # last run's todos, and each run would measure a longer list than the one before.
        for leftover in (data, data + ".conflict"):
            if os.path.exists(leftover):
                os.remove(leftover)
        self.process = subprocess.Popen(
            # NB: line-buffered, so that the answers can be read while it runs.
            ["stdbuf", "-oL", todos, "--inspect", "--file", data],
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

    def settle(self, poll=0.05):
        """Waits until the demo has read everything sent so far (it answers a filter command
        with the filter's name in its summary line), and returns how long that took: the time
        a key takes to reach the app and come back, give or take `poll`."""
        self.marks += 1
        name = "done" if self.marks % 2 else "all"
        start = time.monotonic()
        self.send(["filter " + name])
        deadline = start + TIMEOUT
        while time.monotonic() < deadline:
            with open(self.out, "rb") as out:
                out.seek(max(0, os.path.getsize(self.out) - 4096))
                tail = out.read().decode(errors="replace")
            if tail.rstrip().endswith("filter: %s)" % name):
                return time.monotonic() - start
            if self.process.poll() is not None:
                fail("the demo quit: " + open(self.err).read()[-2000:])
            time.sleep(poll)
        fail("the demo did not finish the commands within %d s" % TIMEOUT)

    def memory(self):
        return memory(self.process.pid)

    def quit(self):
        self.send(["quit"])
        self.process.stdin.close()
        if self.process.wait(timeout=120) != 0:
            fail("the demo did not quit cleanly: " + open(self.err).read()[-2000:])


class Page:
    """A page's socket. Every message is read and parsed; with `follow`, each burst of steps is
    answered, as the real page does, with a request for the live step's detail ("follow") (at most one
    waiting at a time, and one every `FOLLOW_INTERVAL` seconds)."""

    FOLLOW_INTERVAL = 0.15

    def __init__(self, port, token, follow=False):
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
        self.buffer = head[head.index(b"\r\n\r\n") + 4:]
        self.follow = follow
        # NB: as the real page does, a page that views a past step ("jump") stops following
        # the live steps until it asks for them again ("resume", "follow").
        self.viewing = False
        self.step_count = 0
        self.detail_waiting = False
        self.last_request = 0.0
        self.largest = 0
        self.messages = []
        self.condition = threading.Condition()
        self.send_lock = threading.Lock()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def frames(self):
        """The socket's frames, as (opcode, payload); the server's frames are not masked."""
        while True:
            while len(self.buffer) < 2:
                if not self.receive():
                    return
            first, second = self.buffer[0], self.buffer[1]
            length, offset = second & 0x7F, 2
            if length == 126:
                need, form = 4, "!H"
            elif length == 127:
                need, form = 10, "!Q"
            else:
                need, form = 2, None
            while len(self.buffer) < need:
                if not self.receive():
                    return
            if form:
                length = struct.unpack(form, self.buffer[2:need])[0]
                offset = need
            while len(self.buffer) < offset + length:
                if not self.receive():
                    return
            payload = self.buffer[offset:offset + length]
            self.buffer = self.buffer[offset + length:]
            yield first & 0x0F, payload

    def receive(self):
        try:
            chunk = self.socket.recv(1 << 20)
        except OSError:
            return False
        self.buffer += chunk
        return bool(chunk)

    def read(self):
        for opcode, payload in self.frames():
            if opcode == 8:
                break
            if opcode != 1:
                continue
            self.largest = max(self.largest, len(payload))
            message = json.loads(payload.decode())
            kind = message.get("type")
            with self.condition:
                if kind == "welcome":
                    self.step_count = message["stepCount"]
                elif kind == "timeline":
                    self.step_count = message["stepCount"]
                elif kind == "steps" and message["steps"]:
                    self.step_count = message["steps"][-1]["i"]
                elif kind in ("detail", "cancelled", "live"):
                    # NB: a follow another request cancelled is never answered.
                    self.detail_waiting = False
                self.messages.append((time.monotonic(), message))
                # NB: a page keeps what it draws; this one keeps the last messages only.
                del self.messages[:-64]
                self.condition.notify_all()
            if self.follow and kind == "steps" and not self.detail_waiting:
                if time.monotonic() - self.last_request >= self.FOLLOW_INTERVAL:
                    if self.request({"type": "follow"}, unless_viewing=True):
                        self.detail_waiting = True
                        self.last_request = time.monotonic()
        with self.condition:
            self.closed = True
            self.condition.notify_all()

    def request(self, message, unless_viewing=False):
        """Sends a text frame (masked, as a client must); with `unless_viewing`, only while the
        page views no past step (the follow of the live steps). Returns whether it was sent."""
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        if len(data) < 126:
            head = bytes([0x81, 0x80 | len(data)])
        else:
            head = bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(data))
        with self.send_lock:
            # NB: under the lock, so that a follow is never sent after the jump that stopped it.
            if unless_viewing and self.viewing:
                return False
            if message.get("type") == "jump":
                self.viewing = True
            elif message.get("type") in ("resume", "follow"):
                self.viewing = False
            self.socket.sendall(head + mask + bytes(b ^ mask[n % 4] for n, b in enumerate(data)))
        return True

    def wait_for(self, matches, since, timeout=TIMEOUT, required=True):
        """The first message after `since` (a `time.monotonic()`) for which `matches` is true,
        with the time it came; when none comes within `timeout`, fails, or returns None when
        the message is not `required`."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for when, message in self.messages:
                    if when >= since and matches(message):
                        return when, message
                if getattr(self, "closed", False):
                    fail("the page's socket closed while waiting")
                left = deadline - time.monotonic()
                if left <= 0:
                    if not required:
                        return None
                    fail("no answer on the page's socket within %d s" % timeout)
                self.condition.wait(left)

    def close(self):
        # A close frame (masked, code 1000), then the end of the connection.
        mask = os.urandom(4)
        payload = bytes(b ^ mask[n % 4] for n, b in enumerate(b"\x03\xe8"))
        with self.send_lock:
            self.socket.sendall(b"\x88\x82" + mask + payload)
        self.reader.join(timeout=30)
        self.socket.close()


def fetch(demo, method, path, body=b""):
    """An HTTP request to the demo's Inspector: the status and the body of the answer."""
    connection = socket.create_connection(("127.0.0.1", demo.port))
    connection.sendall((
        "%s %s?token=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: http://127.0.0.1:%d\r\n"
        "Content-Length: %d\r\n\r\n" % (method, path, demo.token, demo.port, demo.port, len(body))
    ).encode() + body)
    answer = b""
    while True:
        chunk = connection.recv(1 << 20)
        if not chunk:
            break
        answer += chunk
    connection.close()
    head, _, content = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head else 0
    return status, content
