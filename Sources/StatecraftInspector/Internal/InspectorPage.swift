// Owns the page the Inspector serves: one self-contained HTML document (its CSS and script
// inline, nothing loaded from the network) that speaks the socket protocol of
// InspectorMessage.swift. The log is virtualized (only the rows in view are in the document),
// so that 100,000 steps stay usable; a step's state and diff are asked for when it is selected.

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
    #status.travelling { background:#1f3d5a; } #status.offline { background:#5a1f1f; }
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
    </style>
    </head>
    <body>
    <header>
      <h1>Statecraft Inspector <span id="feature"></span></h1>
      <span id="status" class="offline">connecting</span>
      <button id="pause">Pause</button>
      <button id="resume" class="hidden">Resume</button>
      <button id="export">Export session</button>
      <label><button id="importButton">Import session</button>
        <input id="importFile" type="file" accept="application/json,.json" class="hidden"></label>
      <button id="generate" class="hidden">Generate test</button>
      <span id="count"></span>
    </header>
    <main>
      <div id="left">
        <div id="filters">
          <input id="search" type="search" placeholder="Search actions">
          <select id="caseFilter"><option value="">All cases</option></select>
        </div>
        <div id="log"><div id="spacer"></div></div>
        <div id="timeline">
          <span>Step</span>
          <input id="slider" type="range" min="0" max="0" value="0">
          <span id="stepLabel">0 / 0</span>
        </div>
      </div>
      <div id="right">
        <section><h2>Step <span id="detailStep">–</span> action</h2><pre id="action">–</pre></section>
        <section><h2>Diff (this step's change)</h2><pre id="diff">–</pre></section>
        <section><h2>State</h2><div id="state" class="tree">–</div></section>
        <section id="sendSection"><h2>Send an action (JSON)</h2>
          <textarea id="actionInput" placeholder='{"addButtonTapped":{}}'></textarea>
          <button id="send">Send</button> <span id="sendResult"></span></section>
        <section id="importSection" class="hidden"><h2>Imported session</h2>
          <pre id="importResult"></pre></section>
        <section id="generatedSection" class="hidden"><h2>Generated test</h2>
          <textarea id="generated" rows="16" readonly></textarea></section>
        <section id="errors" class="hidden"><h2>Errors</h2><pre id="errorText" class="error"></pre>
        </section>
      </div>
    </main>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const $ = (id) => document.getElementById(id);
    const ROW = 22;
    const steps = [];            // {i, c, o, s}
    let visible = [];            // indices into steps that pass the filters
    let cases = new Set();
    let paused = false;          // the log and the slider stop following the live steps
    let travelling = false;      // the store was put at a past step
    let selected = null;         // the selected step number
    let capabilities = {};
    let socket = null;
    let detailTimer = null;
    let renderScheduled = false; // a render of the log is due at the next frame
    let liveCount = 0;           // steps known, including those not shown while paused
    let shownCount = 0;          // steps shown in the log and the slider

    function setStatus() {
      const s = $("status");
      if (!socket || socket.readyState !== 1) { s.className = "offline"; s.textContent = "offline"; }
      else if (travelling) { s.className = "travelling"; s.textContent = "at step " + selected; }
      else if (paused) { s.className = "paused"; s.textContent = "paused"; }
      else { s.className = "live"; s.textContent = "live"; }
      $("pause").classList.toggle("hidden", paused || travelling);
      $("resume").classList.toggle("hidden", !(paused || travelling));
      $("count").textContent = liveCount + " steps";
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

    function addCase(name) {
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
      }
    }

    function renderLog(scrollToEnd) {
      const log = $("log"), spacer = $("spacer");
      spacer.style.height = (visible.length * ROW) + "px";
      if (scrollToEnd && !paused && !travelling) log.scrollTop = log.scrollHeight;
      const first = Math.max(0, Math.floor(log.scrollTop / ROW) - 5);
      const last = Math.min(visible.length, first + Math.ceil(log.clientHeight / ROW) + 10);
      const rows = [];
      for (let v = first; v < last; v++) {
        const step = steps[visible[v]];
        const row = document.createElement("div");
        row.className = "row" + (step.i === selected ? " selected" : "");
        row.style.top = (v * ROW) + "px";
        row.dataset.step = step.i;
        const i = document.createElement("span"); i.className = "i"; i.textContent = "#" + step.i;
        const c = document.createElement("span"); c.className = "c"; c.textContent = step.c;
        const o = document.createElement("span"); o.className = "origin " + step.o;
        o.textContent = step.o;
        const s = document.createElement("span"); s.className = "s"; s.textContent = step.s;
        row.append(i, c, o, s);
        rows.push(row);
      }
      spacer.replaceChildren(...rows);
    }

    function showSteps() {
      const start = shownCount;
      shownCount = liveCount;
      for (let k = start; k < shownCount; k++) if (matches(steps[k])) visible.push(k);
      const slider = $("slider");
      slider.max = shownCount;
      if (!travelling) slider.value = shownCount;
      $("stepLabel").textContent = (travelling ? selected : shownCount) + " / " + shownCount;
      renderLog(true);
      if (!travelling && !paused) scheduleLiveDetail();
    }

    // A burst of steps (each sent action is a step, and may come in a message of its own) is
    // drawn once per frame: drawing the log at each message would keep the page behind the
    // store, and a hidden page draws nothing until it is shown.
    function scheduleRender() {
      if (renderScheduled) return;
      renderScheduled = true;
      requestAnimationFrame(() => {
        renderScheduled = false;
        if (!paused && !travelling) showSteps();
        setStatus();
      });
    }

    function scheduleLiveDetail() {
      if (detailTimer) return;
      detailTimer = setTimeout(() => {
        detailTimer = null;
        if (!travelling && !paused) request({ type: "detail", step: shownCount });
      }, 150);
    }

    function request(message) {
      if (socket && socket.readyState === 1) socket.send(JSON.stringify(message));
    }

    function jump(step) {
      selected = step; travelling = true; paused = true;
      request({ type: "jump", step: step });
      setStatus(); renderLog(false);
    }

    function showError(context, message) {
      if (context === "send") {
        $("sendResult").className = "error"; $("sendResult").textContent = message; return;
      }
      $("errors").classList.remove("hidden");
      $("errorText").textContent = "[" + context + "] " + message;
    }

    function showDetail(message) {
      $("detailStep").textContent = message.step;
      $("action").textContent = message.action === null ? "(the initial state)"
        : JSON.stringify(message.action, null, 2);
      const diff = $("diff");
      diff.replaceChildren();
      for (const line of (message.diff === null ? "(the initial state)" : message.diff).split("\n")) {
        const span = document.createElement("span");
        if (line.startsWith("-")) span.className = "del";
        else if (line.startsWith("+")) span.className = "add";
        span.textContent = line + "\n";
        diff.append(span);
      }
      const tree = $("state");
      tree.replaceChildren(node(null, message.state, 0));
      if (message.jumped) {
        selected = message.step; travelling = true; paused = true;
        $("slider").value = message.step;
        $("stepLabel").textContent = message.step + " / " + shownCount;
        setStatus(); renderLog(false);
      }
    }

    // A JSON value as a tree: objects and arrays fold, built when opened.
    function node(key, value, depth) {
      const label = (parent) => {
        if (key !== null) {
          const k = document.createElement("span"); k.className = "k"; k.textContent = key + ": ";
          parent.append(k);
        }
      };
      if (value !== null && typeof value === "object") {
        const entries = Array.isArray(value) ? value.map((v, n) => [String(n), v])
          : Object.entries(value);
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        label(summary);
        summary.append(Array.isArray(value) ? "[" + entries.length + "]"
          : "{" + entries.length + "}");
        details.append(summary);
        let built = false;
        const build = () => {
          if (built) return; built = true;
          for (const [k, v] of entries.slice(0, 2000)) details.append(node(k, v, depth + 1));
          if (entries.length > 2000) {
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
      v.textContent = JSON.stringify(value);
      leaf.append(v);
      return leaf;
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + "/socket?token=" + encodeURIComponent(token));
      socket.onopen = setStatus;
      socket.onclose = () => { setStatus(); };
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        switch (message.type) {
          case "welcome":
            capabilities = message.capabilities;
            $("feature").textContent = "· " + message.feature;
            $("generate").classList.toggle("hidden", !capabilities.generateTest);
            $("export").classList.toggle("hidden", !capabilities.export);
            $("importButton").classList.toggle("hidden", !capabilities.import);
            $("sendSection").classList.toggle("hidden", !capabilities.send);
            request({ type: "detail", step: 0 });
            break;
          case "steps":
            for (const step of message.steps) { steps.push(step); addCase(step.c); }
            liveCount = steps.length;
            scheduleRender();
            break;
          case "detail": showDetail(message); break;
          case "live":
            travelling = false; paused = false; selected = null;
            showSteps(); setStatus(); request({ type: "detail", step: shownCount });
            break;
          case "sent":
            $("sendResult").className = "ok"; $("sendResult").textContent = "sent"; break;
          case "generatedTest":
            $("generatedSection").classList.remove("hidden");
            $("generated").value = message.source; break;
          case "error": showError(message.context, message.message); break;
        }
      };
    }

    $("log").addEventListener("scroll", () => renderLog(false));
    $("log").addEventListener("click", (event) => {
      const row = event.target.closest(".row");
      if (row) jump(Number(row.dataset.step));
    });
    $("search").addEventListener("input", refilter);
    $("caseFilter").addEventListener("change", refilter);
    $("slider").addEventListener("change", () => jump(Number($("slider").value)));
    $("pause").addEventListener("click", () => { paused = true; setStatus(); });
    $("resume").addEventListener("click", () => {
      if (travelling) { request({ type: "resume" }); }
      else { paused = false; showSteps(); setStatus(); }
    });
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
      $("importSection").classList.remove("hidden");
      const result = $("importResult");
      if (!response.ok) { result.className = "error"; result.textContent = await response.text(); }
      else {
        const report = await response.json();
        result.className = report.reproduced ? "ok" : "error";
        result.textContent = report.summary;
      }
      $("importFile").value = "";
    });
    $("generate").addEventListener("click", () => request({ type: "generateTest" }));
    window.addEventListener("resize", () => renderLog(false));
    connect();
    setStatus();
    </script>
    </body>
    </html>
    """#
}
