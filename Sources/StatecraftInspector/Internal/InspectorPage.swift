// Owns the page the Inspector serves: one self-contained HTML document (its CSS and script
// inline, nothing loaded from the network) that speaks the socket protocol of
// InspectorMessage.swift. The log is virtualized (only the rows in view are in the document),
// so that 100,000 steps stay usable; a step's state and diff are asked for when it is selected.
// A large state comes cut to a budget: a cut container asks for more of its children, a page at
// a time, when it is opened or its "more" link is clicked.
// Viewing a step never moves the store: the log goes on with the live steps, and only "Continue
// from here" (after a confirmation that says what it sets aside) or its undo change the state.

import Foundation

enum InspectorPage {
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>Statecraft Inspector</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
    :root { --bg:#111418; --panel:#1a1f25; --line:#2a313a; --text:#d8dee6; --dim:#8a96a3;
      --accent:#5aa9ff; --send:#7cd992; --effect:#f0b35a; --del:#ff7b7b; --add:#7cd992; }
    * { box-sizing: border-box; }
    body { margin:0; font:13px/1.4 ui-sans-serif, system-ui, sans-serif; background:var(--bg);
      color:var(--text); height:100vh; display:flex; flex-direction:column; }
    header { display:flex; gap:8px; align-items:center; padding:6px 10px; background:var(--panel);
      border-bottom:1px solid var(--line); flex-wrap:wrap; }
    header h1 { font-size:14px; margin:0 12px 0 0; }
    button, select, input, textarea { font:inherit; color:var(--text); background:#232a32;
      border:1px solid var(--line); border-radius:4px; padding:3px 8px; }
    button:hover { border-color:var(--accent); cursor:pointer; }
    #status { padding:2px 8px; border-radius:10px; background:#2b3440; }
    #status.live { background:#1f4d2c; } #status.paused { background:#5a4418; }
    #status.viewing { background:#1f3d5a; } #status.offline { background:#5a1f1f; }
    #working { padding:2px 8px; border-radius:10px; background:#3a2f4a; }
    main { flex:1; display:flex; min-height:0; }
    #left { width:45%; min-width:320px; display:flex; flex-direction:column;
      border-right:1px solid var(--line); }
    #filters { display:flex; gap:6px; padding:6px; border-bottom:1px solid var(--line); }
    #search { flex:1; }
    #log { flex:1; overflow-y:auto; position:relative; font-family:ui-monospace, monospace;
      font-size:12px; }
    #spacer { position:relative; }
    .row { position:absolute; left:0; right:0; height:22px; padding:2px 6px; white-space:nowrap;
      overflow:hidden; text-overflow:ellipsis; cursor:pointer; border-bottom:1px solid #171b20; }
    .row:hover { background:#202730; } .row.selected { background:#1f3d5a; }
    .row .i { color:var(--dim); display:inline-block; min-width:56px; }
    .row .c { color:var(--accent); margin-right:6px; }
    .origin { font-size:10px; padding:0 5px; border-radius:8px; margin-right:6px; }
    .origin.send { background:#1f4d2c; color:var(--send); }
    .origin.effect { background:#5a4418; color:var(--effect); }
    .row .s { color:var(--dim); }
    .row.skipped .c, .row.skipped .s { text-decoration:line-through; opacity:.6; }
    #timeline { display:flex; gap:8px; align-items:center; padding:6px;
      border-top:1px solid var(--line); }
    #slider { flex:1; }
    #right { flex:1; display:flex; flex-direction:column; min-width:0; overflow:auto; }
    section { border-bottom:1px solid var(--line); padding:8px 10px; }
    section h2 { font-size:12px; text-transform:uppercase; letter-spacing:.05em; color:var(--dim);
      margin:0 0 6px; }
    pre { margin:0; white-space:pre-wrap; word-break:break-word;
      font:12px/1.45 ui-monospace, monospace; }
    #diff .del { color:var(--del); } #diff .add { color:var(--add); }
    .tree { font:12px/1.5 ui-monospace, monospace; }
    .tree details { margin-left:14px; } .tree summary { cursor:pointer; margin-left:-14px; }
    .tree .leaf { margin-left:14px; } .tree .k { color:#c9a0ff; } .tree .str { color:#9fd4a0; }
    .tree .num { color:#f0b35a; } .tree .lit { color:#5aa9ff; }
    textarea { width:100%; min-height:60px; font-family:ui-monospace, monospace; font-size:12px; }
    .error { color:var(--del); white-space:pre-wrap; }
    .ok { color:var(--add); }
    .hidden { display:none !important; }
    #notice { padding:6px 10px; background:#1f3d5a; border-bottom:1px solid var(--line); }
    #timeline button { white-space:nowrap; }
    .views { float:right; display:flex; gap:6px; align-items:center; font-size:11px;
      text-transform:none; letter-spacing:0; }
    .views button { padding:0 6px; font-size:11px; } .views button.on { border-color:var(--accent); }
    .tree .changed > summary, .tree .leaf.changed { background:#2b2410; }
    .tree .added { color:var(--add); } .tree .removed { color:var(--del); text-decoration:line-through; }
    .tree .old { color:var(--del); text-decoration:line-through; margin-right:6px; }
    .tree .more { cursor:pointer; color:#8a8f98; }
    #templates { max-width:100%; margin-bottom:4px; }
    </style>
    </head>
    <body>
    <header>
      <h1>Statecraft Inspector <span id="feature"></span></h1>
      <span id="status" class="offline">connecting</span>
      <span id="working" class="hidden"><span id="workingText"></span>
        <button id="cancelWork" title="Stop recomputing (Escape)">Cancel</button></span>
      <button id="pause">Pause</button>
      <button id="resume" class="hidden">Resume</button>
      <button id="export">Export session</button>
      <label><button id="importButton">Import session</button>
        <input id="importFile" type="file" accept="application/json,.json" class="hidden"></label>
      <button id="generate" class="hidden">Generate test</button>
      <span id="count"></span>
    </header>
    <div id="notice" class="hidden"></div>
    <main>
      <div id="left">
        <div id="filters">
          <input id="search" type="search" placeholder="Search actions">
          <select id="caseFilter"><option value="">All cases</option></select>
        </div>
        <div id="log"><div id="spacer"></div></div>
        <div id="timeline">
          <button id="back" title="The step before (←)">◀</button>
          <button id="play" title="Play the steps from the one shown to the live end (space)">Play</button>
          <button id="forward" title="The step after (→)">▶</button>
          <input id="slider" type="range" min="0" max="0" value="0">
          <span id="stepLabel">0 / 0</span>
          <button id="live" class="hidden" title="Show the live state again">Back to live</button>
          <button id="skip" class="hidden"
            title="Leave this step's action out: the steps after it are recomputed, and the app is put at the result">Skip</button>
          <button id="continue" class="hidden"
            title="Put the app at this step, setting the later steps aside">Continue from here…</button>
          <button id="undoContinue" class="hidden">Undo continue</button>
          <button id="commit" class="hidden"
            title="Start the timeline at the live state, dropping the steps before it">Commit</button>
          <button id="revert" class="hidden"
            title="Put the app back at the timeline's first step (the last commit)">Revert…</button>
        </div>
      </div>
      <div id="right">
        <section id="importSection" class="hidden"><h2>Imported session
          <span class="views"><button data-close="importSection">Close</button></span></h2>
          <pre id="importResult"></pre></section>
        <section id="generatedSection" class="hidden"><h2>Generated test
          <span class="views"><button data-close="generatedSection">Close</button></span></h2>
          <textarea id="generated" rows="16" readonly></textarea></section>
        <section id="errors" class="hidden"><h2>Errors
          <span class="views"><button data-close="errors">Close</button></span></h2>
          <pre id="errorText" class="error"></pre></section>
        <section><h2>Step <span id="detailStep">–</span> action <span id="recomputed"></span></h2>
          <pre id="action">–</pre></section>
        <section><h2>Diff (this step's change)
          <span class="views"><label><input type="checkbox" id="changedOnly" checked>
            changed only</label>
            <button data-diff="tree" class="on">Tree</button><button data-diff="text">Text</button>
          </span></h2>
          <div id="diffTree" class="tree">–</div><pre id="diff" class="hidden">–</pre></section>
        <section><h2>State
          <span class="views"><button data-state="tree" class="on">Tree</button>
            <button data-state="raw">Raw JSON</button></span></h2>
          <div id="state" class="tree">–</div><pre id="stateRaw" class="hidden"></pre></section>
        <section id="sendSection"><h2>Send an action (JSON)</h2>
          <select id="templates"><option value="">Start from a recorded action…</option></select>
          <textarea id="actionInput"></textarea>
          <button id="send">Send</button> <span id="sendResult"></span></section>
      </div>
    </main>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const $ = (id) => document.getElementById(id);
    const ROW = 22;
    const steps = [];            // {i, c, o, s}, in step order
    let visible = [];            // indices into steps that pass the filters
    let cases = new Set();
    let paused = false;          // the log stops following the live steps (the user's choice)
    let viewing = null;          // the past step the page shows; the store stays live
    let selected = null;         // the selected step number
    let capabilities = {};
    let socket = null;
    let retryDelay = 1000, retryTimer = null, retryAt = null; // reconnecting a dropped socket
    let reportedLiveStep = 0;    // the app's live step, as the last detail reported it
    let playTimer = null;        // playing the steps forward, one every PLAY_INTERVAL ms
    const PLAY_INTERVAL = 300;
    let detailTimer = null;
    let viewInFlight = false;    // a view asked for and not answered yet
    let renderScheduled = false; // a render of the log is due at the next frame
    let shownCount = 0;          // steps shown in the log (a prefix of steps)
    let firstStep = 0;           // the step the timeline starts from (older ones were dropped)
    let branch = null;           // {from, stepCount}: steps set aside by "continue from here"
    let kept = 0;                // sessions set aside by earlier continues, kept for quit
    let lastDetail = null;       // the detail shown, to redraw it in another view
    let cuts = new Map();        // path (JSON) → {shown, count}: containers the server cut
    const pendingChildren = new Map(); // path (JSON) → where more of a container goes
    let diffView = "tree", stateView = "tree";
    let templateStep = null;     // a step whose action fills the send box when its detail comes
    const latestOfCase = new Map(); // case name → the latest step of that case

    // Text from the app as it is written: a character that would reorder what follows it (a
    // bidirectional override or isolate, U+202E among them) is shown as its escape, \u{202E},
    // as the demos' terminal shows it. Every string from the app that the page shows goes
    // through it (a case name can't hold one: it is a Swift identifier).
    const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
    const plain = (text) => String(text).replace(BIDI,
      (c) => "\\u{" + c.codePointAt(0).toString(16).toUpperCase() + "}");
    // The same for JSON the user edits and sends back (the send box): as JSON's own escape,
    // \u202E, which decodes to the same string.
    const plainJSON = (text) => text.replace(BIDI,
      (c) => "\\u" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0"));

    // The page's view (the search, the case filter, the diff's and the state's views, "changed
    // only", the step viewed) is kept in the tab's sessionStorage, so that a reload shows
    // the same; the step and the filter are applied once the steps they name have come.
    const VIEW_KEY = "statecraft.inspector.view";
    let pendingView = null;      // {step, caseFilter} of a saved view, not applied yet

    function saveView() {
      const pendingStep = pendingView ? pendingView.step : null;
      const pendingFilter = pendingView ? pendingView.caseFilter : "";
      try {
        sessionStorage.setItem(VIEW_KEY, JSON.stringify({
          search: $("search").value, caseFilter: $("caseFilter").value || pendingFilter || "",
          diffView, stateView, changedOnly: $("changedOnly").checked,
          viewing: viewing !== null ? viewing : pendingStep }));
      } catch (_) { /* storage refused (a private window): the view isn't kept */ }
    }

    function restoreView() {
      let saved = null;
      try { saved = JSON.parse(sessionStorage.getItem(VIEW_KEY) || "null"); } catch (_) { }
      if (saved === null || typeof saved !== "object") return;
      if (typeof saved.search === "string") $("search").value = saved.search;
      if (saved.diffView === "text" || saved.diffView === "tree") diffView = saved.diffView;
      if (saved.stateView === "raw" || saved.stateView === "tree") stateView = saved.stateView;
      for (const b of document.querySelectorAll("[data-diff]")) b.classList.toggle("on", b.dataset.diff === diffView);
      for (const b of document.querySelectorAll("[data-state]")) b.classList.toggle("on", b.dataset.state === stateView);
      $("changedOnly").checked = saved.changedOnly !== false;
      pendingView = {
        step: Number.isInteger(saved.viewing) ? saved.viewing : null,
        caseFilter: typeof saved.caseFilter === "string" ? saved.caseFilter : "" };
    }

    // Applies a saved view's step once the steps up to the app's live step have come: the step,
    // when the timeline still has it.
    function applyPendingStep() {
      if (!pendingView || pendingView.step === null || shownStep() < reportedLiveStep) return;
      const step = pendingView.step;
      pendingView.step = null;
      if (step >= firstStep && step < shownStep()) view(step);
    }

    // The step numbered `i` among those the page holds, or null.
    const stepEntry = (i) => {
      const entry = steps[i - firstStep - 1];
      return entry && entry.i === i ? entry : null;
    };
    const liveStep = () => steps.length ? steps[steps.length - 1].i : firstStep;
    const shownStep = () => shownCount ? steps[shownCount - 1].i : firstStep;

    function setStatus() {
      const s = $("status");
      if (!socket || socket.readyState !== 1) {
        s.className = "offline";
        s.textContent = retryAt === null ? "offline"
          : "offline · reconnecting in " + Math.max(1, Math.round((retryAt - Date.now()) / 1000)) + " s";
      }
      else if (viewing !== null) {
        s.className = "viewing";
        s.textContent = "viewing step " + viewing + " · the app is live at step " + liveStep();
      }
      else if (paused) { s.className = "paused"; s.textContent = "paused"; }
      else {
        // NB: "live" only when the log shows the last step the page knows the app reached: the
        // steps received and not drawn yet, or a detail's live step beyond them, are behind.
        const known = Math.max(liveStep(), reportedLiveStep);
        const behind = known - shownStep();
        s.className = "live";
        s.textContent = behind <= 0 ? "live"
          : "live · " + behind + (behind === 1 ? " step behind" : " steps behind");
      }
      $("play").textContent = playTimer === null ? "Play" : "Stop";
      saveView();
      $("pause").classList.toggle("hidden", paused || viewing !== null);
      $("resume").classList.toggle("hidden", !paused || viewing !== null);
      $("live").classList.toggle("hidden", viewing === null);
      $("continue").classList.toggle("hidden", viewing === null || viewing >= liveStep());
      const viewed = viewing !== null ? stepEntry(viewing) : null;
      $("skip").classList.toggle("hidden", viewed === null);
      $("skip").textContent = viewed && viewed.k ? "Unskip" : "Skip";
      $("undoContinue").classList.toggle("hidden", branch === null);
      $("commit").classList.toggle("hidden", branch !== null || liveStep() <= firstStep);
      $("revert").classList.toggle("hidden", liveStep() <= firstStep);
      $("undoContinue").textContent = branch === null ? "Undo continue"
        : "Undo continue (" + branch.stepCount + " steps set aside after step " + branch.from + ")";
      $("count").textContent = (liveStep() - firstStep) + " steps"
        + (firstStep > 0 ? " (from step " + firstStep + ")" : "")
        + (kept > 0 ? " · " + kept + (kept === 1 ? " earlier session" : " earlier sessions")
          + " set aside, kept at quit" : "");
    }

    function notice(text) {
      $("notice").classList.toggle("hidden", !text);
      $("notice").textContent = text || "";
    }

    function matches(step) {
      const filter = $("caseFilter").value;
      if (filter && step.c !== filter && !step.c.startsWith(filter + ".")) return false;
      const query = $("search").value.trim().toLowerCase();
      if (!query) return true;
      return step.c.toLowerCase().includes(query) || step.s.toLowerCase().includes(query)
        || String(step.i) === query;
    }

    function refilter() {
      visible = [];
      for (let k = 0; k < shownCount; k++) if (matches(steps[k])) visible.push(k);
      renderLog(true);
    }

    function addCase(step) {
      const name = step.c;
      latestOfCase.set(name, step);
      const parts = name.split(".");
      for (let n = 1; n <= parts.length; n++) {
        const prefix = parts.slice(0, n).join(".");
        if (cases.has(prefix)) continue;
        cases.add(prefix);
        const option = document.createElement("option");
        option.value = prefix; option.textContent = prefix;
        const select = $("caseFilter");
        const after = [...select.options].slice(1).find(o => o.value > prefix);
        select.insertBefore(option, after || null);
        if (pendingView && pendingView.caseFilter === prefix) {
          select.value = prefix; pendingView.caseFilter = "";
          refilter();
        }
      }
      if (![...$("templates").options].some(o => o.value === name)) {
        const option = document.createElement("option");
        option.value = name; option.textContent = name;
        const after = [...$("templates").options].slice(1).find(o => o.value > name);
        $("templates").insertBefore(option, after || null);
      }
    }

    function renderLog(scrollToEnd) {
      const log = $("log"), spacer = $("spacer");
      spacer.style.height = (visible.length * ROW) + "px";
      if (scrollToEnd && !paused && viewing === null) log.scrollTop = log.scrollHeight;
      const first = Math.max(0, Math.floor(log.scrollTop / ROW) - 5);
      const last = Math.min(visible.length, first + Math.ceil(log.clientHeight / ROW) + 10);
      const rows = [];
      for (let v = first; v < last; v++) {
        const step = steps[visible[v]];
        const row = document.createElement("div");
        row.className = "row" + (step.i === selected ? " selected" : "") + (step.k ? " skipped" : "");
        row.style.top = (v * ROW) + "px";
        row.dataset.step = step.i;
        const i = document.createElement("span"); i.className = "i"; i.textContent = "#" + step.i;
        const c = document.createElement("span"); c.className = "c"; c.textContent = plain(step.c);
        const o = document.createElement("span"); o.className = "origin " + step.o;
        o.textContent = step.o;
        const s = document.createElement("span"); s.className = "s"; s.textContent = plain(step.s);
        row.append(i, c, o, s);
        rows.push(row);
      }
      spacer.replaceChildren(...rows);
    }

    // Scrolls the log so that `step`'s row is in view (the slider and the log stay together).
    function scrollToStep(step) {
      let low = 0, high = visible.length - 1, found = -1;
      while (low <= high) {
        const middle = (low + high) >> 1, i = steps[visible[middle]].i;
        if (i === step) { found = middle; break; }
        if (i < step) low = middle + 1; else high = middle - 1;
      }
      if (found < 0) return;
      const log = $("log");
      const top = found * ROW;
      if (top < log.scrollTop || top + ROW > log.scrollTop + log.clientHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 2);
      }
    }

    function updateSlider() {
      const slider = $("slider");
      slider.min = firstStep;
      slider.max = shownStep();
      // NB: the thumb is where the page is: the viewed step, or the live end.
      slider.value = viewing !== null ? viewing : shownStep();
      $("stepLabel").textContent = (viewing !== null ? viewing : shownStep()) + " / " + shownStep();
    }

    function showSteps() {
      const start = shownCount;
      shownCount = steps.length;
      for (let k = start; k < shownCount; k++) if (matches(steps[k])) visible.push(k);
      updateSlider();
      renderLog(true);
      applyPendingStep();
      if (viewing === null && !paused) scheduleLiveDetail();
    }

    // A burst of steps (each sent action is a step, and may come in a message of its own) is
    // drawn once per frame: drawing the log at each message would keep the page behind the
    // store, and a hidden page draws nothing until it is shown. While a past step is viewed the
    // log still grows: the page always shows what the app did.
    function scheduleRender() {
      if (renderScheduled) return;
      renderScheduled = true;
      requestAnimationFrame(() => {
        renderScheduled = false;
        if (!paused) showSteps();
        setStatus();
      });
    }

    function scheduleLiveDetail() {
      if (detailTimer) return;
      detailTimer = setTimeout(() => {
        detailTimer = null;
        if (viewing === null && !paused) request({ type: "follow" });
      }, 150);
    }

    function request(message) {
      if (socket && socket.readyState === 1) socket.send(JSON.stringify(message));
    }

    // Views a past step: the page shows it; the app goes on from its live state.
    function view(step) {
      selected = step; viewing = step;
      // NB: a far step is recomputed for a second or more: the newer view replaces the one
      // still asked for, which would otherwise be answered first.
      if (viewInFlight) request({ type: "cancel" });
      viewInFlight = true;
      request({ type: "jump", step: step });
      updateSlider(); scrollToStep(step); setStatus(); renderLog(false);
    }

    // The visible step (passing the filters) next to the one shown: `direction` -1 or +1; null
    // past either end.
    function neighbour(direction) {
      const at = viewing !== null ? viewing : shownStep();
      let low = 0, high = visible.length - 1, index = visible.length;
      while (low <= high) {
        const middle = (low + high) >> 1;
        if (steps[visible[middle]].i < at) low = middle + 1; else { index = middle; high = middle - 1; }
      }
      // index: the first visible step at or after `at`.
      const found = index < visible.length && steps[visible[index]].i === at;
      const next = direction > 0 ? (found ? index + 1 : index) : index - 1;
      return next >= 0 && next < visible.length ? steps[visible[next]].i : null;
    }

    // Views the step before or after the one shown; past the last step, back to live.
    function stepBy(direction) {
      const next = neighbour(direction);
      if (next !== null) view(next);
      else if (direction > 0 && viewing !== null) backToLive();
    }

    // Plays the steps forward from the one shown, one every PLAY_INTERVAL ms, as a recording
    // plays; it stops at the live end (back to live), or when asked.
    function togglePlay() {
      if (playTimer !== null) { stopPlaying(); return; }
      if (viewing === null) {
        if (!visible.length) return;
        view(steps[visible[0]].i);
      }
      playTimer = setInterval(() => {
        if (neighbour(1) === null) { stopPlaying(); backToLive(); return; }
        stepBy(1);
      }, PLAY_INTERVAL);
      setStatus();
    }

    function stopPlaying() {
      clearInterval(playTimer); playTimer = null; setStatus();
    }

    function backToLive() {
      viewing = null; selected = null; paused = false;
      if (viewInFlight) { request({ type: "cancel" }); viewInFlight = false; }
      request({ type: "resume" });
      showSteps(); setStatus();
    }

    function showError(context, message) {
      if (context === "send") {
        $("sendResult").className = "error"; $("sendResult").textContent = message; return;
      }
      reveal("errors");
      $("errorText").textContent = "[" + context + "] " + plain(message);
    }

    // Shows a result section at the top of the right side, where it is seen.
    function reveal(id) {
      $(id).classList.remove("hidden");
      $(id).scrollIntoView({ block: "start" });
    }

    // How far a long request has come ("progress"), with a button that cancels it; hidden
    // once it is answered or cancelled.
    function showWorking(message) {
      if (message === null) { $("working").classList.add("hidden"); return; }
      const moves = {
        continue: "continuing from step ", skip: "skipping step ", unskip: "putting back step ",
        undoContinue: "undoing the continue, at step ",
      };
      const what = message.context === "generateTest" ? "generating a test"
        : (moves[message.context] || "recomputing step ") + message.step;
      const share = message.total > 0 ? Math.floor(100 * message.done / message.total) : 0;
      $("workingText").textContent = what + " · " + Math.min(100, Math.max(0, share)) + " %";
      $("working").classList.remove("hidden");
    }

    function cancelWork() {
      request({ type: "cancel" });
      viewInFlight = false;
      showWorking(null);
    }

    function showDetail(message) {
      if (message.viewing) viewInFlight = false;
      showWorking(null);
      if (templateStep !== null && message.step === templateStep) {
        templateStep = null;
        if (message.action !== null) $("actionInput").value = plainJSON(JSON.stringify(message.action, null, 2));
      }
      lastDetail = message;
      reportedLiveStep = Math.max(reportedLiveStep, message.liveStep);
      cuts = new Map(message.cuts.map((cut) => [JSON.stringify(cut.path), cut]));
      pendingChildren.clear();
      $("detailStep").textContent = message.step;
      $("recomputed").textContent = (message.skipped ? "(skipped: the state is the one before) " : "")
        + (message.recomputed ? "(recomputed from the checkpoint before it)" : "");
      $("action").textContent = message.action === null ? "(the state the session starts from)"
        : plain(JSON.stringify(message.action, null, 2));
      drawDiff(); drawState();
      if (message.viewing) {
        selected = message.step; viewing = message.step;
        updateSlider(); setStatus(); renderLog(false);
      }
    }

    function drawDiff() {
      const message = lastDetail;
      if (!message) return;
      $("diff").classList.toggle("hidden", diffView !== "text");
      $("diffTree").classList.toggle("hidden", diffView !== "tree");
      if (diffView === "text") {
        const diff = $("diff");
        diff.replaceChildren();
        const text = message.diff === null ? "(the state the session starts from)" : message.diff;
        for (const line of text.split("\n")) {
          const span = document.createElement("span");
          if (line.startsWith("-")) span.className = "del";
          else if (line.startsWith("+")) span.className = "add";
          span.textContent = plain(line) + "\n";
          diff.append(span);
        }
      } else if (message.changes === null) {
        $("diffTree").textContent = "(the state the session starts from)";
      } else {
        const [a, b] = changeTrees(message, !$("changedOnly").checked);
        const tree = diffNode(null, a, b, 0, $("changedOnly").checked);
        $("diffTree").replaceChildren(tree || document.createTextNode("(no change)"));
        if (message.changeCount > message.changes.length) {
          const more = document.createElement("div"); more.className = "leaf";
          more.textContent = "… " + (message.changeCount - message.changes.length)
            + " more changed paths";
          $("diffTree").append(more);
        }
      }
    }

    // The step's change as two trees, the state before and after: the changed paths alone, or
    // (with context) written into the state the page was sent.
    function changeTrees(message, withContext) {
      let a = withContext ? structuredClone(message.state) : {};
      let b = withContext ? structuredClone(message.state) : {};
      for (const change of message.changes) {
        if (change.path.length === 0) { a = change.old; b = change.new; continue; }
        setAt(a, change.path, change.kind === "added" ? undefined : change.old);
        setAt(b, change.path, change.kind === "removed" ? undefined : change.new);
      }
      return [a, b];
    }

    function setAt(root, path, value) {
      let at = root;
      for (const key of path.slice(0, -1)) {
        if (at[key] === null || typeof at[key] !== "object") at[key] = {};
        at = at[key];
      }
      const last = path[path.length - 1];
      if (value === undefined) delete at[last]; else at[last] = value;
    }

    function drawState() {
      const message = lastDetail;
      if (!message) return;
      $("state").classList.toggle("hidden", stateView !== "tree");
      $("stateRaw").classList.toggle("hidden", stateView !== "raw");
      if (stateView === "raw") {
        $("stateRaw").textContent = (message.cuts.length ? "// " + message.cuts.length
          + " objects or arrays show part of their children: open them in the tree.\n" : "")
          + plain(JSON.stringify(message.state, null, 2));
      } else $("state").replaceChildren(node(null, message.state, 0, []));
    }

    function same(a, b) {
      if (a === b) return true;
      if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
      if (Array.isArray(a) !== Array.isArray(b)) return false;
      const ka = Object.keys(a), kb = Object.keys(b);
      if (ka.length !== kb.length) return false;
      for (const k of ka) if (!(k in b) || !same(a[k], b[k])) return false;
      return true;
    }

    // The change from `a` to `b` as a tree: changed objects fold open, unchanged ones are left
    // out (changed only) or folded, added and removed values are marked, a changed leaf shows
    // its old value struck out. Returns null for no change when only changes are shown.
    function diffNode(key, a, b, depth, changedOnly) {
      const changed = !same(a, b);
      if (!changed && changedOnly) return null;
      const objects = a !== null && b !== null && typeof a === "object" && typeof b === "object"
        && Array.isArray(a) === Array.isArray(b);
      if (!objects || !changed) {
        if (!changed) { const n = node(key, b, 99); return n; }
        const leaf = document.createElement("div"); leaf.className = "leaf changed";
        if (key !== null) {
          const k = document.createElement("span"); k.className = "k"; k.textContent = plain(key) + ": ";
          leaf.append(k);
        }
        if (a !== undefined) {
          const old = document.createElement("span"); old.className = "old";
          old.textContent = short(a); leaf.append(old);
        }
        const now = document.createElement("span");
        now.className = b === undefined ? "removed" : a === undefined ? "added" : "num";
        now.textContent = b === undefined ? "(removed)" : short(b);
        leaf.append(now);
        return leaf;
      }
      const keys = (Array.isArray(a)
        ? [...Array(Math.max(a.length, b.length)).keys()].map(String)
        : [...new Set([...Object.keys(a), ...Object.keys(b)])]).filter((k) => k in a || k in b);
      const details = document.createElement("details");
      details.className = "changed";
      const summary = document.createElement("summary");
      if (key !== null) {
        const k = document.createElement("span"); k.className = "k"; k.textContent = plain(key) + ": ";
        summary.append(k);
      }
      const changes = keys.filter(k => !same(a[k], b[k])).length;
      summary.append((Array.isArray(b) ? "[" + b.length + "]" : "{" + keys.length + "}")
        + " · " + changes + " changed");
      details.append(summary);
      let built = false;
      const build = () => {
        if (built) return; built = true;
        let shown = 0;
        for (const k of keys) {
          const child = diffNode(k, a[k], b[k], depth + 1, changedOnly);
          if (!child) continue;
          if (++shown > 500) {
            const more = document.createElement("div"); more.className = "leaf";
            more.textContent = "…"; details.append(more); break;
          }
          details.append(child);
        }
      };
      details.addEventListener("toggle", build);
      if (depth < 6 && changes <= 20) { details.open = true; build(); }
      return details;
    }

    function short(value) {
      const text = JSON.stringify(value);
      if (text === undefined) return "undefined";
      return plain(text.length > 200 ? text.slice(0, 199) + "…" : text);
    }

    // A JSON value as a tree: objects and arrays fold, built when opened. `path` is where it is
    // in the step's state (null in a diff): a container the server cut shows its first
    // children, and asks for more a page at a time.
    function node(key, value, depth, path) {
      const label = (parent) => {
        if (key !== null) {
          const k = document.createElement("span"); k.className = "k"; k.textContent = plain(key) + ": ";
          parent.append(k);
        }
      };
      if (value !== null && typeof value === "object") {
        const entries = Array.isArray(value) ? value.map((v, n) => [String(n), v])
          : Object.entries(value);
        const cut = path ? cuts.get(JSON.stringify(path)) : undefined;
        const count = cut ? cut.count : entries.length;
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        label(summary);
        summary.append(Array.isArray(value) ? "[" + count + "]" : "{" + count + "}");
        details.append(summary);
        let built = false;
        const build = () => {
          if (built) return; built = true;
          for (const [k, v] of entries.slice(0, 2000)) {
            const child = path ? path.concat([Array.isArray(value) ? Number(k) : k]) : null;
            details.append(node(k, v, depth + 1, child));
          }
          if (cut) addMore(details, path, entries.length, cut.count);
          else if (entries.length > 2000) {
            const more = document.createElement("div"); more.className = "leaf";
            more.textContent = "… " + (entries.length - 2000) + " more"; details.append(more);
          }
        };
        details.addEventListener("toggle", build);
        if (depth < 4) { details.open = true; build(); }
        return details;
      }
      const leaf = document.createElement("div"); leaf.className = "leaf";
      label(leaf);
      const v = document.createElement("span");
      v.className = typeof value === "string" ? "str" : typeof value === "number" ? "num" : "lit";
      v.textContent = plain(JSON.stringify(value));
      leaf.append(v);
      return leaf;
    }

    // A link that asks for the next page of a cut container's children; a container cut at
    // its depth asks as soon as it is opened.
    function addMore(details, path, shown, count) {
      const more = document.createElement("div"); more.className = "leaf more";
      more.textContent = "… " + (count - shown) + " more: show them";
      more.addEventListener("click", () => requestChildren(details, more, path, shown));
      details.append(more);
      if (shown === 0) requestChildren(details, more, path, 0);
    }

    function requestChildren(details, more, path, offset) {
      if (!lastDetail) return;
      pendingChildren.set(JSON.stringify(path), { details, more, step: lastDetail.step });
      more.textContent = "… loading";
      request({ type: "children", step: lastDetail.step, path: path, offset: offset });
    }

    function showChildren(message) {
      const key = JSON.stringify(message.path);
      const pending = pendingChildren.get(key);
      if (!pending || pending.step !== message.step) return;
      pendingChildren.delete(key);
      for (const cut of message.cuts) cuts.set(JSON.stringify(cut.path), cut);
      pending.more.remove();
      for (const [k, v] of message.entries) {
        pending.details.append(node(String(k), v, 5, message.path.concat([k])));
      }
      const shown = message.offset + message.entries.length;
      if (shown < message.count) addMore(pending.details, message.path, shown, message.count);
    }

    function resetTimeline(message) {
      steps.length = 0; visible = []; shownCount = 0;
      firstStep = message.firstStep; branch = message.branch; kept = message.kept || 0;
      reportedLiveStep = message.stepCount;
      latestOfCase.clear();
      if (viewing !== null && (viewing > message.stepCount || viewing < firstStep)) {
        viewing = null; selected = null;
      }
      notice(message.note);
      updateSlider(); renderLog(false); setStatus();
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + "/socket?token=" + encodeURIComponent(token));
      // NB: a new socket views nothing on the server's side, so the page follows the live steps.
      socket.onopen = () => { retryDelay = 1000; viewing = null; selected = null; setStatus(); };
      // A dropped socket is opened again, after 1 s, then twice as long each time up to 30 s;
      // the server then sends the timeline afresh.
      socket.onclose = () => {
        clearTimeout(retryTimer);
        retryAt = Date.now() + retryDelay;
        retryTimer = setTimeout(() => { retryAt = null; connect(); setStatus(); }, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
        setStatus();
      };
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        switch (message.type) {
          case "welcome":
            capabilities = message.capabilities;
            $("feature").textContent = "· " + plain(message.feature);
            $("generate").classList.toggle("hidden", !capabilities.generateTest);
            $("export").classList.toggle("hidden", !capabilities.export);
            $("importButton").classList.toggle("hidden", !capabilities.import);
            $("sendSection").classList.toggle("hidden", !capabilities.send);
            break;
          case "timeline":
            showWorking(null);
            resetTimeline(message);
            if (message.stepCount === message.firstStep) {
              request({ type: "detail", step: message.firstStep });
            }
            break;
          case "steps":
            for (const step of message.steps) { steps.push(step); addCase(step); }
            scheduleRender(); setStatus();
            break;
          case "trimmed": {
            let drop = 0;
            while (drop < steps.length && steps[drop].i <= message.firstStep) drop++;
            steps.splice(0, drop);
            shownCount = Math.max(0, shownCount - drop);
            firstStep = message.firstStep;
            if (viewing !== null && viewing < firstStep) { viewing = null; selected = null; }
            refilter(); updateSlider(); setStatus();
            break;
          }
          case "detail": showDetail(message); break;
          case "children": showWorking(null); showChildren(message); break;
          case "progress": showWorking(message); break;
          case "cancelled": showWorking(null); break;
          case "live":
            viewing = null; selected = null;
            showSteps(); setStatus(); request({ type: "follow" });
            break;
          case "sent":
            $("sendResult").className = "ok"; $("sendResult").textContent = "sent"; break;
          case "generatedTest":
            showWorking(null);
            reveal("generatedSection");
            $("generated").value = message.source; break;
          case "error":
            if (message.context === "jump") viewInFlight = false;
            showWorking(null); showError(message.context, message.message); break;
        }
      };
    }

    $("log").addEventListener("scroll", () => renderLog(false));
    $("log").addEventListener("click", (event) => {
      const row = event.target.closest(".row");
      if (row) view(Number(row.dataset.step));
    });
    $("search").addEventListener("input", () => { refilter(); saveView(); });
    $("caseFilter").addEventListener("change", () => {
      if (pendingView) pendingView.caseFilter = "";
      refilter(); saveView();
    });
    $("slider").addEventListener("input", () => {
      $("stepLabel").textContent = $("slider").value + " / " + shownStep();
      scrollToStep(Number($("slider").value));
    });
    $("slider").addEventListener("change", () => view(Number($("slider").value)));
    $("pause").addEventListener("click", () => { paused = true; setStatus(); });
    $("resume").addEventListener("click", () => { paused = false; showSteps(); setStatus(); });
    $("live").addEventListener("click", () => { stopPlaying(); backToLive(); });
    $("back").addEventListener("click", () => { stopPlaying(); stepBy(-1); });
    $("forward").addEventListener("click", () => { stopPlaying(); stepBy(1); });
    $("play").addEventListener("click", togglePlay);
    // The keyboard, as in Redux DevTools: ← and → step, space plays or stops, Escape goes back
    // to live; never while a text field or a list has the focus.
    document.addEventListener("keydown", (event) => {
      const target = event.target;
      if (event.altKey || event.ctrlKey || event.metaKey
        || (target && target.closest && target.closest("input, textarea, select"))) return;
      if (event.key === "ArrowLeft") { stopPlaying(); stepBy(-1); }
      else if (event.key === "ArrowRight") { stopPlaying(); stepBy(1); }
      else if (event.key === " ") togglePlay();
      else if (event.key === "Escape") {
        stopPlaying();
        if (!$("working").classList.contains("hidden")) cancelWork();
        else if (viewing !== null) backToLive();
      }
      else return;
      event.preventDefault();
    });
    // "Continue from here" at the step viewed, or "Revert" at the timeline's first step (the
    // state of the last commit): the app's state becomes that step's, after a confirmation.
    function continueFrom(step) {
      const last = liveStep();
      if (step === null || step >= last) return;
      const count = last - step;
      const question = "Continue from step " + step + "?\n\n"
        + "The app's state becomes the state at step " + step + ". Steps " + (step + 1) + " to "
        + last + " (" + count + (count === 1 ? " step" : " steps") + ") are set aside, and "
        + "shared values go back to their values at step " + step + " (persisted ones are "
        + "saved). \"Undo continue\" puts the set-aside steps back"
        + (branch ? ". The " + branch.stepCount + " steps set aside before are kept as a "
          + "session of their own, which the app keeps at quit." : ".");
      if (!confirm(question)) return;
      viewing = null; selected = null; paused = false;
      request({ type: "continue", step: step });
    }
    $("continue").addEventListener("click", () => continueFrom(viewing));
    // "Skip" (or "Unskip"): the step's action is left out (or put back), the steps after it
    // are recomputed and the app is put at the result; the page goes on viewing the step.
    $("skip").addEventListener("click", () => {
      const viewed = viewing !== null ? stepEntry(viewing) : null;
      if (viewed === null) return;
      request({ type: viewed.k ? "unskip" : "skip", step: viewed.i });
      view(viewed.i);
    });
    $("revert").addEventListener("click", () => continueFrom(firstStep));
    // "Commit": the timeline starts at the live state; the app's state doesn't change.
    $("commit").addEventListener("click", () => {
      const count = liveStep() - firstStep;
      if (!confirm("Commit?\n\nThe timeline starts at the live state, step " + liveStep()
        + ": the " + count + (count === 1 ? " step" : " steps") + " before it are dropped from "
        + "the Inspector. The app's state doesn't change. Revert goes back to this state."))
        return;
      stopPlaying(); viewing = null; selected = null; paused = false;
      request({ type: "commit" });
    });
    $("undoContinue").addEventListener("click", () => {
      if (!branch) return;
      const question = "Undo continue?\n\nThe " + branch.stepCount + " steps set aside after step "
        + branch.from + " come back, and the app's state becomes their last state. The steps "
        + "made since step " + branch.from + " are set aside in their place (undo again to swap "
        + "back).";
      if (!confirm(question)) return;
      viewing = null; selected = null; paused = false;
      request({ type: "undoContinue" });
    });
    $("changedOnly").addEventListener("change", () => { drawDiff(); saveView(); });
    for (const button of document.querySelectorAll("[data-diff]")) {
      button.addEventListener("click", () => {
        diffView = button.dataset.diff;
        for (const b of document.querySelectorAll("[data-diff]")) b.classList.toggle("on", b === button);
        drawDiff(); saveView();
      });
    }
    for (const button of document.querySelectorAll("[data-state]")) {
      button.addEventListener("click", () => {
        stateView = button.dataset.state;
        for (const b of document.querySelectorAll("[data-state]")) b.classList.toggle("on", b === button);
        drawState(); saveView();
      });
    }
    for (const button of document.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => $(button.dataset.close).classList.add("hidden"));
    }
    // The send box starts from a recorded action of the chosen case: its JSON is the shape the
    // action decodes from.
    $("templates").addEventListener("change", () => {
      const step = latestOfCase.get($("templates").value);
      $("templates").value = "";
      if (!step) return;
      if (!step.s.endsWith("…")) { $("actionInput").value = plainJSON(step.s); return; }
      templateStep = step.i;
      request({ type: "detail", step: step.i });
    });
    $("actionInput").placeholder = "An action as JSON, as the log shows it. A case with no "
      + "payload is {\"name\":{}}, one with a value {\"name\":{\"_0\":value}}; pick a recorded "
      + "action above to start from one.";
    $("send").addEventListener("click", () => {
      let action;
      try { action = JSON.parse($("actionInput").value); }
      catch (error) { showError("send", "Not JSON: " + error.message); return; }
      $("sendResult").textContent = "";
      request({ type: "send", action: action });
    });
    $("export").addEventListener("click", async () => {
      const response = await fetch("/export?token=" + encodeURIComponent(token));
      if (!response.ok) { showError("export", await response.text()); return; }
      const blob = await response.blob();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob); link.download = "session.json";
      document.body.append(link); link.click(); link.remove();
    });
    $("importButton").addEventListener("click", () => $("importFile").click());
    $("importFile").addEventListener("change", async () => {
      const file = $("importFile").files[0];
      if (!file) return;
      const response = await fetch("/import?token=" + encodeURIComponent(token),
        { method: "POST", body: await file.arrayBuffer() });
      const result = $("importResult");
      if (!response.ok) { result.className = "error"; result.textContent = await response.text(); }
      else {
        const report = await response.json();
        result.className = report.reproduced ? "ok" : "error";
        result.textContent = plain(report.summary);
      }
      reveal("importSection");
      $("importFile").value = "";
    });
    $("generate").addEventListener("click", () => request({ type: "generateTest" }));
    $("cancelWork").addEventListener("click", cancelWork);
    window.addEventListener("resize", () => renderLog(false));
    restoreView();
    connect();
    setStatus();
    </script>
    </body>
    </html>
    """#

  /// The page's one script: the text between its `<script>` and `</script>`.
  static var script: Substring {
    guard let start = html.range(of: "<script>"), let end = html.range(of: "</script>")
    else { return "" }
    return html[start.upperBound..<end.lowerBound]
  }

  /// The Content-Security-Policy every response carries: the page's one script is allowed by
  /// its SHA-256 hash, so that no other inline script (one injected into the page) runs.
  static let contentSecurityPolicy: String = {
    let hash = Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
    return "default-src 'none'; script-src 'sha256-\(hash)'; style-src 'unsafe-inline'; "
      + "img-src data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'"
  }()
}
