"""Drives the Inspector's page in headless Chromium for .ci/check-inspector.

Usage: inspector-browser.py URL FIFO OUTPUT TODOS_BINARY WORK_DIR ARTIFACT_DIR
"""

import json
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

url, fifo, output, todos, work, artifacts = sys.argv[1:7]
TIMEOUT = 30


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def command(line):
    """Pipes one command into the demo."""
    with open(fifo, "w") as pipe:
        pipe.write(line + "\n")


def demo_output():
    with open(output) as file:
        return file.read()


def wait_for(description, predicate, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    fail("timed out waiting for " + description)


def wait_for_output(description, predicate):
    """Waits until the demo's output after a marker command satisfies predicate."""
    return wait_for(description, lambda: predicate(demo_output()))


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--disable-gpu"]:
    options.add_argument(argument)
options.add_experimental_option("prefs", {"download.default_directory": work})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(TIMEOUT)


def shot(name):
    path = os.path.join(artifacts, name)
    driver.save_screenshot(path)
    print("screenshot: " + path)


def text(element_id):
    return driver.find_element(By.ID, element_id).text


def rows():
    """The log's rows in the document: (step, case, origin)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#log .row')].map(r => "
        "[Number(r.dataset.step), r.querySelector('.c').textContent, "
        "r.querySelector('.origin').textContent]);")


def next_frame():
    """Waits until the page has drawn: it draws a burst of steps once per animation frame, so
    the document can lag the steps it has received by one frame."""
    driver.execute_async_script(
        "const done = arguments[0];"
        "requestAnimationFrame(() => requestAnimationFrame(() => done()));")


def step_count():
    return driver.execute_script("return steps.length;")


def last_step():
    return driver.execute_script("return steps.length ? steps[steps.length - 1].i : 0;")


try:
    # A page without the token is refused.
    driver.get(url.split("?")[0])
    if "Forbidden" not in driver.page_source:
        fail("the page was served without the token")

    driver.get(url)
    wait_for("the page to connect", lambda: text("status") == "live")
    print("page connected:", driver.title)

    # The log grows as commands are piped in.
    command("add Buy milk")
    wait_for("the first step in the log", lambda: step_count() >= 1)
    command("add Walk the dog")
    command("toggle 1")
    wait_for("three steps in the log", lambda: step_count() >= 3 and len(rows()) >= 3)
    logged = rows()
    print("log:", logged)
    cases = [case for _, case, _ in logged]
    if cases[:3] != ["add", "add", "toggle"]:
        fail("the log shows %s, not add, add, toggle" % cases)
    if any(origin != "send" for _, _, origin in logged[:3]):
        fail("the piped commands are not shown as sends: %s" % logged)
    shot("inspector-live.png")

    # Clicking a row views that step, and the slider's thumb goes to it.
    driver.execute_script(
        "document.querySelector('#log .row[data-step=\"2\"]').click();")
    wait_for("the page to view step 2 after a click", lambda: text("status").startswith("viewing step 2"))
    thumb = driver.execute_script("return document.getElementById('slider').value;")
    if thumb != "2":
        fail("after a click on step 2, the slider's thumb is at %s" % thumb)
    driver.find_element(By.ID, "live").click()
    wait_for("the page to be live after the click", lambda: text("status") == "live")


    # The search and the case filter narrow the log.
    driver.find_element(By.ID, "search").send_keys("Walk")
    wait_for("the search to narrow the log", lambda: len(rows()) == 1)
    driver.find_element(By.ID, "search").clear()
    driver.execute_script(
        "document.getElementById('search').dispatchEvent(new Event('input'));")
    driver.execute_script(
        "const s = document.getElementById('caseFilter'); s.value = 'toggle';"
        "s.dispatchEvent(new Event('change'));")
    wait_for("the filter to keep the toggle", lambda: [r[1] for r in rows()] == ["toggle"])
    driver.execute_script(
        "const s = document.getElementById('caseFilter'); s.value = '';"
        "s.dispatchEvent(new Event('change'));")

    # The slider shows step 1 (one todo, not done); the demo stays at its live state.
    driver.execute_script(
        "const s = document.getElementById('slider'); s.value = 1;"
        "s.dispatchEvent(new Event('change'));")
    wait_for("the page to view step 1", lambda: text("status").startswith("viewing step 1"))
    wait_for("the state of step 1", lambda: text("detailStep") == "1")
    if "Buy milk" not in text("state") or "Walk the dog" in text("state"):
        fail("the state shown at step 1 is not the list with one todo: " + text("state"))
    if "Buy milk" not in text("diffTree"):
        fail("the diff tree of step 1 does not show the added todo: " + text("diffTree"))
    # The detail is the step's changed paths, not the states before and after.
    changes = driver.execute_script(
        "return lastDetail.previous === undefined && lastDetail.changes.map("
        "c => [c.kind, c.path.length, JSON.stringify(c.new || null)]);")
    print("changes of step 1:", changes)
    if not changes or not any(kind == "added" and "Buy milk" in new for kind, _, new in changes):
        fail("the detail of step 1 does not list the added todo as a changed path: %s" % changes)
    mark = len(demo_output())
    command("list")
    listed = wait_for_output(
        "the demo's list while the page views step 1",
        lambda out: "left of" in out[mark:] and out[mark:])
    print("list while viewing step 1:\n" + listed)
    if "[x] Buy milk" not in listed or "Walk the dog" not in listed:
        fail("viewing step 1 moved the demo away from its live state")
    # An action sent meanwhile applies to the live state, and the log goes on with it.
    command("add While viewing")
    wait_for("the new step in the log while viewing", lambda: step_count() >= 4 and
             any(case == "add" and step == 4 for step, case, _ in rows()))
    if not text("status").startswith("viewing step 1"):
        fail("a new step ended the view of step 1: " + text("status"))
    shot("inspector-viewing.png")

    # Continue from here: after the confirmation, the demo is at step 1, and undo puts the
    # set-aside steps back.
    driver.execute_script("window.confirm = () => true;")
    driver.find_element(By.ID, "continue").click()
    wait_for("the set-aside notice", lambda: "set aside" in text("notice"))
    print("notice:", text("notice"))
    mark = len(demo_output())
    command("list")
    listed = wait_for_output(
        "the demo's list after continue", lambda out: "left of" in out[mark:] and out[mark:])
    if "Buy milk" not in listed or "Walk the dog" in listed or "While viewing" in listed:
        fail("after continue from step 1 the demo does not list step 1's one todo:\n" + listed)
    wait_for("the undo button", lambda: "Undo continue (3 steps" in text("undoContinue"))
    driver.find_element(By.ID, "undoContinue").click()
    wait_for("the set-aside steps back in the log", lambda: step_count() >= 4)
    mark = len(demo_output())
    command("list")
    listed = wait_for_output(
        "the demo's list after undo", lambda out: "left of" in out[mark:] and out[mark:])
    print("list after undo:\n" + listed)
    if "[x] Buy milk" not in listed or "While viewing" not in listed:
        fail("undo continue did not put the demo back at its live state:\n" + listed)
    wait_for("the page to be live", lambda: text("status") == "live")
    # Skip: the step's action is left out, the demo is put at the state without it, and the
    # row is struck out; unskip puts it back.
    driver.execute_script(
        "const row = [...document.querySelectorAll('#log .row')].find(r => "
        "r.querySelector('.s').textContent.includes('While viewing')); row.click();")
    wait_for("the skip button", lambda: text("skip") == "Skip")
    driver.find_element(By.ID, "skip").click()
    wait_for("the skip notice", lambda: "Skipped step" in text("notice"))
    wait_for("the skipped row struck out", lambda: driver.execute_script(
        "return document.querySelectorAll('#log .row.skipped').length;") == 1)
    mark = len(demo_output())
    command("list")
    listed = wait_for_output(
        "the demo's list after skip", lambda out: "left of" in out[mark:] and out[mark:])
    if "While viewing" in listed or "Buy milk" not in listed:
        fail("after skipping the add, the demo still lists it:\n" + listed)
    print("notice:", text("notice"))
    wait_for("the unskip button", lambda: text("skip") == "Unskip")
    driver.find_element(By.ID, "skip").click()
    wait_for("the unskip notice", lambda: "is back" in text("notice"))
    mark = len(demo_output())
    command("list")
    listed = wait_for_output(
        "the demo's list after unskip", lambda out: "left of" in out[mark:] and out[mark:])
    if "While viewing" not in listed:
        fail("after unskipping the add, the demo does not list it:\n" + listed)
    driver.find_element(By.ID, "live").click()
    wait_for("the page to be live", lambda: text("status") == "live")
    print("skip left the add out of the demo's list, and unskip put it back")
    # The undo set aside the empty branch made after the continue: swap it back out of view.
    base = step_count()

    # Pause: the log and the slider stop following; resume shows what came meanwhile.
    driver.find_element(By.ID, "pause").click()
    wait_for("the page to pause", lambda: text("status") == "paused")
    command("add While paused")
    wait_for("the step to reach the page", lambda: step_count() >= base + 1)
    next_frame()
    if len(rows()) != base or driver.execute_script(
            "return document.getElementById('slider').max;") != str(base):
        fail("the paused log followed the new step")
    driver.find_element(By.ID, "resume").click()
    wait_for("the paused step to show", lambda: len(rows()) == base + 1)

    # An action typed as JSON: a bad one shows its decoding error, a good one is applied.
    box = driver.find_element(By.ID, "actionInput")
    box.send_keys('{"frobnicate":{}}')
    driver.find_element(By.ID, "send").click()
    wait_for("the decoding error", lambda: "decode" in text("sendResult"))
    print("bad action:", text("sendResult"))
    box.clear()
    box.send_keys('{"add":{"_0":"Sent from the page"}}')
    driver.find_element(By.ID, "send").click()
    wait_for("the sent action", lambda: text("sendResult") == "sent")
    wait_for("the sent action in the log", lambda: step_count() >= base + 2)

    # Export: the session is a recording that the demo replays.
    exported = driver.execute_async_script(
        "const done = arguments[0];"
        "fetch('/export?token=' + new URLSearchParams(location.search).get('token'))"
        ".then(r => r.text()).then(done);")
    session = json.loads(exported)
    if session.get("formatVersion") != 1 or len(session["actions"]) < 5:
        fail("the export is not a recording of the session: " + exported[:300])
    session_path = os.path.join(artifacts, "inspector-session.json")
    with open(session_path, "w") as file:
        file.write(exported)
    replay = subprocess.run([todos, "--replay", session_path], capture_output=True, text=True)
    print("replay:", replay.stdout.strip(), replay.stderr.strip())
    if replay.returncode != 0 or "reproduced" not in replay.stdout:
        fail("todos --replay did not reproduce the exported session")
    driver.find_element(By.ID, "export").click()
    wait_for("the export button's download",
             lambda: os.path.exists(os.path.join(work, "session.json")))

    # Generate test: the page turns the session into a Swift Testing test of the list feature.
    driver.find_element(By.ID, "generate").click()
    wait_for("the generated test", lambda: "await store.send(.add(" in
             driver.find_element(By.ID, "generated").get_attribute("value"))
    generated = driver.find_element(By.ID, "generated").get_attribute("value")
    if "TestStore(initialState: Todos.State(" not in generated:
        fail("the generated test does not build a TestStore of the list: " + generated[:300])

    # Import: the page replays the session against the feature.
    driver.execute_script("document.getElementById('importFile').classList.remove('hidden');")
    driver.find_element(By.ID, "importFile").send_keys(os.path.abspath(session_path))
    wait_for("the import's result", lambda: "reproduced" in text("importResult"))
    print("import:", text("importResult"))
    # NB: the session had a continue, its undo and a skip, and stores the last state alone:
    # the states they put the store at are replays of its own steps.
    stored = [checkpoint["step"] for checkpoint in session["checkpoints"]]
    if stored != [len(session["actions"])]:
        fail("the export stores states other than the last: at steps %s" % stored)
    session["checkpoints"][0]["state"]["list"]["todos"][0]["title"] = "Edited"
    edited_path = os.path.join(work, "edited.json")
    with open(edited_path, "w") as file:
        json.dump(session, file)
    driver.find_element(By.ID, "importFile").send_keys(edited_path)
    diverged = "diverged at step %d" % stored[0]
    wait_for("the divergence", lambda: diverged in text("importResult"))
    print("edited import:", text("importResult").splitlines()[0])

    driver.execute_script(
        "const s = document.getElementById('slider'); s.value = 2;"
        "s.dispatchEvent(new Event('change'));")
    wait_for("the page to view step 2", lambda: text("status").startswith("viewing step 2"))
    driver.execute_script(
        "document.getElementById('importFile').classList.add('hidden');"
        "document.getElementById('importSection').classList.add('hidden');"
        "document.getElementById('generatedSection').classList.add('hidden');"
        "document.getElementById('right').scrollTop = 0;")
    shot("inspector-screenshot.png")
    driver.find_element(By.ID, "live").click()
    wait_for("the page to be live again", lambda: text("status") == "live")
    # A long request's progress shows with a Cancel button, which sends "cancel"; the server's
    # answer hides it. (The server's side, a replay stopped at its next slice, is tested in
    # InspectorScaleTests: here the message is handed to the page as the socket would.)
    # NB: in one script: any answer the page receives (a follow's detail) hides the progress.
    shown = driver.execute_script(
        "window.sentTypes = []; const send = socket.send.bind(socket);"
        "socket.send = (text) => { window.sentTypes.push(JSON.parse(text).type); send(text); };"
        "socket.onmessage({data: JSON.stringify({type: 'progress', context: 'jump', step: 7,"
        " done: 1500, total: 3000})});"
        "const working = document.getElementById('working');"
        "const shown = working.classList.contains('hidden') ? '' : working.innerText;"
        "document.getElementById('cancelWork').click();"
        "return shown;")
    if not shown.startswith("recomputing step 7 · 50 %"):
        fail("a long request's progress showed as %r" % shown)
    if "cancel" not in driver.execute_script("return window.sentTypes;"):
        fail("the Cancel button sent no cancel")
    wait_for("the progress to go", lambda: not driver.find_element(By.ID, "working").is_displayed())
    print("a long request's progress showed, and its Cancel sent: %s" % driver.execute_script(
        "return window.sentTypes;"))

    # 99,000 steps: the page sends them as actions; the log stays virtualized and searchable.
    # NB: the window is hard at 100,000 steps: the sent action, fewer than 1,000 steps before
    # the burst, stays in it, and the search must find it among the whole window.
    before = last_step()
    driver.execute_script(
        "for (let n = 0; n < 99000; n++) socket.send(JSON.stringify("
        "{type: 'send', action: {setFilter: {_0: n % 2 ? 'all' : 'active'}}}));")
    wait_for("99,000 more steps", lambda: last_step() >= before + 99000, timeout=300)
    in_document = driver.execute_script("return document.querySelectorAll('#log .row').length;")
    print("99,000 more steps: %d rows in the document" % in_document)
    if in_document > 200:
        fail("the log is not virtualized: %d rows in the document" % in_document)
    driver.execute_script(
        "const log = document.getElementById('log'); log.scrollTop = 50000 * 22;"
        "log.dispatchEvent(new Event('scroll'));")
    wait_for("the middle of the log (steps 49,990 to 50,020) to show after the scroll",
             lambda: any(49990 <= step <= 50020 for step, _, _ in rows()))
    started = time.monotonic()
    driver.find_element(By.ID, "search").send_keys("Sent from")
    wait_for("the search over the window of steps", lambda: len(rows()) == 1)
    print("search over %d steps: %.2f s" % (step_count(), time.monotonic() - started))
    shot("inspector-100k.png")

    # A dropped socket is opened again: the page says it is offline, reconnects, and follows
    # the steps again (a fresh timeline, as the server starts one when its last page leaves).
    # A title with a right-to-left override shows the override as its escape, not reversed text.
    driver.find_element(By.ID, "search").clear()
    driver.execute_script(
        "document.getElementById('search').dispatchEvent(new Event('input'));")
    driver.execute_script("socket.close();")
    wait_for("the page to see the socket closed", lambda: text("status").startswith("offline"))
    wait_for("the page to reconnect", lambda: text("status") == "live", timeout=60)
    command("add Invoice \u202egnp.exe")
    wait_for("the step after the reconnect", lambda: any(
        "Invoice" in s for s in driver.execute_script(
            "return [...document.querySelectorAll('#log .row .s')].map(s => s.textContent);")),
        timeout=60)
    shown = [s for s in driver.execute_script(
        "return [...document.querySelectorAll('#log .row .s')].map(s => s.textContent);")
        if "Invoice" in s][0]
    if "\u202e" in shown or "\\u{202E}" not in shown:
        fail("the log shows a right-to-left override as it is: %r" % shown)
    print("after a reconnect, the log shows: %s" % shown)
    # The send box, filled from that action, holds JSON's own escape: the same string, shown.
    driver.execute_script(
        "const s = document.getElementById('templates'); s.value = 'add';"
        "s.dispatchEvent(new Event('change'));")
    wait_for("the send box to hold the add", lambda: "Invoice" in driver.find_element(
        By.ID, "actionInput").get_attribute("value"))
    template = driver.find_element(By.ID, "actionInput").get_attribute("value")
    if "\u202e" in template or "\\u202E" not in template or json.loads(template) != {
            "add": {"_0": "Invoice \u202egnp.exe"}}:
        fail("the send box holds %r" % template)

    # The keyboard steps through the log, as in Redux DevTools: ← views the step before, → the
    # step after, and → past the live step goes back to live.
    command("add Step two")
    command("add Step three")
    wait_for("two more steps", lambda: any(
        "Step three" in r for r in driver.execute_script(
            "return [...document.querySelectorAll('#log .row .s')].map(s => s.textContent);")))
    live = last_step()
    body = driver.find_element(By.TAG_NAME, "body")
    for key, expected in [(Keys.ARROW_LEFT, live - 1), (Keys.ARROW_LEFT, live - 2),
                          (Keys.ARROW_RIGHT, live - 1), (Keys.ARROW_RIGHT, live)]:
        body.send_keys(key)
        wait_for("the key to view step %d" % expected,
                 lambda: text("status").startswith("viewing step %d " % expected))
    body.send_keys(Keys.ARROW_RIGHT)
    wait_for("→ past the live step to go back to live", lambda: text("status") == "live")
    # Play goes forward a step at a time from the step shown, then back to live.
    body.send_keys(Keys.ARROW_LEFT)
    body.send_keys(Keys.ARROW_LEFT)
    wait_for("step %d" % (live - 2), lambda: text("status").startswith("viewing step %d " % (live - 2)))
    driver.execute_script(
        "window.viewed = []; const shown = view;"
        "view = (step) => { window.viewed.push(step); shown(step); };")
    driver.find_element(By.ID, "play").click()
    wait_for("play to reach the live end",
             lambda: text("status") == "live" and text("play") == "Play")
    viewed = driver.execute_script("return window.viewed;")
    if viewed != [live - 1, live]:
        fail("play viewed the steps %s, not %s" % (viewed, [live - 1, live]))
    print("play viewed the steps %s, then the live end" % viewed)
    # Steps received and not drawn yet are "behind", never "live".
    driver.execute_script("renderScheduled = true;")  # holds the next frame's drawing back
    command("add Drawn later")
    wait_for("the status to say the page is behind", lambda: "behind" in text("status"))
    print("before the page drew the new step, its status read: %s" % text("status"))
    driver.execute_script("renderScheduled = false; scheduleRender();")
    wait_for("the page to be live once it drew", lambda: text("status") == "live")

    # The page's view survives a reload: the search, the diff's view and the step viewed. A
    # second page keeps the timeline while the first reloads (the last page to leave drops it).
    first_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(url)
    wait_for("the second page to connect", lambda: text("status") == "live")
    driver.switch_to.window(first_tab)
    driver.find_element(By.CSS_SELECTOR, "[data-diff=text]").click()
    target = last_step() - 1
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait_for("step %d" % target, lambda: text("status").startswith("viewing step %d " % target))
    driver.find_element(By.ID, "search").send_keys("Step")
    wait_for("the search to keep the two Step rows", lambda: len(rows()) == 2)
    driver.refresh()
    wait_for("the reloaded page to view step %d again" % target,
             lambda: text("status").startswith("viewing step %d " % target))
    wait_for("the reloaded page to show step %d's diff as text" % target,
             lambda: text("detailStep") == str(target) and driver.execute_script(
                 "return !document.getElementById('diff').classList.contains('hidden');"))
    search = driver.find_element(By.ID, "search").get_attribute("value")
    if search != "Step" or len(rows()) != 2:
        fail("after a reload the search is %r, with %d rows" % (search, len(rows())))
    print("after a reload the page views step %d, with its search and its diff's view" % target)

    # Commit starts the timeline at the live state (the log empties; the demo keeps its todos);
    # Revert puts the demo back at that state after new steps.
    driver.find_element(By.ID, "live").click()
    driver.find_element(By.ID, "search").clear()
    driver.execute_script(
        "document.getElementById('search').dispatchEvent(new Event('input'));"
        "window.confirm = () => true;")
    wait_for("the page to be live before the commit", lambda: text("status") == "live")
    committed_at = last_step()
    driver.find_element(By.ID, "commit").click()
    wait_for("the commit's notice", lambda: "Committed" in text("notice"))
    wait_for("an empty log after the commit", lambda: step_count() == 0)
    command("add After the commit")
    wait_for("the step after the commit", lambda: last_step() == committed_at + 1)
    driver.find_element(By.ID, "revert").click()
    wait_for("the revert's notice",
             lambda: "Continued from step %d" % committed_at in text("notice"))
    mark = len(demo_output())
    command("list")
    listed = wait_for_output("the demo's list after the revert",
                             lambda out: "left of" in out[mark:] and out[mark:])
    if "Drawn later" not in listed or "After the commit" in listed:
        fail("the revert did not put the demo back at the committed state:\n" + listed)
    print("commit, then revert: %s" % text("notice"))
finally:
    driver.quit()
