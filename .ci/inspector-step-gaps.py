"""The largest gaps between the app's steps during bursts of adds, with the Inspector's page
open: a probe for the Benchmarks' notes, not a CI check (the gaps are noisy).

    python3 .ci/inspector-step-gaps.py TODOS WORKDIR [idle|follow] [ADDS]

Feeds the release todos demo ADDS adds (20,000 by default) in bursts of 1,000 through its pipe,
with a page whose socket asks for one step's detail first (so that the session encodes a state
off the main actor, and frees what it lets go of there too), and then either follows each burst
(`follow`) or asks for nothing (`idle`, the default). Then it exports the session and prints the
eight largest gaps between two steps' times inside a burst: how long the main actor went without
reducing the next add.
"""
import os
import sys
import time
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inspector_demo import Demo, Page, fetch  # noqa: E402

todos, work = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "idle"
count = int(sys.argv[4]) if len(sys.argv) > 4 else 20000
os.makedirs(work, exist_ok=True)
demo = Demo(todos, work, "gaps")
page = Page(demo.port, demo.token, follow=(mode == "follow"))
demo.send(["add first"])
demo.settle()
asked = time.monotonic()
page.request({"type": "jump", "step": 1})
page.wait_for(lambda m: m.get("type") == "detail" and m.get("step") == 1, asked)
page.request({"type": "resume"})
bursts = []
for start in range(0, count, 1000):
    demo.send(["add Todo number %d" % n for n in range(start, start + 1000)])
    demo.settle()
status, exported = fetch(demo, "GET", "/export")
if status != 200:
    sys.exit("the export answered %d" % status)
recording = json.loads(exported)
times = [float(t) / 1e6 for t in recording["times"]]  # microseconds since the session started
# NB: `settle()` types a filter key to learn the app is idle: only gaps between two adds count.
actions = recording["actions"]
gaps = []
for index in range(1, len(times)):
    if "add" in actions[index] and "add" in actions[index - 1]:
        gaps.append((times[index] - times[index - 1], index))
gaps.sort(reverse=True)
print("%s page, %d adds: the largest gaps inside bursts (ms at step): %s" % (
    mode, count, ", ".join("%.0f at %d" % (gap * 1000, step) for gap, step in gaps[:8])))
page.close()
demo.quit()
