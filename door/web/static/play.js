// The play page: xterm.js on a WebSocket to the door (door/net/websocket.py).  Keys go out
// as binary messages, the window's size as {"resize": [cols, rows]}; the screen comes back
// as binary messages of UTF-8 terminal bytes.  The door's screen is 80 columns wide and 24
// to 60 rows tall: the font grows or shrinks so that 80 columns fill the window's width
// (and 25 rows its height), then as many rows as fit are used.
(function () {
  "use strict";
  const COLS = 80, MIN_ROWS = 25, MAX_ROWS = 60, FONT = '"DejaVu Sans Mono", monospace';
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
  const status = document.getElementById("status");
  const main = document.getElementById("screen");
  const term = new Terminal({
    cols: COLS, rows: MIN_ROWS, fontFamily: FONT, fontSize: 16, scrollback: 0,
    cursorBlink: true, customGlyphs: true, drawBoldTextInBrightColors: true,
    theme: VGA,
  });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  window.reussite = { term: term, screenText: screenText };  // tests read the screen here

  function screenText() {
    const buffer = term.buffer.active, lines = [];
    for (let i = 0; i < term.rows; i++) {
      const line = buffer.getLine(buffer.viewportY + i);
      lines.push(line ? line.translateToString(true) : "");
    }
    return lines.join("\n");
  }

  function say(text, gone) {
    status.textContent = text;
    status.className = gone ? "gone" : "";
  }

  let socket = null;
  function sendSize() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ resize: [term.cols, term.rows] }));
    }
  }

  function fitWindow() {
    for (let i = 0; i < 3; i++) {  // the font size that puts 80 x 25 in the window
      const room = fit.proposeDimensions();
      if (!room || !room.cols || !room.rows) return;
      const scale = Math.min(room.cols / COLS, room.rows / MIN_ROWS);
      const size = Math.max(6, Math.min(48, Math.floor(term.options.fontSize * scale)));
      if (size === term.options.fontSize) break;
      term.options.fontSize = size;
    }
    const room = fit.proposeDimensions();
    const rows = Math.max(MIN_ROWS, Math.min(MAX_ROWS, room && room.rows ? room.rows : MIN_ROWS));
    if (rows !== term.rows || term.cols !== COLS) {
      term.resize(COLS, rows);
      sendSize();
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/play?rows=" + term.rows);
    socket.binaryType = "arraybuffer";
    socket.onopen = function () { say("Connected"); sendSize(); term.focus(); };
    socket.onmessage = function (event) {
      if (typeof event.data !== "string") term.write(new Uint8Array(event.data));
    };
    socket.onclose = function () {
      say("Disconnected: reload the page to call again.", true);
      term.options.cursorBlink = false;
    };
  }

  const encoder = new TextEncoder();
  term.onData(function (data) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(data));
  });
  term.onBinary(function (data) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(Uint8Array.from(data, function (c) { return c.charCodeAt(0) & 255; }));
    }
  });

  let pending = 0;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(fitWindow, 100);
  });

  // The font first: xterm.js measures its cells once it opens.
  const fontReady = document.fonts ? Promise.all([
    document.fonts.load("16px " + FONT), document.fonts.load("bold 16px " + FONT),
  ]).catch(function () {}) : Promise.resolve();
  fontReady.then(function () {
    term.open(document.getElementById("terminal"));
    fitWindow();
    connect();
  });
  main.addEventListener("click", function () { term.focus(); });
})();
