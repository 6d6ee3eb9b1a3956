/* tapis: the web page. It speaks the protocol of docs/protocol.md over a
 * WebSocket, holds no sentence of the games (every announcement and every
 * answer to a key comes from the server in the player's language) and takes
 * its own few words from GET /words. Announcements and key answers are
 * told to the screen reader through one paced polite region (sayPolite),
 * shown in a log that is not live; what must interrupt goes to an alert
 * region; an optional built-in voice speaks them all; sound cues are played from
 * /sounds/, panned by seat. Every key of the table is also a control (the
 * hand, the choices, a toolbar) for touch and swipes. No framework. */
'use strict';

const $ = (id) => document.getElementById(id);

const app = {
  ws: null, lang: 'en', words: {}, keys: [], games: [],
  name: '', password: '', token: '', loggedIn: false, lost: false,
  lobby: { users: [], tables: [] },
  table: 0, seat: -1, state: null,
  held: {},   /* each table's state by its number, the changes told applied (applyState) */
  moments: {},   /* the "moment" messages' queries and f1, by their name */
  info: null, hand: [], sel: -1, marked: [], menu: null, confirm: null, quit: false, verbosity: 'full',
  history: [], hpos: -1, saved: [], said: [], lobbySeen: false, fresh: false,
  voice: false, rate: 1, speechVolume: 1, cues: true, cueVolume: 0.8, large: false,
  /* What of the lobby is spoken as it happens: all, friends (the people
   * one sat at a table with in this visit, and invitations) or none. */
  lobbyTalk: 'all', friends: new Set(), savedTables: [], vibrate: false,
  audio: null, buffers: {},
  invited: new Set(), rematch: 0, muted: new Set(),   /* tables one is invited to; the finished table offering a rematch */
  request: null,   /* the last sit or create sent (showAsk) */
};

/* ---- words ---- */

/* printf-like: %s %d %ld and %1$s positional forms. */
function fmt(s, ...args) {
  let i = 0;
  return String(s || '').replace(/%(?:(\d+)\$)?l?[sd]/g, (m, pos) => {
    const v = pos ? args[Number(pos) - 1] : args[i++];
    return v === undefined ? '' : String(v);
  });
}
function w(name) { return app.words[name] || ''; }
/* A word with a number: NAME_1 or NAME_n by the language's plural rule. */
function wn(name, n) { return w(name + ((app.lang === 'fr' ? n <= 1 : n === 1) ? '_1' : '_n')); }

async function loadWords(lang) {
  const r = await fetch('words?lang=' + encodeURIComponent(lang));
  const d = await r.json();
  app.lang = d.lang;
  app.words = d.words;
  app.keys = d.keys;
  app.games = d.games;
  document.documentElement.lang = d.lang;
  for (const el of document.querySelectorAll('[data-w]')) el.textContent = w(el.dataset.w);
  renderKeys();
  renderCreateGames();
  renderLobby();
  renderTable();
}

function renderKeys() {
  const dl = $('keys-list');
  dl.textContent = '';
  for (const k of app.keys) {
    const dt = document.createElement('dt');
    dt.textContent = k.keys;
    const dd = document.createElement('dd');
    dd.textContent = k.what;
    dl.append(dt, dd);
  }
}

/* ---- speech: live regions and the built-in voice ---- */

function voiceSay(text, interrupt) {
  if (!app.voice || !text || !window.speechSynthesis) return;
  if (interrupt) speechSynthesis.cancel();
  const u = new SpeechSynthesisUtterance(text);
  u.lang = app.lang === 'fr' ? 'fr-FR' : 'en-GB';
  u.rate = app.rate;
  u.volume = app.speechVolume;
  speechSynthesis.speak(u);
}

/* What the screen reader is told. A screen reader does not keep the order
 * of lines added to a live region together (Orca takes them in the order
 * its events come, and each live message it speaks cuts the one before;
 * an assertive one drops the polite ones waiting), so the lines that come
 * together, or while the last announcement is still being said (a time
 * guessed from its length), go out as one element of one polite region
 * (#said), in the order they came: the turn prompt, the last the server
 * sends, is the last words. A key's answer goes the same way at once,
 * after the lines waiting; what must interrupt waits for the polite
 * element just told to be taken (alertSay). */
const said = { lines: [], timer: 0, until: 0, last: 0, events: [], hold: 0, told: [], words: '' };
const SAID_GATHER_MS = 30, SAID_TAKEN_MS = 250, SAID_MS_PER_CHAR = 40, SAID_MAX_MS = 2500, SAID_FOCUS_MS = 400,
  SAID_AGAIN_MS = 1000;
function sayPolite(text, now) {
  if (!now) {
    if (text) said.lines.push(text);
    if (!said.timer) said.timer = setTimeout(flushSaid, Math.max(SAID_GATHER_MS, said.until - Date.now(), said.hold - Date.now()));
    return;
  }
  clearTimeout(said.timer);
  said.timer = 0;
  if (Date.now() < said.hold && text) { said.lines.push(text); sayPolite(''); return; }
  flushSaid(text);
}
/* The words given to a live region, unlike the last ones given to any:
 * Orca drops a live line of the same words as the one before it, taken
 * for the same change told twice (a key pressed twice, H or ;, would be
 * answered once; a refusal after the same refusal not said). The same
 * words again end with an invisible character, every other time. */
function liveWords(text) {
  const t = text === said.words ? text + '\u200b' : text;
  said.words = t;
  return t;
}
/* The focus moved by the page: a screen reader says where, and drops the
 * live lines it holds; what is to be told waits until it has. */
function focusTo(el) {
  el.focus();
  said.hold = Date.now() + SAID_FOCUS_MS;
  if (said.timer) { clearTimeout(said.timer); said.timer = 0; sayPolite(''); }
}
/* The lines waiting, then a key's answer: one element of #said. A key's
 * answer comes after the lines told in the second before, told again: a
 * screen reader stops and drops what it had not yet said when the key came
 * (Orca flushes the live lines it holds at every key). */
function flushSaid(answered) {
  said.timer = 0;
  if (!answered && Date.now() < said.hold) { sayPolite(''); return; }
  const now = Date.now();
  said.events = said.events.filter((x) => now - x.at < SAID_AGAIN_MS);
  const again = answered ? said.events.map((x) => x.text) : [];
  const lines = said.lines;
  said.lines = [];
  if (lines.length) said.events.push({ at: now, text: lines.join(' ') });
  const joined = [...again, ...lines, answered || ''].filter(Boolean).join(' ');
  if (!joined) return;
  const text = liveWords(joined);
  const box = $('said');
  const p = document.createElement('p');
  p.textContent = text;
  box.append(p);
  while (box.childElementCount > 3) box.firstElementChild.remove();
  box.dataset.n = Number(box.dataset.n || 0) + 1;
  /* For the tests: what each element told again, line by line. */
  said.told.push({ text, again });
  if (said.told.length > 400) said.told.shift();
  said.last = now;
  said.until = now + Math.min(SAID_MAX_MS, text.length * SAID_MS_PER_CHAR);
}

/* An announcement: a line of the log (two equal messages are two lines),
 * in the order received, told by sayPolite: a turn prompt waits behind the
 * events before it, as the terminal queues it. What must interrupt (a
 * refusal, an error, a question) goes to the alert region (alertSay), not
 * here. Kept in the history (the last 100 in the tab's storage, for a
 * reload). */
function announce(text, kind, prompt) {
  if (!text) return;
  logLine(text, kind, prompt ? 'prompt' : kind === 'chat' ? 'chat' : '');
  remember(text, kind);
  sayPolite(text);
  voiceSay(text, false);
}

function logLine(text, kind, cls) {
  const log = $('log');
  const p = document.createElement('p');
  p.textContent = text;
  p.dataset.kind = kind;
  if (cls) p.className = cls;
  log.append(p);
  while (log.childElementCount > 300) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function remember(text, kind) {
  app.history.push(text);
  if (app.history.length > 300) app.history.shift();
  app.hpos = app.history.length;
  app.saved.push({ text, kind });
  if (app.saved.length > 100) app.saved.shift();
  try { sessionStorage.setItem('tapis-history', JSON.stringify(app.saved)); } catch (e) { /* full, private */ }
}

/* What must interrupt: an error, a refusal, a question waiting for a yes.
 * Said at once by the alert region, shown in the log, kept in the history. */
function alertSay(text, kind) {
  if (!text) return;
  alertOnly(text);
  logLine(text, kind, 'urgent');
  remember(text, kind);
}

/* The answer to a key: told at once, after the lines still waiting (the
 * polite region: nothing is dropped), shown under "Table now", not kept in
 * the history. */
function answer(text) {
  if (!text) return;
  const a = $('answers');
  const p = document.createElement('p');
  p.textContent = text;
  a.append(p);
  while (a.childElementCount > 5) a.firstElementChild.remove();
  $('view-answer').textContent = text;
  sayPolite(text, true);
  voiceSay(text, true);
}

/* ---- sound cues ---- */

function audioStart() {
  if (app.audio || !(window.AudioContext || window.webkitAudioContext)) return;
  app.audio = new (window.AudioContext || window.webkitAudioContext)();
}

async function cueBuffer(name) {
  if (!(name in app.buffers)) {
    app.buffers[name] = fetch('sounds/' + encodeURIComponent(name) + '.wav')
      .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(r.status))))
      .then((b) => app.audio.decodeAudioData(b))
      .catch(() => null);
  }
  return app.buffers[name];
}

/* Where a seat sounds, left (-1) to right (1), as the terminal places it:
 * one's own seat in front, the others on an arc from the right (the next
 * to play anticlockwise) to the left. */
function seatPan(seat) {
  const st = app.state, g = st && gameOf(currentTable() && currentTable().game);
  const players = (st && st.players) || (currentTable() && currentTable().players) || 0;
  if (seat < 0 || seat >= players) return 0;
  const me = app.seat >= 0 && app.seat < players ? app.seat : -1;
  const k = (seat - (me < 0 ? 0 : me) + players) % players;
  if (me >= 0 && k === 0) return 0;
  const others = me < 0 ? players : players - 1;
  const i = me < 0 ? k : k - 1;
  let az = others <= 1 ? 0 : 90 - (180 * i) / (others - 1);
  if (g && g.clockwise) az = -az;
  return Math.sin((az * Math.PI) / 180);
}

async function cue(name, seat) {
  if (!name || !app.cues || !app.audio) return;
  const buf = await cueBuffer(name);
  if (!buf) return;
  const src = app.audio.createBufferSource();
  src.buffer = buf;
  const gain = app.audio.createGain();
  gain.gain.value = app.cueVolume;
  let node = src.connect(gain);
  if (app.audio.createStereoPanner) {
    const pan = app.audio.createStereoPanner();
    pan.pan.value = seatPan(seat);
    node = node.connect(pan);
  }
  node.connect(app.audio.destination);
  src.start();
}

/* ---- the connection ---- */

function send(o) {
  /* A sit or a create kept: a question about a seat held elsewhere may
   * ask for it again, with give_up ("ask"). */
  if (o.type === 'sit' || o.type === 'create') app.request = o;
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(o));
}

/* A question of the server (a seat held where a game goes on, and another
 * table asked for): its words and its choices as buttons, the focus on
 * the first; a choice sends the message it names, or the request again
 * with give_up. */
function showAsk(m) {
  const box = $('ask'), row = $('ask-choices');
  $('ask-q').textContent = m.text || '';
  row.textContent = '';
  for (const c of Array.isArray(m.choices) ? m.choices : []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = c.text || '';
    b.onclick = () => {
      box.hidden = true;
      if (c.send && typeof c.send === 'object') send(c.send);
      else if (c.again && app.request) send(Object.assign({}, app.request, { give_up: true }));
    };
    row.append(b);
  }
  box.hidden = false;
  alertOnly(m.text || '');
  if (row.firstElementChild) focusTo(row.firstElementChild);
}

function connect() {
  /* The language in the address: the errors before the hello are in it too. */
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/?lang=' +
    encodeURIComponent(app.lang);
  const ws = new WebSocket(url, 'tapis');
  app.ws = ws;
  ws.onopen = () => {
    /* The states as what changed from the one before (docs/protocol.md). */
    const hello = { type: 'hello', version: 1, name: app.name, lang: app.lang, state_changes: true };
    if (app.password) hello.password = app.password;
    else if (app.token) hello.token = app.token;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    if (app.ws !== ws) return;
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    const f = handlers[m.type];
    if (f) f(m);
  };
  ws.onclose = (ev) => {
    if (app.ws !== ws) return;
    app.ws = null;
    if (app.loggedIn && ev.code === 4001) {
      /* Told to connect again at once (the error `reconnect` said why):
       * the table is reached again through the server. */
      connect();
    } else if (app.loggedIn) {
      /* Said once; the connection is tried again every 2 s. */
      if (!app.lost) alertSay(w('lost'), 'system');
      app.lost = true;
      setTimeout(connect, 2000);
    }
  };
}

/* Leave the connection without a word (a new language, a new login). */
function disconnect() {
  const ws = app.ws;
  app.ws = null;
  if (ws) { ws.onclose = null; ws.onmessage = null; ws.close(); }
}

/* A guest's way back: the server's token, kept a week in the browser's
 * storage (the server keeps a guest's session 7 days). A reload of the tab
 * logs in again by itself (the tab's storage); another tab, or the browser
 * opened again, offers the name and logs in with the token when asked (so
 * that a second tab never takes the first one's place). An account comes
 * back with its password, never stored. */
const WEEK = 7 * 24 * 3600 * 1000;
function keepSession(m) {
  try {
    if (m.guest && m.token) {
      const s = JSON.stringify({ name: m.name, token: m.token, until: Date.now() + WEEK });
      localStorage.setItem('tapis-session', s);
      sessionStorage.setItem('tapis-session', s);
    } else {
      localStorage.removeItem('tapis-session');
      sessionStorage.setItem('tapis-session', JSON.stringify({ name: m.name, account: true }));
    }
  } catch (e) { /* private browsing */ }
}
function savedSession(store) {
  try {
    const s = JSON.parse(store.getItem('tapis-session') || 'null');
    if (s && s.name && s.token && s.until > Date.now()) return s;
    if (s && !s.account) store.removeItem('tapis-session');
  } catch (e) { /* private browsing */ }
  return null;
}
function forgetSession() {
  try {
    localStorage.removeItem('tapis-session');
    sessionStorage.removeItem('tapis-session');
    sessionStorage.removeItem('tapis-history');
  } catch (e) { /* private browsing */ }
}

/* A table's state as held: a whole one as it came, or the one held with
 * the changes told (a member, or a key of "keys", null is gone); a new
 * object each time, so that the one before stays as it was. Null when
 * there is nothing to apply the changes to. */
function applyState(held, m) {
  if (!m.changes) return m;
  if (!held) return null;
  const st = { ...held };
  for (const k of Object.keys(m)) {
    if (k === 'changes') continue;
    if (k === 'keys' && m.keys && held.keys) {
      st.keys = { ...held.keys };
      for (const q of Object.keys(m.keys)) {
        if (m.keys[q] === null) delete st.keys[q];
        else st.keys[q] = m.keys[q];
      }
    } else if (m[k] === null) {
      delete st[k];
    } else {
      st[k] = m[k];
    }
  }
  /* What the keys mean now: those of the moment named, sent once. */
  const kw = app.moments[st.moment];
  if (kw) { st.queries = kw.queries; st.f1 = kw.f1; }
  return st;
}

const handlers = {
  welcome(m) {
    const again = app.lost;
    app.held = {};   /* a new connection: the states come whole again, */
    app.moments = {};   /* and the moments anew */
    app.loggedIn = true;
    app.lost = false;
    app.token = m.token;
    app.name = m.name;
    app.guest = !!m.guest;
    keepSession(m);
    const fresh = app.fresh;
    if (again) announce(w('back'), 'system');
    /* Arrived: where one is, as the server says it ("Lobby: 2 tables, 3 people."). */
    else if (m.text && !app.table) announce(m.text, 'system');
    if (!app.table) {
      show('lobby');
      /* Logged in: the lobby's heading. Back, or in another language: the
       * focus stays where it is, unless it was lost. */
      if (fresh) focusTo($('lobby-h'));
      else keepFocus();
    }
    app.fresh = false;
  },
  lobby(m) {
    app.lobbySeen = true;
    app.lobby = m;
    for (const t of m.tables || []) keepFriends(t);
    renderLobby();
    renderTable();
  },
  /* A change of the lobby's page, applied to ours; one missed (its
   * number not the next): the page asked for again. */
  lobby_delta(m) {
    if (!app.lobbySeen || m.seq !== app.lobby.seq + 1) {
      send({ type: 'lobby_query', page: app.lobby.page || 0, filter: app.lobby.filter || '' });
      return;
    }
    const lb = app.lobby;
    lb.seq = m.seq;
    lb.online = m.online;
    for (const t of m.tables || []) {
      keepFriends(t);
      const i = lb.tables.findIndex((x) => x.id === t.id);
      if (i >= 0) lb.tables[i] = t; else lb.tables.push(t);
    }
    const gone = new Set(m.gone || []), out = new Set(m.out || []);
    lb.tables = lb.tables.filter((t) => !gone.has(t.id));
    lb.users = lb.users.filter((u) => !out.has(u.name)).concat(m.in || []);
    renderLobby();
    renderTable();
  },
  /* The table one sits at, as the lobby lists it, while it fills. */
  table(m) {
    if (m.info) keepFriends(m.info);
    if (m.info && m.info.id === app.table) { app.info = m.info; renderTable(); }
  },
  /* What changes in the lobby, phrased by the server. */
  lobby_event(m) {
    if (lobbyHeard(m.names || [], String(m.event || '').startsWith('invit'))) announce(m.text, 'lobby');
  },
  /* The saved tables where one holds a seat, to resume. */
  saved(m) {
    app.savedTables = Array.isArray(m.tables) ? m.tables : [];
    renderSaved();
  },
  created() {},
  joined(m) {
    const same = app.table === m.table;
    app.table = m.table;
    app.seat = m.seat;
    app.info = m.info || null;
    if (!same) {
      app.state = null;
      app.hand = [];
      app.sel = -1;
      app.marked = [];
      app.menu = null;
      closeConfirm();
    }
    $('result').hidden = true;
    if (app.rematch === m.table) app.rematch = 0; /* it started again */
    show('table');
    renderTable();
    /* Arrived at a table: which, as the server says it. */
    if (!same && m.text) announce(m.text, 'system');
    if (app.verbosity === 'short') send({ type: 'verbosity', table: app.table, level: 'short' });
    focusTo($('play'));
  },
  left(m) {
    delete app.held[m.table];
    if (m.table !== app.table) return;
    app.table = 0;
    app.info = null;
    app.state = null;
    app.quit = false;
    closeConfirm();
    show('lobby');
    focusTo($('lobby-h'));
  },
  say(m) { sayMsg(m); },
  /* What happened while away: one summary in the log (each message kept in
   * the history), without the turn prompts of then, as the server heads it
   * and ends it with where the game stands (missed.heading, missed.now, in
   * the player's language): the state that follows brings the prompt of
   * now, said once. */
  missed(m) {
    const texts = [];
    for (const x of m.says || []) {
      if (x.type === 'chat') {
        const t = fmt(w('chat_from'), x.from, x.text);
        texts.push(t);
        remember(t, 'chat');
      } else if (x.text && !x.urgent) {
        texts.push(x.text);
        remember(x.text, 'say');
      }
    }
    if (!texts.length && !m.now) return;
    const text = [m.heading || '', ...texts, m.now || ''].filter(Boolean).join(' ');
    logLine(text, 'missed', '');
    sayPolite(text);
    voiceSay(text, false);
  },
  moment(m) {
    app.moments[m.moment] = { queries: m.queries, f1: m.f1 };
  },
  state(told) {
    const m = applyState(app.held[told.table], told);
    if (!m) return;
    app.held[told.table] = m;
    if (m.table !== app.table) return;
    const before = app.state;
    app.state = m;
    app.seat = m.seat;
    if (!before || before.moves !== m.moves || before.state !== m.state) {
      /* A new action: what the keys answer changed. */
      app.menu = null;
      closeConfirm();
    }
    refreshHand();
    if (m.my_turn && !(before && before.my_turn && before.moves === m.moves)) selectPlayable();
    renderTable();
    if (m.state === 'over' && (!before || before.state !== 'over')) showResult(m);
    keepFocus();
  },
  refused(m) {
    alertSay(m.text, 'refused');
    cue(m.cue || 'illegal', app.seat);
  },
  chat(m) {
    if (!m.table && !lobbyHeard([m.from], false)) return;
    announce(fmt(w('chat_from'), m.from, m.text), 'chat');
    cue('chat', -1);
  },
  /* The server phrases its errors in the player's language. */
  error(m) {
    alertSay(m.message, 'error');
    cue('illegal', -1);
    /* A refused login, or the same account logged in elsewhere: no coming back. */
    if (m.code === 'replaced') app.loggedIn = false;
    if (!app.loggedIn && app.ws) {
      disconnect();
      if (m.re === 'hello' || m.code === 'replaced') forgetSession();
      app.token = '';
      show('login');
      focusTo($('login-name'));
    }
  },
  /* A sentence of the server for this page alone (moderation, invitations
   * sent, a rematch asked). */
  notice(m) { announce(m.text, 'system'); },
  /* Invited to a table: its Sit and Watch ask for no password. */
  invited(m) {
    app.invited.add(m.table);
    /* On none of the pages one holds: its entry as the invitation gives it. */
    if (m.info && m.info.id === m.table && !app.lobby.tables.some((t) => t.id === m.table)) app.lobby.tables.push(m.info);
    announce(m.text, 'system');
    cue('chat', -1);
    renderLobby();
  },
  /* The game over, its players are offered a rematch: the button takes the
   * focus, the result line as its description. */
  rematch(m) {
    if (m.table !== app.table) return;
    app.rematch = m.table;
    announce(m.text, 'system');
    renderTable();
    focusTo($('btn-rematch'));
  },
  ask(m) { showAsk(m); },
  pong() {},
};

function sayMsg(m) {
  app.said.push({ moves: m.moves, text: m.text });
  if (app.said.length > 40) app.said.shift();
  announce(m.text, 'say', !!m.urgent);
  if (m.cue) cue(m.cue, typeof m.from === 'number' ? m.from : -1);
}

/* The end of a game: what its last action said, where the focus goes. */
function showResult(st) {
  const r = $('result');
  r.textContent = app.said.filter((x) => x.moves === st.moves && x.text).map((x) => x.text).join(' ') ||
    (st.keys && st.keys.S) || '';
  r.hidden = !r.textContent;
  if (!r.hidden) focusTo(r);
}

/* The focus is never left on the page's body, nor on a control just
 * hidden (Start once the game began): it goes to the place of the moment. */
function keepFocus() {
  const a = document.activeElement;
  if (a && a !== document.body && a.isConnected && !a.closest('[hidden]')) return;
  if (app.table) focusTo(!$('result').hidden ? $('result') : $('play'));
  else if (app.loggedIn) focusTo($('lobby-h'));
}

/* The people holding a seat at a table where one holds one are friends
 * for the visit (the lobby setting "friends"). */
function keepFriends(t) {
  const seats = (t && t.seats) || [];
  if (!seats.some((x) => x.name === app.name)) return;
  for (const x of seats) if (x.name && x.name !== app.name && app.friends.size < 64) app.friends.add(x.name);
}
function lobbyHeard(names, invitation) {
  if (app.lobbyTalk === 'none') return false;
  if (app.lobbyTalk === 'all' || invitation) return true;
  return names.some((n) => app.friends.has(n));
}

/* ---- the lobby ---- */

function show(which) {
  $('login').hidden = which !== 'login';
  $('lobby').hidden = which !== 'lobby';
  $('table').hidden = which !== 'table';
  $('keys').hidden = which !== 'table';
}

function gameOf(name) { return app.games.find((g) => g.name === name); }
/* The table one is at: its entry as the server last gave it ("joined",
 * "table", else the lobby's list), with the state of the game in force. */
function currentTable() {
  const t = (app.info && app.info.id === app.table ? app.info : null) ||
    app.lobby.tables.find((x) => x.id === app.table);
  const st = app.state;
  return t && st && st.state ? { ...t, state: st.state } : t;
}

function tableLine(t) {
  const g = gameOf(t.game);
  const title = g ? g.title : t.game;
  const open = t.seats.filter((s) => s.state === 'open').length;
  let s = t.state === 'over' ? fmt(w('table_over'), t.id, title, t.players)
    : fmt(wn('table_' + t.state, open), t.id, title, t.players, open);
  if (t.private) s += ' ' + w('private_mark');
  return s;
}

function button(label, onclick, describedby) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.onclick = onclick;
  if (describedby) b.setAttribute('aria-describedby', describedby);
  return b;
}

function tablePassword(t) {
  if (!t.private || app.invited.has(t.id)) return undefined;
  return window.prompt(w('table_password')) || '';
}

function renderLobby() {
  const ul = $('tables');
  ul.textContent = '';
  for (const t of app.lobby.tables) {
    const li = document.createElement('li');
    const span = document.createElement('span');
    span.id = 'table-line-' + t.id;
    span.textContent = tableLine(t) + ' ';
    li.append(span);
    if (t.state !== 'over') {
      /* A full table offers only to watch. */
      if (t.seats.some((x) => x.state === 'open')) {
        const sit = button(w('sit'), () => send({ type: 'sit', table: t.id, password: tablePassword(t) }), span.id);
        sit.className = 'sit';
        li.append(sit, ' ');
      }
      const watch = button(w('watch'), () => send({ type: 'watch', table: t.id, password: tablePassword(t) }), span.id);
      watch.className = 'watch';
      li.append(watch);
    }
    ul.append(li);
  }
  if (!app.lobby.tables.length) {
    const li = document.createElement('li');
    li.textContent = w('no_tables');
    ul.append(li);
  }
  /* A large lobby comes a page at a time (docs/protocol.md). */
  const page = app.lobby.page || 0, pages = app.lobby.pages || 0;
  $('tables-nav').hidden = pages <= 1 && page === 0;
  $('tables-page').textContent = fmt(w('tables_page'), page + 1, Math.max(pages, 1), app.lobby.total || 0);
  $('tables-prev').hidden = page === 0;
  $('tables-next').hidden = page + 1 >= pages;
  const on = $('online');
  on.textContent = '';
  for (const u of app.lobby.users) {
    const li = document.createElement('li');
    li.textContent = u.guest ? u.name + ' (' + w('guest') + ')' : u.name;
    if (u.name !== app.name) {
      /* Their chat muted for oneself: a toggle, pressed while muted. */
      const muted = app.muted.has(u.name);
      const b = button(fmt(w('mute_person'), u.name), () => {
        if (muted) app.muted.delete(u.name); else app.muted.add(u.name);
        send({ type: 'mute', name: u.name, on: !muted });
        renderLobby();
      });
      b.className = 'mute';
      b.dataset.name = u.name;
      b.setAttribute('aria-pressed', muted ? 'true' : 'false');
      li.append(' ', b);
      /* A moderator's acts (an account's; the server refuses anyone
       * else, in their language): the reason asked, said to the person. */
      if (!app.guest) {
        for (const [act, word] of [['mute', 'mod_mute'], ['kick', 'mod_kick'], ['ban', 'mod_ban']]) {
          const m = button(fmt(w(word), u.name), () => {
            const reason = window.prompt(w('mod_reason'), '');
            if (reason === null) return;
            send(reason ? { type: 'mod', act, name: u.name, reason } : { type: 'mod', act, name: u.name });
          });
          m.className = 'mod';
          m.dataset.name = u.name;
          li.append(' ', m);
        }
      }
    }
    on.append(li);
  }
}

function renderSaved() {
  const ul = $('saved');
  ul.textContent = '';
  for (const t of app.savedTables) {
    const li = document.createElement('li');
    const span = document.createElement('span');
    span.id = 'saved-line-' + t.id;
    const g = app.games.find((x) => x.name === t.game);
    const others = (t.seats || []).filter((n) => n && n !== app.name).join(', ');
    span.textContent = (others ? fmt(w('saved_line'), t.id, g ? g.title : t.game, others)
      : fmt(w('saved_alone'), t.id, g ? g.title : t.game)) + ' ';
    const b = button(w('resume'), () => send({ type: 'resume', table: t.id }), span.id);
    b.id = 'resume-' + t.id;
    li.append(span, b);
    ul.append(li);
  }
  $('saved-box').hidden = !app.savedTables.length;
}

function option(value, label, selected) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  if (selected) o.selected = true;
  return o;
}

function renderCreateGames() {
  const sel = $('create-game');
  const was = sel.value || 'bouillabaisse';
  sel.textContent = '';
  for (const g of app.games) sel.append(option(g.name, g.title, g.name === was));
  renderCreateGame();
}

function renderCreateGame() {
  const g = gameOf($('create-game').value);
  if (!g) return;
  const pl = $('create-players');
  pl.textContent = '';
  for (let n = g.min; n <= g.max; n++) pl.append(option(n, String(n), n === g.default));
  const rules = $('create-rules');
  for (const el of [...rules.children]) if (el.tagName !== 'LEGEND') el.remove();
  for (const r of g.rules) {
    const p = document.createElement('p');
    const label = document.createElement('label');
    label.htmlFor = 'rule-' + r.key;
    label.textContent = r.label;
    let input;
    if (r.any) {
      input = document.createElement('input');
      input.inputMode = 'numeric';
      input.value = r.default;
    } else {
      input = document.createElement('select');
      for (const v of r.values) input.append(option(v.value, v.label, v.value === r.default));
    }
    input.id = 'rule-' + r.key;
    input.dataset.rule = r.key;
    p.append(label, ' ', input);
    if (r.help) {
      const h = document.createElement('span');
      h.className = 'help';
      h.id = 'rule-help-' + r.key;
      h.textContent = r.help;
      input.setAttribute('aria-describedby', h.id);
      p.append(h);
    }
    rules.append(p);
  }
  renderCreateSeats();
}

function renderCreateSeats() {
  const n = Number($('create-players').value);
  const box = $('create-seats');
  for (const el of [...box.children]) if (el.tagName !== 'LEGEND') el.remove();
  const kinds = [['open', w('seat_open')], ['bot:1', w('bot_1')], ['bot:2', w('bot_2')], ['bot:3', w('bot_3')]];
  for (let s = 0; s < n; s++) {
    const p = document.createElement('p');
    const label = document.createElement('label');
    label.htmlFor = 'seat-' + s;
    label.textContent = fmt(w('seat_n'), s + 1);
    const sel = document.createElement('select');
    sel.id = 'seat-' + s;
    for (const [v, l] of kinds) sel.append(option(v, l, v === (s === 0 ? 'open' : 'bot:2')));
    p.append(label, ' ', sel);
    box.append(p);
  }
}

/* ---- the table: the keys of the terminal (ui/play.c), on the last state ---- */

function isMyTurn() {
  const st = app.state;
  return !!st && st.state === 'playing' && !!st.my_turn;
}
function handOf() { return (app.state && app.state.hand) || []; }
function canPlay() { return isMyTurn() && handOf().some((h) => h.playable); }
function choicesOf() { return (isMyTurn() && app.state.choices) || []; }

/* The hand as the state gives it; the selected card stays selected. */
function refreshHand() {
  const old = app.sel >= 0 ? app.hand[app.sel] : null;
  app.hand = handOf().map((h) => h.card);
  app.sel = old ? app.hand.indexOf(old) : -1;
  if (app.sel < 0 && app.hand.length) app.sel = 0;
  app.marked = app.marked.filter((c) => app.hand.includes(c));
}

/* How the keys move the cursor now, as the server's state says
 * (state.cursor, the rules of app/keymap as lists): the page keeps none. */
function cursorOf() { return (app.state && app.state.cursor) || { hand: {}, turn: [], amount: {} }; }

/* At the start of a turn, the cursor goes where the state says (a card
 * that cannot be played gives way to the first one that can). */
function selectPlayable() {
  const to = cursorOf().turn[app.sel];
  if (app.sel >= 0 && Number.isInteger(to) && to >= 0 && to < app.hand.length) app.sel = to;
}

/* What the page changes on every state is changed in place, only where it
 * differs: a screen reader is told of every element made or removed, and
 * Orca, more than 50 events behind (a busy machine), drops the live lines
 * among them when a focus or selection change comes (its "flood"
 * pruning). A hand made again from nothing is some thirty events. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
function setAttr(el, name, value) {
  if (value === null) { if (el.hasAttribute(name)) el.removeAttribute(name); } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
/* parent's children made to match items, one element each found again by
 * its id (keyOf): the kept ones stay, the gone ones go, the new ones (make)
 * come in their place; update sets what each shows. */
function keyed(parent, items, keyOf, make, update) {
  const old = new Map();
  for (const el of [...parent.children]) old.set(el.dataset.id, el);
  let at = parent.firstElementChild;
  items.forEach((it, i) => {
    const k = String(keyOf(it));
    let el = old.get(k);
    if (el) old.delete(k);
    else { el = make(it); el.dataset.id = k; }
    update(el, it, i);
    if (el === at) at = at.nextElementSibling;
    else parent.insertBefore(el, at);
  });
  for (const el of old.values()) el.remove();
}

function renderTable() {
  const t = currentTable();
  const st = app.state;
  setText($('table-h'), t ? tableLine(t) : app.table ? fmt(w('table_n'), app.table) : '');
  $('btn-start').hidden = !(t && t.creator === app.name && t.state === 'waiting');
  $('btn-stand').hidden = app.seat < 0;
  $('btn-rematch').hidden = !(app.rematch && app.rematch === app.table && st && st.state === 'over');
  /* A spectator sits only where a seat is open. */
  $('btn-sit').hidden = app.seat >= 0 || (st && st.state === 'over') || !(t && t.seats.some((x) => x.state === 'open'));
  renderSeats(t);
  const keys = (st && st.keys) || {};
  setText($('view-turn'), (isMyTurn() && st.prompt) || keys.T || '');
  setText($('view-cards'), keys.C || '');
  setText($('view-scores'), keys.S || '');
  $('history-buttons').hidden = !app.history.length;
  turnSignals();
  renderHand();
  renderChoices();
  renderQueries();
  if (st && st.state !== 'over') $('result').hidden = true;
}

/* The hand for touch and for a screen reader's swipes: one button a card,
 * in order, named by the card and whether it may be played now (or is
 * marked for a discard, a toggle then). A tap plays a playable card, marks
 * one when a discard is ahead, else says it. Made again only when what it
 * shows changed, the focused card keeping the focus. */
function renderHand() {
  const ul = $('hand');
  const hand = handOf();
  const discard = isMyTurn() && !!app.state.discard_ahead;
  const shown = JSON.stringify([app.lang, hand, isMyTurn(), discard, app.marked, app.sel]);
  if (shown === ul.dataset.shown) return;
  ul.dataset.shown = shown;
  const had = ul.contains(document.activeElement);
  const at = had ? [...ul.querySelectorAll('button')].indexOf(document.activeElement) : -1;
  $('hand-h').hidden = ul.hidden = !hand.length;
  keyed(ul, hand, (c) => c.card, (c) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.card = c.card;
    b.onclick = () => tapCard(c.card);
    li.append(b);
    return li;
  }, (li, c, i) => {
    const b = li.firstElementChild;
    setText(b, c.name);
    let name = c.name;
    if (canPlay()) name += ', ' + w(c.playable ? 'playable' : 'not_playable');
    setAttr(b, 'aria-label', name);
    setAttr(b, 'aria-pressed', discard ? (app.marked.includes(c.card) ? 'true' : 'false') : null);
    const cls = [];
    if (canPlay() && !c.playable) cls.push('unplayable');
    if (canPlay() && c.playable) cls.push('playable');
    if (i === app.sel) cls.push('selected');
    if (app.marked.includes(c.card)) cls.push('marked');
    if (b.className !== cls.join(' ')) b.className = cls.join(' ');
  });
  /* The focused card keeps the focus; a card played gives it to the one
   * now in its place. */
  if (!had || ul.contains(document.activeElement)) return;
  const bs = ul.querySelectorAll('button');
  focusTo(bs[Math.min(at, bs.length - 1)] || $('play'));
}

/* One's turn: the tab's title says it (another tab or window shows it),
 * and a phone vibrates when the setting asks (once a turn). */
function turnSignals() {
  const mine = isMyTurn();
  const title = mine ? fmt(w('title_turn'), 'tapis') : 'tapis';
  if (document.title !== title) document.title = title;
  const turn = mine ? app.table + ':' + app.state.moves : '';
  if (turn && turn !== app.buzzed && app.vibrate && navigator.vibrate) navigator.vibrate(200);
  app.buzzed = turn;
}

function tapCard(card) {
  audioStart();
  const i = app.hand.indexOf(card);
  if (i < 0) return;
  app.sel = i;
  const c = handOf()[i];
  if (isMyTurn() && c.playable) act('play ' + card);
  else if (isMyTurn() && app.state.discard_ahead) mark();
  else saySelected();
  renderTable();
}

/* The query keys as a toolbar (the arrows walk it): each button says what
 * its key says now, as the server's state lists them (state.queries: L on
 * the last trick or the last showdown, the hint on one's turn, F1). */
function renderQueries() {
  const bar = $('queries');
  const qs = (app.state && app.state.state === 'playing' && app.state.queries) || [];
  const shown = JSON.stringify([app.lang, qs]);
  if (shown === bar.dataset.shown) return;
  bar.dataset.shown = shown;
  const had = bar.contains(document.activeElement);
  $('queries-h').hidden = bar.hidden = !qs.length;
  keyed(bar, qs, (q) => q.key, (q) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.key = q.key;
    b.textContent = q.key;
    b.tabIndex = -1;
    b.onclick = () => { audioStart(); queryKey(q.key); };
    return b;
  }, (b, q) => setAttr(b, 'aria-label', fmt(w('key_button'), q.spoken, q.what)));
  /* One stop of Tab (the arrows walk the bar): the button that had it. */
  const bs = [...bar.querySelectorAll('button')];
  if (bs.length && !bs.some((b) => b.tabIndex === 0)) bs[0].tabIndex = 0;
  if (had && !bar.contains(document.activeElement)) (bs[0] || $('play')).focus();
}

/* To one's hand from anywhere (the link at the top of the table): the
 * selected card, else the first. */
function toHand() {
  const bs = $('hand').querySelectorAll('button');
  const b = bs[Math.max(0, app.sel)] || bs[0];
  if (b) b.focus(); else answer(w('no_cards'));
}

/* The answer of a query key (or button). */
function queryKey(k) {
  const keys = (app.state && app.state.keys) || {};
  if (k !== 'F1') app.keysSaid = false;
  if (k === 'H') sayHand();
  else if (k === '?') send({ type: 'hint', table: app.table });
  else if (k === 'F1') helpKeys();
  else answer(keys[k] || w('not_begun'));
}

/* The choices as buttons, made again only when they changed; a choice that
 * takes an amount has a spin button beside it (its button plays the amount
 * shown, said as the game phrases it). A button that had the focus gives
 * it to the same choice when it is still there, else to the table's keys
 * (#play), never to the page's body. */
function renderChoices() {
  const ch = $('choices');
  const shown = JSON.stringify([app.lang, choicesOf(), app.marked]);
  if (shown === ch.dataset.shown) return;
  ch.dataset.shown = shown;
  const focused = ch.contains(document.activeElement) ? document.activeElement.textContent : null;
  ch.textContent = '';
  ch.hidden = $('choices-h').hidden = !choicesOf().length;
  menuOrder().forEach((c, k) => {
    const li = document.createElement('li');
    const label = isDiscard(c) && c.labels ? c.labels[markedMask()] || c.label : c.label;
    const b = button(label, () => {
      const spin = $('amount-' + k);
      if (!spin) { choose(c, undefined, b); return; }
      const n = Number(spin.value);
      if (!Number.isInteger(n) || n < c.min || n > c.max) { alertSay(fmt(w('type_amount'), c.min, c.max), 'refused'); return; }
      choose(c, n, b);
    });
    b.id = 'choice-' + k;
    /* A choice with an amount: the field first, then its button, which
     * says the amount typed as the game phrases it. */
    if (hasRange(c)) {
      const label2 = document.createElement('label');
      label2.htmlFor = 'amount-' + k;
      label2.textContent = w('amount');
      const spin = document.createElement('input');
      spin.type = 'number';
      spin.id = 'amount-' + k;
      spin.min = c.min;
      spin.max = c.max;
      spin.value = c.min;
      spin.inputMode = 'numeric';
      const said = document.createElement('span');
      said.id = 'amount-said-' + k;
      said.className = 'help';
      said.textContent = (c.labels && c.labels[0]) || '';
      spin.setAttribute('aria-describedby', said.id);
      spin.oninput = () => {
        const n = Number(spin.value);
        const ok = Number.isInteger(n) && n >= c.min && n <= c.max;
        said.textContent = ok ? (c.labels && c.labels[n - c.min]) || String(n) : fmt(w('type_amount'), c.min, c.max);
        if (ok && c.labels && c.labels[n - c.min]) b.textContent = c.labels[n - c.min];
      };
      li.append(label2, ' ', spin, said, ' ');
    }
    li.append(b);
    ch.append(li);
  });
  if (focused === null) return;
  const same = [...ch.querySelectorAll('button')].find((b) => b.textContent === focused);
  focusTo(same || $('play'));
}

/* The seats of the table; its creator may open a seat or give it to a bot
 * while the table waits, and remove a player until the game is over. The
 * list is made again only when what it shows changed (a lobby list or a
 * game state leaves it alone); then a control keeps the focus, and a kind
 * chosen but not yet set stays chosen. */
function renderSeats(t) {
  const seats = $('seats');
  const mine = !!t && t.creator === app.name;
  const shown = JSON.stringify([app.lang, app.name, mine, t && t.id, t && t.state, (t && t.seats) || []]);
  if (shown === seats.dataset.shown) return;
  seats.dataset.shown = shown;
  const focused = document.activeElement && seats.contains(document.activeElement) ? document.activeElement.id : '';
  const chosen = {};
  for (const sel of seats.querySelectorAll('select')) if (sel.value !== sel.dataset.now) chosen[sel.id] = sel.value;
  seats.textContent = '';
  for (const s of (t && t.seats) || []) {
    const li = document.createElement('li');
    const span = document.createElement('span');
    span.id = 'seat-line-' + s.seat;
    span.textContent = s.state === 'open' ? fmt(w('seat_free'), s.seat + 1)
      : s.name ? fmt(w('seat_player'), s.seat + 1, s.name)
        : s.bot ? fmt(w('seat_bot_named'), s.seat + 1, s.bot, s.level) : fmt(w('seat_bot'), s.seat + 1, s.level);
    li.append(span);
    if (mine && t.state === 'waiting' && !s.name) {
      const label = document.createElement('label');
      label.htmlFor = 'seat-kind-' + s.seat;
      label.textContent = fmt(w('seat_kind'), s.seat + 1);
      const sel = document.createElement('select');
      sel.id = 'seat-kind-' + s.seat;
      const now = s.state === 'open' ? 'open' : 'bot:' + s.level;
      sel.dataset.now = now;
      for (const [v, l] of [['open', w('seat_open')], ['bot:1', w('bot_1')], ['bot:2', w('bot_2')], ['bot:3', w('bot_3')]])
        sel.append(option(v, l, v === now));
      if (chosen[sel.id]) sel.value = chosen[sel.id];
      const b = button(fmt(w('set_seat'), s.seat + 1), () => send({ type: 'seat', table: app.table, seat: s.seat, kind: sel.value }));
      b.id = 'seat-set-' + s.seat;
      li.append(' ', label, ' ', sel, ' ', b);
    } else if (mine && t.state !== 'over' && s.name && s.name !== app.name) {
      const b = button(fmt(w('kick'), s.name), () => askFirst(fmt(w('kick_q'), s.name),
        () => send({ type: 'kick', table: app.table, seat: s.seat })), span.id);
      b.id = 'seat-kick-' + s.seat;
      li.append(' ', b);
    }
    seats.append(li);
  }
  if (focused && $(focused)) $(focused).focus();
}

function act(text) {
  app.menu = null;
  closeConfirm();
  if (/^discard/.test(text)) app.marked = [];
  send({ type: 'action', table: app.table, action: text });
}

const isDiscard = (c) => c.action === 'discard';
const hasRange = (c) => c.min !== undefined && c.max > c.min;

/* The words of a choice, with an amount or with the marked cards. */
function choiceAction(c, amount) {
  if (isDiscard(c)) return app.marked.length ? 'discard ' + app.marked.join(' ') : 'discard';
  if (amount !== undefined && hasRange(c)) return c.action.replace(/\d+$/, String(amount));
  return c.action;
}

/* The marked cards as a mask of the hand's positions (a discard's label). */
function markedMask() {
  return app.marked.reduce((m, c) => m | (1 << app.hand.indexOf(c)), 0);
}

function selectedText() {
  const c = handOf()[app.sel];
  let s = c.name;
  if (app.marked.includes(c.card)) s += ', ' + w('to_discard');
  if (canPlay() && !c.playable) s += ', ' + w('not_playable');
  return s + '.';
}

function saySelected(edge) {
  if (app.sel < 0 || !handOf()[app.sel]) { answer(w('no_cards')); return; }
  answer((edge ? edge + ' ' : '') + selectedText());
}

/* A key of the hand (Left, Right, Up, Down, Page Up, Page Down, Home,
 * End): the cursor goes where the state's lists say, and what they say at
 * an edge is said first. */
function moveCursor(k) {
  const m = cursorOf().hand[k];
  if (app.sel < 0 || !m) { saySelected(); return; }
  const to = m.to[app.sel], edge = (m.edge || []).includes(app.sel);
  if (Number.isInteger(to) && to >= 0 && to < app.hand.length) app.sel = to;
  saySelected(edge ? m.said : '');
}

/* The menu's order as the server gives it (state.menu: the safest first,
 * a fold last, as the terminal's); the choices as listed without it. */
function menuOrder() {
  const cs = choicesOf(), order = (app.state && app.state.menu) || [];
  return order.length === cs.length ? order.map((k) => cs[k]).filter(Boolean) : cs.slice();
}

function menuChoice() { return app.menu.items[app.menu.i]; }

function sayItem(edge) {
  const m = app.menu, c = menuChoice();
  const label = isDiscard(c) && c.labels ? c.labels[markedMask()] || c.label : c.label;
  answer((edge ? edge + ' ' : '') + label + fmt(w('of'), m.i + 1, m.items.length));
}

function selectItem(i) {
  const c = app.menu.items[i];
  Object.assign(app.menu, { i, amount: c.min, amountOk: true, typing: false, typed: 0 });
}

function openMenu() {
  const items = menuOrder();
  if (!items.length) { answer(w('choose_card')); return; }
  app.menu = { items };
  selectItem(0);
  sayItem();
}

/* The amount of the item as the game phrases it, or the bare number. */
function sayAmount() {
  const c = menuChoice(), a = app.menu.amount;
  answer((c.labels && c.labels[a - c.min]) || String(a));
}

/* Whether a choice asks for Y first, as the server marks it by the rule
 * the terminal follows (docs/protocol.md): `confirm` always (going all in,
 * a fold or a pass with chips in), `confirm_from` for the amounts of a
 * range from there up (more than half one's chips). */
function risky(c, amount) {
  if (c.confirm === true) return true;
  const n = amount !== undefined ? amount : c.min;
  return c.confirm_from !== undefined && n !== undefined && n >= c.confirm_from;
}

function menuEnter() {
  const m = app.menu, c = menuChoice();
  if (hasRange(c) && !m.amountOk) { answer(fmt(w('type_amount'), c.min, c.max)); return; }
  m.typing = false;
  choose(c, hasRange(c) ? m.amount : undefined);
}

/* Play a choice (an amount of its range), or first ask for a yes when it
 * is risky: the question interrupts (the alert region) and shows Yes and No
 * buttons; from the keys, Y answers at the table (which gets the focus),
 * from a button the focus goes to Yes. */
function choose(c, amount, from) {
  if (risky(c, amount)) {
    const words = (hasRange(c) && c.labels && amount !== undefined && c.labels[amount - c.min]) || c.label;
    app.confirm = choiceAction(c, amount);
    const q = fmt(w('confirm_q'), words);
    $('confirm-q').textContent = q;
    $('confirm').hidden = false;
    alertOnly(q);
    if (from) focusTo($('confirm-yes'));
    else if (document.activeElement !== $('play')) focusTo($('play'));
    return;
  }
  act(choiceAction(c, amount));
}

function closeConfirm() {
  app.confirm = null;
  const box = $('confirm');
  if (box.hidden || app.quit) return;
  const had = box.contains(document.activeElement);
  box.hidden = true;
  if (had) focusTo($('play'));
}

/* Q or Escape at the table: leave it, after a yes (the same box). */
function askQuit() {
  askFirst(w('quit'), () => send({ type: 'leave', table: app.table }));
}

/* A question before what cannot be undone (leaving, removing a player):
 * Yes and No, the focus on Yes from a button. */
function askFirst(q, then) {
  app.quit = then;
  $('confirm-q').textContent = q;
  $('confirm').hidden = false;
  alertOnly(q);
  if (document.activeElement && document.activeElement !== $('play')) focusTo($('confirm-yes'));
}

function confirmAnswer(yes) {
  if (app.quit) {
    const then = app.quit;
    app.quit = false;
    closeConfirm();
    if (yes) then();
    else answer(w('quit_cancelled'));
    return;
  }
  const a = app.confirm;
  closeConfirm();
  if (!a) return;
  if (yes) act(a);
  else answer(w('not_done'));
}

/* The alert region, once the polite lines waiting are told and taken (an
 * assertive line makes a screen reader drop the polite ones it holds). */
function alertOnly(text) {
  const a = $('alert');
  const show = () => {
    const p = document.createElement('p');
    p.textContent = liveWords(text);
    a.append(p);
    while (a.childElementCount > 3) a.firstElementChild.remove();
    a.dataset.n = Number(a.dataset.n || 0) + 1;
  };
  sayPolite('', true);
  const wait = said.last + SAID_TAKEN_MS - Date.now();
  if (wait > 0) setTimeout(show, wait); else show();
  voiceSay(text, true);
}

function typeDigit(key, lo, hi) {
  const m = app.menu;
  m.typed = key === 'Backspace' ? (m.typing ? Math.floor(m.typed / 10) : 0) : (m.typing ? m.typed * 10 : 0) + Number(key);
  m.typing = m.typed > 0 || key !== 'Backspace';
  if (m.typed > hi) {
    answer(fmt(w('too_many'), m.typed, lo, hi));
    Object.assign(m, { typing: false, typed: 0, amountOk: false });
    return;
  }
  if (m.typed < lo) {
    m.amountOk = false;
    answer(m.typing ? String(m.typed) : fmt(w('type_amount'), lo, hi));
    return;
  }
  m.amount = m.typed;
  m.amountOk = true;
  sayAmount();
}

function menuKey(k) {
  const m = app.menu;
  if (k === 'ArrowUp' || k === 'ArrowDown') {
    const to = m.i + (k === 'ArrowDown' ? 1 : -1);
    if (to < 0 || to >= m.items.length) { sayItem(w(k === 'ArrowDown' ? 'last_choice' : 'first_choice')); return; }
    selectItem(to);
    sayItem();
    return;
  }
  if (k === 'Escape') { app.menu = null; answer(w('menu_closed')); return; }
  const c = menuChoice();
  if (!hasRange(c)) return;
  const lo = c.min, hi = c.max;
  if (/^[0-9]$/.test(k) || k === 'Backspace') { typeDigit(k, lo, hi); return; }
  /* The amount keys as the state says (a step, or the least or the most). */
  const step = cursorOf().amount[k];
  let cur = m.amountOk ? m.amount : lo;
  if (step === 'least') cur = lo;
  else if (step === 'most') cur = hi;
  else if (Number.isInteger(step)) cur += step;
  else return;
  Object.assign(m, { typing: false, typed: 0, amount: Math.min(hi, Math.max(lo, cur)), amountOk: true });
  sayAmount();
}

function enter() {
  if (!isMyTurn()) { answer(w('not_your_turn')); return; }
  if (app.menu) { menuEnter(); return; }
  /* What Enter does now, as the state says (play, discard, menu). */
  const what = cursorOf().enter;
  if (what === 'play' && app.sel >= 0) { act('play ' + app.hand[app.sel]); return; }
  const discard = choicesOf().find(isDiscard);
  if (what === 'discard' && discard) { act(choiceAction(discard)); return; }
  openMenu();
}

function mark() {
  if (app.sel < 0) return;
  /* Only when the turn leads to a discard (the server tells). */
  if (!isMyTurn() || !app.state.discard_ahead) { answer(w('no_discard')); return; }
  const c = handOf()[app.sel];
  const k = app.marked.indexOf(c.card);
  let s = c.name + ', ';
  if (k >= 0) { app.marked.splice(k, 1); s += w('to_keep'); }
  else if (app.marked.length < (cursorOf().marks ?? Infinity)) { app.marked.push(c.card); s += w('to_discard'); }
  else s += w('to_keep');
  const n = app.marked.length;
  answer(s + '. ' + fmt(wn('n_discard', n), n));
}

/* H: the hand, then the cards marked to discard. */
function sayHand() {
  const keys = (app.state && app.state.keys) || {};
  let s = keys.H || w('no_cards');
  if (app.marked.length) {
    const names = app.marked.map((c) => handOf()[app.hand.indexOf(c)].name);
    s += ' ' + fmt(w('marked_list'), names.join(', '));
  }
  answer(s);
}

/* ',' '.' ';': the messages of the game, the start and the end said. */
function historyKey(k) {
  const h = app.history;
  if (!h.length) { answer(w('no_messages')); return; }
  let edge = '';
  if (k === ',') {
    if (app.hpos <= 0) edge = w('history_start');
    app.hpos = Math.max(0, app.hpos - 1);
  } else if (k === '.') {
    if (app.hpos >= h.length - 1) edge = w('history_end');
    app.hpos = Math.min(h.length - 1, app.hpos + 1);
  } else {
    app.hpos = h.length - 1;
  }
  answer((edge ? edge + ' ' : '') + h[app.hpos]);
}

/* V: full or short announcements, phrased so by the server for this
 * session; its answer comes back as a say. */
function switchVerbosity() {
  setVerbosity(app.verbosity === 'short' ? 'full' : 'short');
}
function setVerbosity(level) {
  app.verbosity = level;
  $('opt-short').checked = level === 'short';
  if (app.table) send({ type: 'verbosity', table: app.table, level });
  saveSettings();
}

/* F1: what the server's state says F1 says now (state.f1, in the words of
 * the keymap): at the table the few keys that matter first, then all of
 * them on F1 again; in the action menu, the menu's keys (with those of an
 * amount when the item takes one). Before a game, the page's key list. */
function helpKeys() {
  const again = app.keysSaid;   /* the last key was F1: now all the keys */
  app.keysSaid = false;
  const f1 = (app.state && app.state.f1) || null;
  if (!f1) {
    answer(app.keys.map((k) => fmt(w('key_value'), k.spoken || k.keys, k.what)).join('').trim());
    return;
  }
  if (app.menu) answer((hasRange(menuChoice()) ? f1.amount : f1.menu) || f1.all);
  else if (again) answer(f1.all);
  else {
    app.keysSaid = true;
    answer(f1.brief);
  }
}

function adjust(k) {
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  if (k === '<' || k === '>') {
    app.rate = clamp(Math.round((app.rate + (k === '>' ? 0.1 : -0.1)) * 10) / 10, 0.5, 3);
    $('opt-rate').value = app.rate;
    answer(w('rate') + ' ' + app.rate);
  } else if (k === '[' || k === ']') {
    app.speechVolume = clamp(app.speechVolume + (k === ']' ? 0.1 : -0.1), 0, 1);
    $('opt-speech-volume').value = Math.round(app.speechVolume * 100);
    answer(w('speech_volume') + ' ' + Math.round(app.speechVolume * 100));
  } else {
    app.cueVolume = clamp(app.cueVolume + (k === '}' ? 0.1 : -0.1), 0, 1);
    $('opt-cue-volume').value = Math.round(app.cueVolume * 100);
    answer(w('cue_volume') + ' ' + Math.round(app.cueVolume * 100));
    cue('card', -1);
  }
  saveSettings();
}

/* The key pressed, as play.c reads it: the digits by the physical key of
 * the top row (Digit1..Digit9, Digit0), whatever the layout gives there
 * (& é " ' ( - è _ ç à on an AZERTY keyboard without Shift), unless AltGr
 * makes it another key ([ ] { } on AZERTY). */
function keyOf(e) {
  const altGr = !!(e.getModifierState && e.getModifierState('AltGraph'));
  const d = /^Digit([0-9])$/.exec(e.code || '');
  return d && !altGr ? d[1] : e.key;
}

/* One key at the table, as play.c handles it. */
function tableKey(e) {
  /* AltGr is Ctrl+Alt to some browsers: its keys ([ ] { } on AZERTY) count. */
  const altGr = !!(e.getModifierState && e.getModifierState('AltGraph'));
  if (!altGr && (e.ctrlKey || e.altKey || e.metaKey)) return;
  const k = keyOf(e);
  const up = k.length === 1 ? k.toUpperCase() : k;
  const yes = up === 'Y' || up === 'O';
  /* Tab moves the page's focus; the other function keys stay the browser's. */
  if (k === 'Tab' || k === 'Shift' || /^F([2-9]|1[0-9])$/.test(k)) return;
  e.preventDefault();
  if (app.voice && window.speechSynthesis && !',.;'.includes(k)) speechSynthesis.cancel();
  if (k !== 'F1') app.keysSaid = false;
  if (app.quit || app.confirm) {
    confirmAnswer(yes);
    return;
  }
  if (app.menu && /^(Arrow(Up|Down|Left|Right)|Page(Up|Down)|Home|End|Escape|Backspace|[0-9])$/.test(k)) {
    menuKey(k);
    renderTable();
    return;
  }
  if (k.length === 1 && 'CFRSTLNH123456789'.includes(up)) queryKey(up);
  else if (/^(Arrow(Left|Right|Up|Down)|Page(Up|Down)|Home|End)$/.test(k)) moveCursor(k);
  else if (k === 'Enter') enter();
  else if (k === ' ') mark();
  else if (k === 'F1' || k === '?') queryKey(k);
  else if (up === 'V') switchVerbosity();
  else if (k === ',' || k === '.' || k === ';') historyKey(k);
  else if (k.length === 1 && '<>[]{}'.includes(k)) adjust(k);
  else if (up === 'Q' || k === 'Escape') askQuit();
  renderTable();
}

/* ---- forms ---- */

/* The settings kept in the browser between visits. */
const SETTINGS = ['voice', 'rate', 'speechVolume', 'cues', 'cueVolume', 'large', 'verbosity', 'lobbyTalk', 'vibrate'];
function saveSettings() {
  const o = {};
  for (const k of SETTINGS) o[k] = app[k];
  try { localStorage.setItem('tapis-settings', JSON.stringify(o)); } catch (e) { /* private browsing */ }
}
function loadSettings() {
  let o = {};
  try { o = JSON.parse(localStorage.getItem('tapis-settings') || '{}') || {}; } catch (e) { o = {}; }
  for (const k of SETTINGS) if (k in o && typeof o[k] === typeof app[k]) app[k] = o[k];
  $('opt-voice').checked = app.voice;
  $('opt-rate').value = app.rate;
  $('opt-speech-volume').value = Math.round(app.speechVolume * 100);
  $('opt-cues').checked = app.cues;
  $('opt-cue-volume').value = Math.round(app.cueVolume * 100);
  $('opt-large').checked = app.large;
  $('opt-vibrate').checked = app.vibrate;
  $('opt-short').checked = app.verbosity === 'short';
  if (!['all', 'friends', 'none'].includes(app.lobbyTalk)) app.lobbyTalk = 'all';
  $('opt-lobby').value = app.lobbyTalk;
  document.body.classList.toggle('large', app.large);
}

/* Another language at any moment: the page's words at once; logged in,
 * the connection again in that language (the server phrases everything
 * in the language of the hello). */
async function switchLang(lang) {
  await loadWords(lang);
  $('login-lang').value = $('opt-lang').value = app.lang;
  const u = new URL(location.href);
  u.searchParams.set('lang', app.lang);
  history.replaceState(null, '', u);
  if (app.loggedIn) { disconnect(); connect(); }
}

/* The arrows walk a toolbar, one tab stop for the whole. */
function toolbarKeys(e) {
  const bs = [...$('queries').querySelectorAll('button')];
  const i = bs.indexOf(document.activeElement);
  if (i < 0) return;
  const to = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? Math.min(bs.length - 1, i + 1)
    : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? Math.max(0, i - 1)
      : e.key === 'Home' ? 0 : e.key === 'End' ? bs.length - 1 : -1;
  if (to < 0) return;
  e.preventDefault();
  bs.forEach((b, k) => { b.tabIndex = k === to ? 0 : -1; });
  bs[to].focus();
}

function setup() {
  loadSettings();
  const asked = new URLSearchParams(location.search).get('lang');
  const tab = savedSession(sessionStorage);
  const back = tab || savedSession(localStorage);
  let lang = asked === 'fr' || asked === 'en' ? asked : '';
  if (!lang) { try { lang = localStorage.getItem('tapis-lang') || ''; } catch (e) { lang = ''; } }
  if (!lang) lang = (navigator.language || 'en').startsWith('fr') ? 'fr' : 'en';
  $('login-lang').value = $('opt-lang').value = lang;
  if (back) $('login-name').value = back.name;
  app.lang = lang;
  /* The history of this tab, after a reload. */
  try { app.saved = JSON.parse(sessionStorage.getItem('tapis-history') || '[]') || []; } catch (e) { app.saved = []; }
  if (!Array.isArray(app.saved)) app.saved = [];
  if (!tab) app.saved = [];
  for (const x of app.saved) {
    app.history.push(x.text);
    logLine(x.text, x.kind, 'old');
  }
  app.hpos = app.history.length;
  loadWords(lang).then(() => {
    /* A guest comes back by the token (a reload, the browser closed). */
    if (tab && !app.ws) {
      app.name = back.name;
      app.token = back.token;
      app.fresh = true;
      connect();
    }
  });
  const remember = (l) => { try { localStorage.setItem('tapis-lang', l); } catch (e) { /* */ } };
  $('login-lang').onchange = () => { remember($('login-lang').value); switchLang($('login-lang').value); };
  $('opt-lang').onchange = () => { remember($('opt-lang').value); switchLang($('opt-lang').value); };
  $('login-form').onsubmit = (e) => {
    e.preventDefault();
    audioStart();
    const name = $('login-name').value.trim();
    app.token = back && back.name === name ? back.token : '';
    app.name = name;
    app.password = $('login-password').value;
    app.lang = $('login-lang').value;
    app.fresh = true;
    disconnect();
    connect();
  };
  $('create-game').onchange = renderCreateGame;
  $('create-players').onchange = renderCreateSeats;
  $('create-form').onsubmit = (e) => {
    e.preventDefault();
    audioStart();
    const n = Number($('create-players').value);
    const rules = {};
    for (const el of $('create-rules').querySelectorAll('[data-rule]')) rules[el.dataset.rule] = el.value.trim();
    const seats = [];
    for (let s = 0; s < n; s++) seats.push($('seat-' + s).value);
    const msg = { type: 'create', game: $('create-game').value, players: n, rules, seats };
    if ($('create-private').checked) { msg.private = true; msg.password = $('create-password').value; }
    send(msg);
  };
  const chat = (form, input, table) => {
    $(form).onsubmit = (e) => {
      e.preventDefault();
      const text = $(input).value.trim();
      if (!text) return;
      const m = { type: 'chat', text };
      if (table()) m.table = table();
      send(m);
      $(input).value = '';
    };
  };
  chat('lobby-chat', 'lobby-chat-text', () => 0);
  chat('table-chat', 'table-chat-text', () => app.table);
  /* Escape in a chat line: back to the table (in the lobby, to its heading). */
  $('table-chat-text').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.preventDefault(); focusTo($('play')); }
  });
  $('lobby-chat-text').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.preventDefault(); focusTo($('lobby-h')); }
  });
  $('btn-start').onclick = () => { audioStart(); send({ type: 'start', table: app.table }); };
  $('btn-stand').onclick = () => send({ type: 'stand', table: app.table });
  $('btn-sit').onclick = () => send({ type: 'sit', table: app.table });
  /* Leaving a game under way asks first, as Q does. */
  $('btn-leave').onclick = () => {
    if (app.state && app.state.state === 'playing' && app.seat >= 0) askFirst(w('quit'), () => send({ type: 'leave', table: app.table }));
    else send({ type: 'leave', table: app.table });
  };
  for (const id of ['btn-hist-prev', 'btn-hist-next', 'btn-hist-last']) $(id).onclick = () => historyKey($(id).dataset.key);
  $('to-hand').onclick = (e) => { e.preventDefault(); toHand(); };
  $('to-table').onclick = (e) => { e.preventDefault(); focusTo($('play')); };
  $('opt-vibrate').onchange = (e) => { app.vibrate = e.target.checked; saveSettings(); };
  $('btn-rematch').onclick = () => { send({ type: 'rematch', table: app.table }); $('btn-rematch').hidden = true; focusTo($('play')); };
  $('btn-invite').onclick = () => {
    const name = window.prompt(w('invite_name'));
    if (name) send({ type: 'invite', table: app.table, name: name.trim() });
  };
  $('confirm-yes').onclick = () => confirmAnswer(true);
  $('confirm-no').onclick = () => confirmAnswer(false);
  $('queries').addEventListener('keydown', toolbarKeys);
  $('play').addEventListener('keydown', tableKey);
  /* On a touch screen the table's box, touched, says whose turn it is (the
   * prompt on one's turn) and the last answer, from "Table now"; with keys
   * its description stays the keys' introduction, said once at the focus
   * (a description that changes under the focus is said again). */
  if (window.matchMedia && matchMedia('(pointer: coarse)').matches)
    $('play').setAttribute('aria-describedby', 'view-turn view-answer');
  $('opt-voice').onchange = (e) => { app.voice = e.target.checked; saveSettings(); };
  $('opt-cues').onchange = (e) => { app.cues = e.target.checked; audioStart(); saveSettings(); };
  $('opt-rate').oninput = (e) => { app.rate = Number(e.target.value); saveSettings(); };
  $('opt-speech-volume').oninput = (e) => { app.speechVolume = Number(e.target.value) / 100; saveSettings(); };
  $('opt-cue-volume').oninput = (e) => { app.cueVolume = Number(e.target.value) / 100; saveSettings(); };
  $('opt-short').onchange = (e) => setVerbosity(e.target.checked ? 'short' : 'full');
  $('opt-lobby').onchange = (e) => { app.lobbyTalk = e.target.value; saveSettings(); };
  /* The lobby's pages and filter: asked of the server. */
  const lobbyQuery = (page) => send({ type: 'lobby_query', page, filter: $('table-filter').value.slice(0, 32) });
  let filterTimer = 0;
  $('table-filter').addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => lobbyQuery(0), 300);
  });
  $('tables-prev').onclick = () => lobbyQuery(Math.max((app.lobby.page || 0) - 1, 0));
  $('tables-next').onclick = () => lobbyQuery((app.lobby.page || 0) + 1);
  $('opt-large').onchange = (e) => {
    app.large = e.target.checked;
    document.body.classList.toggle('large', app.large);
    saveSettings();
  };
  $('lobby-h').tabIndex = -1;
  $('login-h').tabIndex = -1;
  show('login');
}

window.tapis = app;   /* for the browser tests */
window.tapisSaid = said;
window.tapisSeatPan = seatPan;
document.addEventListener('DOMContentLoaded', setup);
