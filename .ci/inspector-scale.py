"""The Inspector at the size of a real session, measured on the todos demo (a release build).

Drives `todos --inspect` in line mode through a pipe, with a page's socket that behaves as the
real page does (it asks for the live step's detail after each burst of steps), and measures:

- viewing steps: 20,000 adds, then views of steps 1, 10,000 and 20,000: how long each view
  takes to answer, how long a key takes to reach the app while it is computed, and the peak
  memory against the same adds without a page;
- export and test: a 1,000-add session's export (time, size) and generated test (time, size);
- import: a 200,000-step recording imported into a fresh demo: how long, and how long a key takes
  to reach the app meanwhile;
- a page open: 2,000 adds with the page against without it (the best of three rounds each);
- moves: a continue from the middle of 20,000 adds, its undo, a skip and an unskip: how long
  each takes, and how long a key takes to reach the app meanwhile.

Prints every figure (BENCHMARKS.md quotes them). Fails, by ratio and size, never by a time that
a loaded machine could miss:
- 2,000 adds with a page take more than PAGE_RATIO times as long as without;
- the views' run (of 20,000 adds) peaks more than MEMORY_MB above the run without a page;
- a detail of a step comes after its view was cancelled;
- the export is larger than EXPORT_MB;
- any message on the socket is larger than MESSAGE_MB (the bound the Inspector documents);
- a key waits more than FROZEN_S while the Inspector works: the app froze (before the Inspector
  did its work in slices, a key waited 291 s). This is a hang detector, 20 times the 50 ms the
  Inspector aims at.

Usage: python3 .ci/inspector-scale.py TODOS_BINARY WORK_DIRECTORY [PART...]
where a PART (all of them when none is named) is views, export, import, page or moves; views:N
and moves:N use a session of N adds instead of 20,000.
"""

import os
import sys
import threading
import time

from inspector_demo import Demo, Page, fail, fetch

PAGE_RATIO = 2.0
MEMORY_MB = 200
EXPORT_MB = 10
MESSAGE_MB = 2
FROZEN_S = 1.0
GENERATE_S = 600

todos, work = sys.argv[1], sys.argv[2]
parts = sys.argv[3:] or ["views", "export", "import", "page", "moves"]
failed = []
largest = 0


def adds(count, prefix="Todo number"):
    return ["add %s %d" % (prefix, n) for n in range(count)]


def feed(demo, commands):
    for chunk in range(0, len(commands), 1000):
        demo.send(commands[chunk:chunk + 1000])


def keys_while(demo, busy):
    """Types keys (a filter command each) until `busy()` is false; returns the slowest key's
    round trip and how many keys were typed."""
    slowest, typed = 0.0, 0
    while busy():
        slowest = max(slowest, demo.settle(poll=0.002))
        typed += 1
    return slowest, typed


def finish(demo, page):
    """Closes the page's socket, after noting its largest message, and quits the demo."""
    global largest
    largest = max(largest, page.largest)
    page.close()
    demo.quit()


def check_frozen(label, slowest):
    if slowest > FROZEN_S:
        failed.append("a key waited %.2f s during %s: the app froze" % (slowest, label))


def views(count=20000):
    alone = Demo(todos, work, "views-alone")
    start = time.monotonic()
    feed(alone, adds(count))
    alone.settle()
    alone_time, alone_peak = time.monotonic() - start, alone.memory()[1]
    alone.quit()

    demo = Demo(todos, work, "views-page")
    page = Page(demo.port, demo.token, follow=True)
    start = time.monotonic()
    feed(demo, adds(count))
    demo.settle()
    paged_time = time.monotonic() - start
    print("viewing steps: %d adds take %.1f s without a page, %.1f s with one" %
          (count, alone_time, paged_time))
    for step in (1, count // 2, count):
        asked = time.monotonic()
        page.request({"type": "jump", "step": step})
        answered = {}

        def wait(step=step, asked=asked):
            answered["at"] = page.wait_for(
                lambda m: m.get("type") == "detail" and m.get("step") == step, asked)[0]

        waiter = threading.Thread(target=wait)
        waiter.start()
        slowest, typed = keys_while(demo, waiter.is_alive)
        waiter.join()
        took = answered["at"] - asked
        print("  view of step %d: answered in %.3f s; %d keys meanwhile, the slowest %.3f s" %
              (step, took, typed, slowest))
        check_frozen("the view of step %d" % step, slowest)
    # A far view, cancelled at once: the answer is "cancelled", and no detail of that step
    # follows it (the page has left it).
    far = count // 2 - 1
    asked = time.monotonic()
    page.request({"type": "jump", "step": far})
    page.request({"type": "cancel"})
    at, cancelled = page.wait_for(lambda m: m.get("type") == "cancelled", asked)
    page.request({"type": "resume"})
    page.wait_for(lambda m: m.get("type") == "live", at)
    late = [m for t, m in page.messages if t >= at and m.get("type") == "detail"
            and m.get("step") == far]
    print("  a view of step %d cancelled at once: %d request(s) stopped, in %.3f s" %
          (far, cancelled["requests"], at - asked))
    if late:
        failed.append("a detail of step %d came after its view was cancelled" % far)
    page.request({"type": "resume"})
    demo.settle()
    paged_peak = demo.memory()[1]
    print("  peak memory: %.0f MB without a page, %.0f MB with one (+%.0f MB; the limit, %d MB, "
          "is set at 20,000 adds)" % (alone_peak, paged_peak, paged_peak - alone_peak, MEMORY_MB))
    # NB: the target is set at 20,000 adds; a smaller run prints its figure only.
    if count == 20000 and paged_peak - alone_peak > MEMORY_MB:
        failed.append("viewing steps peaked %.0f MB above the run without a page" %
                      (paged_peak - alone_peak))
    finish(demo, page)


def export():
    demo = Demo(todos, work, "export")
    page = Page(demo.port, demo.token, follow=True)
    feed(demo, adds(1000))
    demo.settle()
    start = time.monotonic()
    status, exported = fetch(demo, "GET", "/export")
    export_time = time.monotonic() - start
    if status != 200:
        fail("the export answered %d: %s" % (status, exported[:500].decode(errors="replace")))
    print("export of 1,000 adds: %.2f s, %.2f MB" % (export_time, len(exported) / 1e6))
    if len(exported) > EXPORT_MB * 1e6:
        failed.append("the export of 1,000 adds is %.1f MB" % (len(exported) / 1e6))
    asked = time.monotonic()
    page.request({"type": "generateTest"})
    answer = page.wait_for(lambda m: m.get("type") == "generatedTest", asked,
                           timeout=GENERATE_S, required=False)
    if answer is None:
        print("  its generated test: no answer within %d s" % GENERATE_S)
        failed.append("the test of 1,000 adds was not generated within %d s" % GENERATE_S)
    else:
        when, generated = answer
        print("  its generated test: %.2f s, %.2f MB" %
              (when - asked, len(generated["source"]) / 1e6))
    finish(demo, page)


def import_():
    # Import: a 200,000-step recording, made by exporting a session of 200,000 toggles.
    demo = Demo(todos, work, "import-source")
    # NB: the timeline starts when a page connects; this one reads and drops what it is sent.
    source_page = Page(demo.port, demo.token)
    demo.send(["add first", "add second"])
    feed(demo, ["toggle 1"] * 199998)
    demo.settle()
    status, recording = fetch(demo, "GET", "/export")
    if status != 200:
        fail("the export of 200,000 steps answered %d: %s"
             % (status, recording[:300].decode(errors="replace")))
    source_page.close()
    demo.quit()
    demo = Demo(todos, work, "import")
    page = Page(demo.port, demo.token, follow=True)
    demo.settle()
    answer = {}

    def run_import():
        answer["result"] = fetch(demo, "POST", "/import", recording)
        answer["at"] = time.monotonic()

    start = time.monotonic()
    importer = threading.Thread(target=run_import)
    importer.start()
    slowest, typed = keys_while(demo, importer.is_alive)
    importer.join()
    status, report = answer["result"]
    print("import of a 200,000-step recording (%.1f MB): %.1f s, answered %d; %d keys meanwhile, "
          "the slowest %.3f s" % (len(recording) / 1e6, answer["at"] - start, status, typed, slowest))
    if status != 200:
        failed.append("the import answered %d: %s" % (status, report[:300].decode(errors="replace")))
    check_frozen("the import", slowest)
    finish(demo, page)


def moves(count=20000):
    """Continue from the middle of a session of `count` adds, undo it, skip a step and put it
    back: how long each takes to answer, and the slowest key typed meanwhile. A move ends by
    putting the store at its result and sending the pages the timeline: that last step is one
    piece of main-actor work, which the slowest key shows."""
    demo = Demo(todos, work, "moves")
    page = Page(demo.port, demo.token, follow=True)
    feed(demo, adds(count))
    demo.settle()
    middle = count // 2
    print("moves on a session of %d adds:" % count)
    for label, request, answer in (
            ("continue from step %d" % middle, {"type": "continue", "step": middle}, "timeline"),
            ("its undo", {"type": "undoContinue"}, "timeline"),
            ("skip step %d" % (middle + middle // 2), {"type": "skip", "step": middle + middle // 2},
             "timeline"),
            ("unskip it", {"type": "unskip", "step": middle + middle // 2}, "timeline")):
        asked = time.monotonic()
        page.request(request)
        answered = {}

        def wait(asked=asked, answer=answer):
            answered["at"], answered["message"] = page.wait_for(
                lambda m: m.get("type") in (answer, "error"), asked)

        waiter = threading.Thread(target=wait)
        waiter.start()
        slowest, typed = keys_while(demo, waiter.is_alive)
        waiter.join()
        if answered["message"].get("type") == "error":
            failed.append("%s answered: %s" % (label, answered["message"].get("message")))
        # NB: the page waits for the timeline's steps as well: the last chunk has the last step.
        print("  %s: answered in %.3f s; %d keys meanwhile, the slowest %.3f s" %
              (label, answered["at"] - asked, typed, slowest))
        check_frozen(label, slowest)
    finish(demo, page)


def page_open():
    global largest
    # A page open: 2,000 adds, the best of three rounds with and without a page, alternating.
    times = {False: [], True: []}
    for round_ in range(3):
        for with_page in (False, True):
            demo = Demo(todos, work, "page-%d-%s" % (round_, with_page))
            page = Page(demo.port, demo.token, follow=True) if with_page else None
            demo.settle()
            start = time.monotonic()
            feed(demo, adds(2000))
            demo.settle()
            times[with_page].append(time.monotonic() - start)
            if page:
                largest = max(largest, page.largest)
                page.close()
            demo.quit()
    ratio = min(times[True]) / min(times[False])
    print("a page open: 2,000 adds take %.2f s without a page, %.2f s with one: %.2fx (limit %.1fx)" %
          (min(times[False]), min(times[True]), ratio, PAGE_RATIO))
    if ratio > PAGE_RATIO:
        failed.append("2,000 adds took %.2fx as long with a page" % ratio)

for part in parts:
    # NB: "views:5000" views a session of 5,000 adds (CI's size: a hang and a frozen key are
    # caught in a minute); "views" is the 20,000 of the targets.
    name, _, size = part.partition(":")
    run = {"views": views, "export": export, "import": import_, "page": page_open,
           "moves": moves}[name]
    run(int(size)) if size else run()

print("the largest message on a socket: %.2f MB (limit %d)" % (largest / 1e6, MESSAGE_MB))
if largest > MESSAGE_MB * (1 << 20):
    failed.append("a message of %.2f MB" % (largest / 1e6))
if failed:
    fail("; ".join(failed))
print("inspector at scale: within the limits")
