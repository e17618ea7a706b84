// The play page (and the replay and watch pages: the same page on another socket).
// xterm.js on a WebSocket to the door (door/net/websocket.py).  Keys go out as binary
// messages, the window's size as {"resize": [cols, rows]}; the screen comes back as binary
// messages of UTF-8 terminal bytes, and a few text messages beside it: {"doing", "caller"}
// when the caller changes screens (the title and the key bar follow), {"resume": token}
// once logged in (kept for this tab: a dropped line calls again without the password),
// {"say": text} with what changed on a game's board in words, once the page asked with
// {"describe": true} (the screen-reader switch): its live region reads it out.
// The door asks xterm.js to report the mouse (a click, or a tap: the browser makes a tap
// a click), and xterm.js sends the reports as keys: a card or a menu entry is clicked.
// The door's screen is 80 columns wide and 24 to 60 rows tall: the font grows or shrinks
// so that 80 columns and 25 rows (24 on a phone) fit, cells widen to fill the width when
// the height is what limits the font, then as many rows as fit are used.
(function () {
  "use strict";
  const COLS = 80, MAX_ROWS = 60, FONT = '"DejaVu Sans Mono", monospace';
  const TOKEN = "reussite.resume", READER = "reussite.screenReader";
  // The VGA text-mode palette a BBS caller's terminal (SyncTERM, a DOS box) shows, not
  // xterm.js's own, whose "black" is grey: the door's explicit black backgrounds stay black.
  const VGA = {
    background: "#000000", foreground: "#aaaaaa", cursor: "#aaaaaa",
    black: "#000000", red: "#aa0000", green: "#00aa00", yellow: "#aa5500",
    blue: "#0000aa", magenta: "#aa00aa", cyan: "#00aaaa", white: "#aaaaaa",
    brightBlack: "#555555", brightRed: "#ff5555", brightGreen: "#55ff55",
    brightYellow: "#ffff55", brightBlue: "#5555ff", brightMagenta: "#ff55ff",
    brightCyan: "#55ffff", brightWhite: "#ffffff",
  };
  const COMMON_KEYS = [["Esc", "\x1b", "Escape"], ["←", "\x1b[D", "Left"],
    ["↑", "\x1b[A", "Up"], ["↓", "\x1b[B", "Down"], ["→", "\x1b[C", "Right"],
    ["Enter", "\r"], ["Space", " "]];
  const WORDS_KEY = ["F9", "\x1b[20~", "F9: the screen in words"];
  const $ = function (id) { return document.getElementById(id); };
  const body = document.body, status = $("status"), main = $("screen");
  const MODE = body.dataset.mode || "play", SOCKET = body.dataset.socket || "/play";
  const DOOR = $("door").textContent;
  const keymap = JSON.parse($("keymap").textContent || "{}");
  const store = function (kind) {  // storage a locked-down browser may refuse
    try { return window[kind]; } catch (e) { return null; }
  };
  const local = store("localStorage"), session = store("sessionStorage");

  const term = new Terminal({
    cols: COLS, rows: 25, fontFamily: FONT, fontSize: 16, scrollback: 0,
    cursorBlink: MODE === "play", customGlyphs: true, drawBoldTextInBrightColors: true,
    // WCAG AA for the terminal's text too: xterm.js lightens the few VGA colour pairs
    // that would be harder to read than 4.5:1 (dark grey on black, red on blue); the
    // others show exactly as a DOS terminal would.
    minimumContrastRatio: 4.5,
    theme: MODE === "play" ? VGA : Object.assign({}, VGA, { cursor: "#000000" }),
  });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);

  function screenText() {
    const buffer = term.buffer.active, lines = [];
    for (let i = 0; i < term.rows; i++) {
      const line = buffer.getLine(buffer.viewportY + i);
      lines.push(line ? line.translateToString(true) : "");
    }
    return lines.join("\n");
  }

  // -- what the header says ------------------------------------------------------------
  let doing = "", caller = "";
  function say(text, gone) {
    status.textContent = text;
    status.title = text;
    status.className = gone ? "gone" : "";
    body.classList.toggle("offline", !!gone);
  }
  function online() {
    if (MODE === "play" && caller && doing) say(caller + " · " + doing);
    else if (MODE === "play") say("Connected");
    else say(MODE === "replay" ? "Replay: ← → step, P plays, Q leaves" : "Watching: read-only");
  }
  function retitle() {
    if (MODE === "play") {
      document.title = doing && caller ? doing + " · " + caller + " · " + DOOR : DOOR;
    } else if (doing && MODE === "watch") {
      document.title = doing + " · " + DOOR;
    }
  }

  // -- the key bar ---------------------------------------------------------------------
  const keybar = $("keybar");
  function button(label, send, name) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (name) b.setAttribute("aria-label", name);
    b.addEventListener("mousedown", function (e) { e.preventDefault(); });  // focus stays
    b.addEventListener("click", function () { send(); });
    keybar.appendChild(b);
    return b;
  }
  function setKeys(keys) {
    keybar.textContent = "";
    button("⌨", function () {  // a tap's focus opens the phone's keyboard
      term.blur();
      phoneKeyboard(true);
      term.focus();
    }, "Keyboard");
    const common = MODE === "play" ? COMMON_KEYS.concat([WORDS_KEY]) : COMMON_KEYS;
    for (const k of common.concat(keys || [])) {
      button(k[0], function () { sendText(k[1]); }, k[2] || "");
    }
  }
  // On a touch screen a tap on the terminal is a click for the door (cards, menus): the
  // phone's keyboard stays down (inputmode "none") until ⌨ asks for it, and the next tap
  // on the screen puts it away.
  const COARSE = !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  function phoneKeyboard(wanted) {
    if (COARSE && term.textarea) term.textarea.setAttribute("inputmode", wanted ? "text" : "none");
  }
  function keysFor(what) {
    return keymap[what] || (MODE === "replay" ? keymap.replay : []);
  }

  // -- the connection ------------------------------------------------------------------
  let socket = null, opened = false, attempts = 0, timer = 0, waiting = false;
  const retry = $("reconnect");
  const encoder = new TextEncoder();
  function sendText(data) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(data));
  }
  function sendSize() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ resize: [term.cols, term.rows] }));
    }
  }
  // -- the live region: what changed on the board, in words ----------------------------
  const said = document.createElement("div");
  said.id = "said";
  said.setAttribute("aria-live", "polite");
  said.setAttribute("aria-atomic", "true");
  said.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;" +
    "overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0";
  document.body.appendChild(said);
  function sayNews(text) {  // emptied first: the same words twice are read twice
    said.textContent = "";
    setTimeout(function () { said.textContent = text; }, 50);
  }
  function askForWords() {
    if (socket && socket.readyState === WebSocket.OPEN && MODE === "play") {
      socket.send(JSON.stringify({ describe: !!reader.checked }));
    }
  }

  function side(message) {
    if (typeof message.doing === "string") {
      doing = message.doing;
      caller = typeof message.caller === "string" ? message.caller : "";
      retitle();
      online();
      setKeys(keysFor(doing));
    }
    if (typeof message.resume === "string" && session) session.setItem(TOKEN, message.resume);
    if (typeof message.say === "string") sayNews(message.say);
  }
  function connect() {
    clearTimeout(timer);
    waiting = false;
    retry.hidden = true;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let url = scheme + location.host + SOCKET + (SOCKET.indexOf("?") < 0 ? "?" : "&")
      + "rows=" + term.rows;
    // A token goes in the first message, not the address (a proxy's log keeps those).
    const token = MODE === "play" && session ? session.getItem(TOKEN) : null;
    if (token) {
      url += "&resume=1";
      session.removeItem(TOKEN);  // good once: the door sends the next one
    }
    say(attempts ? "Calling again…" : "Connecting…");
    opened = false;
    socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    socket.onopen = function () {
      if (token) socket.send(JSON.stringify({ resume: token }));
      opened = true;
      attempts = 0;
      term.reset();
      online();
      sendSize();
      if (reader.checked) askForWords();
      term.focus();
    };
    socket.onmessage = function (event) {
      if (typeof event.data !== "string") {
        term.write(new Uint8Array(event.data));
        return;
      }
      try { side(JSON.parse(event.data)); } catch (e) { /* not for us */ }
    };
    socket.onclose = function (event) {
      socket = null;
      if (opened && event.code === 1000) {  // the door ended the call
        const over = { play: "The door ended the call.", replay: "The replay is over.",
                       watch: "You left the game." }[MODE];
        say(over, true);
        retry.textContent = MODE === "play" ? "Call again" : "Again";
        retry.hidden = false;
        if (session) session.removeItem(TOKEN);
        return;
      }
      attempts += 1;  // the line dropped, or the door could not be reached
      if (attempts > 8) {
        say("The door cannot be reached.", true);
        retry.textContent = "Try again";
        retry.hidden = false;
        return;
      }
      const delay = Math.min(15, Math.pow(2, attempts - 1));
      say("The line dropped: calling again in " + delay + " s…", true);
      retry.textContent = "Reconnect now";
      retry.hidden = false;
      waiting = true;
      timer = setTimeout(connect, delay * 1000);
    };
  }
  retry.addEventListener("click", function () { attempts = 0; connect(); });
  window.addEventListener("online", function () { if (waiting) connect(); });

  term.onData(function (data) { sendText(data); });
  term.onBinary(function (data) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(Uint8Array.from(data, function (c) { return c.charCodeAt(0) & 255; }));
    }
  });
  // Copy and paste: Ctrl+C copies a selection (else it goes to the door), Ctrl+Shift+C
  // copies, Ctrl+V and Ctrl+Shift+V paste: the browser does each (xterm.js's copy and
  // paste handlers), so they work on pages without clipboard permissions too.
  term.attachCustomKeyEventHandler(function (e) {
    if (e.type !== "keydown" || !(e.ctrlKey || e.metaKey) || e.altKey) return true;
    const key = e.key.toLowerCase();
    if (key === "c" && (e.shiftKey || term.hasSelection())) return false;
    if (key === "v") return false;
    return true;
  });

  // -- the size ------------------------------------------------------------------------
  function minRows() { return main.clientHeight < 450 ? 24 : 25; }
  function cellWidth() {  // CSS pixels: xterm.js's own measure, else the screen's
    const core = term._core, dims = core && core._renderService && core._renderService.dimensions;
    if (dims && dims.css && dims.css.cell && dims.css.cell.width) return dims.css.cell.width;
    const screen = term.element && term.element.querySelector(".xterm-screen");
    return screen ? screen.getBoundingClientRect().width / term.cols : 0;
  }
  function spread() {
    // The height limits the font (a phone held sideways): widen the cells to fill the width.
    // xterm.js adds whole device pixels to a cell, so a slightly smaller font may give a
    // wider cell: the widest that fits wins.
    const target = $("terminal").clientWidth / COLS, dpr = window.devicePixelRatio || 1;
    const size = term.options.fontSize, width = cellWidth();
    if (!width || target - width < 0.3) return;
    const perPoint = width / size;
    let best = null;
    for (let fs = size; fs >= Math.max(6, size - 2); fs -= 0.25) {
      const char = perPoint * fs, extra = Math.floor((target - char) * dpr - 0.01);
      if (extra <= 0 || extra > fs * dpr * 0.6) continue;
      const cell = char + extra / dpr;
      if (!best || cell > best.cell + 0.05) best = { fs: fs, extra: extra, cell: cell };
    }
    if (best) {
      term.options.fontSize = best.fs;
      term.options.letterSpacing = best.extra;
    }
  }
  function fitWindow() {
    const want = minRows();
    if (term.options.letterSpacing) term.options.letterSpacing = 0;
    for (let i = 0; i < 4; i++) {  // the font size that puts 80 x want in the window
      const room = fit.proposeDimensions();
      if (!room || !room.cols || !room.rows) return;
      const scale = Math.min(room.cols / COLS, room.rows / want);
      const size = Math.max(6, Math.min(48, Math.floor(term.options.fontSize * scale)));
      if (size === term.options.fontSize) break;
      term.options.fontSize = size;
    }
    let room = fit.proposeDimensions();
    if (room && room.cols > COLS) {
      spread();
      room = fit.proposeDimensions();
    }
    const rows = Math.max(want, Math.min(MAX_ROWS, room && room.rows ? room.rows : want));
    if (rows !== term.rows || term.cols !== COLS) {
      term.resize(COLS, rows);
      sendSize();
    }
  }
  let pending = 0;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(fitWindow, 100);
  });

  // -- help and the screen reader ----------------------------------------------------------
  const help = $("help"), panel = $("panel"), reader = $("reader");
  help.addEventListener("click", function () {
    panel.hidden = !panel.hidden;
    help.setAttribute("aria-expanded", String(!panel.hidden));
    fitWindow();
  });
  reader.checked = !!(local && local.getItem(READER) === "on");
  reader.addEventListener("change", function () {
    term.options.screenReaderMode = reader.checked;
    if (local) local.setItem(READER, reader.checked ? "on" : "off");
    askForWords();
  });

  window.reussite = {  // tests read the screen here
    term: term, screenText: screenText, cellWidth: cellWidth, said: said,
    get socket() { return socket; },
  };

  // The font first: xterm.js measures its cells once it opens.
  const fontReady = document.fonts ? Promise.all([
    document.fonts.load("16px " + FONT), document.fonts.load("bold 16px " + FONT),
  ]).catch(function () {}) : Promise.resolve();
  fontReady.then(function () {
    term.open($("terminal"));
    phoneKeyboard(false);
    term.textarea.addEventListener("blur", function () { phoneKeyboard(false); });
    $("terminal").addEventListener("touchstart", function () { phoneKeyboard(false); },
                                   { passive: true });
    term.textarea.setAttribute("aria-label", "The door's screen: type here");
    if (reader.checked) term.options.screenReaderMode = true;
    setKeys(keysFor(MODE === "watch" ? "Watch a Game" : MODE));
    fitWindow();
    connect();
  });
  main.addEventListener("click", function () { term.focus(); });
})();
