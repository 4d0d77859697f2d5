"""Steps set aside by the Inspector's "continue from here" are never lost, on the todos demo.

Drives `todos --inspect` in line mode through a pipe, with a page's socket on 127.0.0.1:
3 adds, a continue from step 1 (steps 2 and 3 set aside), 1 more add, then a continue from step
0 while steps are set aside. The second continue keeps the first one's steps (the timeline
message counts them in `kept`), so at quit the demo writes two sessions beside its file, says
so, and `todos --replay` reproduces each.

Usage: python3 .ci/inspector-set-aside.py TODOS_BINARY WORK_DIRECTORY
"""

import os
import subprocess
import sys
import time

from inspector_demo import Demo, Page, fail

todos, work = sys.argv[1], sys.argv[2]
demo = Demo(todos, work, "set-aside")
page = Page(demo.port, demo.token, follow=False)
demo.send(["add one", "add two", "add three"])
demo.settle()
asked = time.monotonic()
page.request({"type": "continue", "step": 1})
page.wait_for(lambda m: m.get("type") == "timeline" and m.get("branch"), asked)
demo.send(["add four"])
demo.settle()
asked = time.monotonic()
page.request({"type": "continue", "step": 0})
_, timeline = page.wait_for(lambda m: m.get("type") == "timeline" and m.get("kept"), asked)
if timeline["kept"] != 1:
    fail("the second continue kept %r earlier sessions, not 1" % timeline["kept"])
page.close()
demo.quit()
said = open(demo.err).read()
written = sorted(name for name in os.listdir(work) if ".set-aside-" in name)
if len(written) != 2:
    fail("the demo wrote %d set-aside sessions at quit, not 2: %s\n%s" % (len(written), written, said))
for name in written:
    path = os.path.join(work, name)
    if path not in said:
        fail("the demo did not say it wrote %s:\n%s" % (path, said))
    replay = subprocess.run([todos, "--replay", path], capture_output=True, text=True, timeout=60)
    if replay.returncode != 0 or "reproduced" not in replay.stdout + replay.stderr:
        fail("todos --replay %s did not reproduce it:\n%s%s" % (name, replay.stdout, replay.stderr))
print("two continues: both set-aside sessions were written at quit (%s), and each replays" %
      ", ".join(written))
