"""The Inspector's memory, measured on the todos demo (a release build): what a connected page
costs on top of the same session without a page, and what is left after the page leaves.

Runs `todos --inspect` in line mode, fed through a pipe, twice per workload: once with no page,
once with a page's socket open (a plain WebSocket client that reads and drops every message, as
a page that draws nothing would). Reads the resident memory from /proc. Fails when a workload
costs more than LIMIT_MB with the page than without, or when the memory after the page leaves is
not back within RETURNED_MB of the run without a page.

Usage: python3 .ci/inspector-memory.py TODOS_BINARY WORK_DIRECTORY
"""

import re
import sys
import time

from inspector_demo import Demo, Page, fail

LIMIT_MB = 100
RETURNED_MB = 40

todos, work = sys.argv[1], sys.argv[2]


def run(name, with_page, commands, setup, returned_below=None):
    demo = Demo(todos, work, name)
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
