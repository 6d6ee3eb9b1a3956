/* tapis: the web page. It speaks the protocol of docs/protocol.md over a
 * WebSocket, holds no sentence of the games (every announcement and every
 * answer to a key comes from the server in the player's language) and takes
 * its own few words from GET /words. Announcements go to a live region,
 * key answers to an assertive one; an optional built-in voice speaks both;
 * sound cues are played from /sounds/, panned by seat. No framework. */
'use strict';

const $ = (id) => document.getElementById(id);

const app = {
  ws: null, lang: 'en', words: {}, keys: [], games: [],
  name: '', password: '', token: '', loggedIn: false,
  lobby: { users: [], tables: [] },
  table: 0, seat: -1, state: null,
  sel: -1, marked: [], menu: null, quit: false,
  history: [], hpos: -1,
  voice: false, rate: 1, speechVolume: 1, cues: true, cueVolume: 0.8,
  audio: null, buffers: {},
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

/* An announcement: a new element in the log (two equal messages are two
 * elements, both read), assertive when urgent; kept in the history. */
function announce(text, kind, urgent) {
  if (!text) return;
  const log = $('log');
  log.setAttribute('aria-live', urgent ? 'assertive' : 'polite');
  const p = document.createElement('p');
  p.textContent = text;
  p.dataset.kind = kind;
  if (urgent) p.className = 'urgent';
  if (kind === 'chat') p.className = 'chat';
  log.append(p);
  while (log.childElementCount > 300) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
  app.history.push(text);
  if (app.history.length > 300) app.history.shift();
  app.hpos = app.history.length;
  voiceSay(text, urgent);
}

/* The answer to a key: said at once (assertive), not kept in the history. */
function answer(text) {
  if (!text) return;
  const a = $('answers');
  const p = document.createElement('p');
  p.textContent = text;
  a.append(p);
  while (a.childElementCount > 5) a.firstElementChild.remove();
  $('view-answer').textContent = text;
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
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(o));
}

function connect() {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
  const ws = new WebSocket(url, 'tapis');
  app.ws = ws;
  ws.onopen = () => {
    const hello = { type: 'hello', version: 1, name: app.name, lang: app.lang };
    if (app.password) hello.password = app.password;
    else if (app.token) hello.token = app.token;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    const f = handlers[m.type];
    if (f) f(m);
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.ws = null;
    if (app.loggedIn) {
      announce(w('lost'), 'system', true);
      setTimeout(connect, 2000);
    }
  };
}

const errorWords = { password: 'err_password', name_in_use: 'err_name_in_use', wait: 'err_wait' };

const handlers = {
  welcome(m) {
    const again = app.loggedIn;
    app.loggedIn = true;
    app.token = m.token;
    app.name = m.name;
    try { sessionStorage.setItem('tapis', JSON.stringify({ name: m.name, token: m.token, lang: app.lang })); }
    catch (e) { /* private browsing */ }
    if (again) announce(w('back'), 'system', false);
    if (!app.table) show('lobby');
  },
  lobby(m) { app.lobby = m; renderLobby(); renderTable(); },
  created() {},
  joined(m) {
    app.table = m.table;
    app.seat = m.seat;
    app.state = null;
    app.sel = -1;
    app.marked = [];
    app.menu = null;
    show('table');
    renderTable();
    $('play').focus();
  },
  left(m) {
    if (m.table !== app.table) return;
    app.table = 0;
    app.state = null;
    show('lobby');
    $('lobby-h').focus();
  },
  say(m) { sayMsg(m); },
  missed(m) {
    for (const x of m.says || []) (x.type === 'chat' ? handlers.chat : sayMsg)(x);
  },
  state(m) {
    if (m.table !== app.table) return;
    const before = app.state;
    app.state = m;
    app.seat = m.seat;
    if (!before || before.seq !== m.seq) app.menu = null;
    const hand = m.hand || [];
    app.marked = app.marked.filter((c) => hand.some((h) => h.card === c));
    if (app.sel >= hand.length) app.sel = hand.length - 1;
    if (app.sel < 0 && hand.length) app.sel = 0;
    /* A turn begins on a card that can be played. */
    if (isMyTurn() && hand.length && !hand[app.sel].playable) {
      const i = hand.findIndex((h) => h.playable);
      if (i >= 0) app.sel = i;
    }
    renderTable();
  },
  refused(m) {
    announce(m.text, 'refused', true);
    cue(m.cue || 'illegal', app.seat);
  },
  chat(m) {
    announce(fmt(w('chat_from'), m.from, m.text), 'chat', false);
    cue('chat', -1);
  },
  error(m) {
    const text = errorWords[m.code] ? w(errorWords[m.code]) : fmt(w('refused'), m.message);
    announce(text, 'error', true);
    cue('illegal', -1);
    if (!app.loggedIn && app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
  },
  pong() {},
};

function sayMsg(m) {
  const urgent = m.cue === 'your_turn';
  announce(m.text, 'say', urgent);
  if (m.cue) cue(m.cue, typeof m.from === 'number' ? m.from : -1);
}

/* ---- the lobby ---- */

function show(which) {
  $('login').hidden = which !== 'login';
  $('lobby').hidden = which !== 'lobby';
  $('table').hidden = which !== 'table';
  $('keys').hidden = which !== 'table';
}

function gameOf(name) { return app.games.find((g) => g.name === name); }
function currentTable() { return app.lobby.tables.find((t) => t.id === app.table); }

function tableLine(t) {
  const g = gameOf(t.game);
  const title = g ? g.title : t.game;
  const open = t.seats.filter((s) => s.state === 'open').length;
  let s = fmt(w('table_' + t.state), t.id, title, t.players, open);
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
  if (!t.private) return undefined;
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
      li.append(button(w('sit'), () => send({ type: 'sit', table: t.id, password: tablePassword(t) }), span.id));
      li.append(' ');
      li.append(button(w('watch'), () => send({ type: 'watch', table: t.id, password: tablePassword(t) }), span.id));
    }
    ul.append(li);
  }
  if (!app.lobby.tables.length) {
    const li = document.createElement('li');
    li.textContent = w('no_tables');
    ul.append(li);
  }
  const on = $('online');
  on.textContent = '';
  for (const u of app.lobby.users) {
    const li = document.createElement('li');
    li.textContent = u.guest ? u.name + ' (' + w('guest') + ')' : u.name;
    on.append(li);
  }
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

/* ---- the table ---- */

function isMyTurn() {
  const st = app.state;
  return !!st && st.state === 'playing' && st.seat >= 0 && st.to_act === st.seat;
}

function renderTable() {
  const t = currentTable();
  const st = app.state;
  $('table-h').textContent = t ? tableLine(t) : app.table ? fmt(w('table_n'), app.table) : '';
  $('btn-start').hidden = !(t && t.creator === app.name && t.state === 'waiting');
  $('btn-stand').hidden = app.seat < 0;
  $('btn-sit').hidden = app.seat >= 0 || !t || t.state === 'over';
  const seats = $('seats');
  seats.textContent = '';
  for (const s of (t && t.seats) || []) {
    const li = document.createElement('li');
    li.textContent = s.state === 'open' ? fmt(w('seat_free'), s.seat + 1)
      : s.name ? fmt(w('seat_player'), s.seat + 1, s.name) : fmt(w('seat_bot'), s.seat + 1, s.level);
    seats.append(li);
  }
  const keys = (st && st.keys) || {};
  $('view-turn').textContent = keys.T || '';
  $('view-cards').textContent = keys.C || '';
  const hand = $('view-hand');
  hand.textContent = '';
  ((st && st.hand) || []).forEach((c, i) => {
    const li = document.createElement('li');
    li.textContent = c.name;
    const cls = [];
    if (isMyTurn() && !c.playable) cls.push('unplayable');
    if (i === app.sel) cls.push('selected');
    if (app.marked.includes(c.card)) cls.push('marked');
    li.className = cls.join(' ');
    hand.append(li);
  });
  const ch = $('choices');
  ch.textContent = '';
  for (const c of (isMyTurn() && st.choices) || []) {
    const li = document.createElement('li');
    li.append(button(c.label, () => act(choiceAction(c, undefined))));
    ch.append(li);
  }
}

function act(text) {
  send({ type: 'action', table: app.table, action: text });
}

/* The words of a choice, with an amount typed or with the marked cards. */
function choiceAction(c, amount) {
  if (/^discard\b/.test(c.action) && !/\s/.test(c.action))
    return app.marked.length ? 'discard ' + app.marked.join(' ') : 'discard';
  if (amount !== undefined && c.min !== undefined) return c.action.replace(/\d+$/, String(amount));
  return c.action;
}

function selectedName() {
  const hand = (app.state && app.state.hand) || [];
  if (app.sel < 0 || !hand[app.sel]) return w('no_cards');
  const c = hand[app.sel];
  return app.marked.includes(c.card) ? c.name + ', ' + w('to_discard') : c.name;
}

function suitOf(card) { return card.slice(-1); }

function moveSuit(dir) {
  const hand = (app.state && app.state.hand) || [];
  if (app.sel < 0 || !hand.length) return;
  const suit = suitOf(hand[app.sel].card);
  let i = app.sel;
  if (dir > 0) {
    while (i < hand.length && suitOf(hand[i].card) === suit) i++;
    if (i >= hand.length) i = 0;
  } else {
    while (i > 0 && suitOf(hand[i].card) === suit) i--;
    if (suitOf(hand[i].card) === suit) i = hand.length - 1;
    const s2 = suitOf(hand[i].card);
    while (i > 0 && suitOf(hand[i - 1].card) === s2) i--;
  }
  app.sel = i;
}

function sayItem() {
  const m = app.menu;
  const c = m.items[m.i];
  let label = c.label;
  if (m.amount !== undefined && m.amount !== c.min) label = String(m.amount);
  answer(label + fmt(w('of'), m.i + 1, m.items.length));
}

function enter() {
  const st = app.state;
  if (!isMyTurn()) { answer(w('not_your_turn')); return; }
  const hand = st.hand || [];
  if (app.menu) {
    const c = app.menu.items[app.menu.i];
    act(choiceAction(c, app.menu.amount));
    app.menu = null;
    return;
  }
  if (app.sel >= 0 && hand.some((h) => h.playable)) {
    act('play ' + hand[app.sel].card);
    return;
  }
  /* The menu holds what is not playing a card (as the terminal's). */
  const choices = (st.choices || []).filter((c) => !/^play /.test(c.action));
  if (choices.length === 1 && /^discard/.test(choices[0].action)) {
    act(choiceAction(choices[0]));
    app.marked = [];
    return;
  }
  if (!choices.length) { answer(w('choose_card')); return; }
  app.menu = { items: choices, i: 0, amount: undefined, typing: false };
  sayItem();
}

/* Keys of the action menu; true when the key was the menu's. */
function menuKey(e) {
  const m = app.menu;
  const c = m.items[m.i];
  if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    m.i = (m.i + (e.key === 'ArrowDown' ? 1 : m.items.length - 1)) % m.items.length;
    m.amount = undefined;
    m.typing = false;
    sayItem();
    return true;
  }
  if (e.key === 'Escape') { app.menu = null; answer(w('menu_closed')); return true; }
  if (c.min === undefined) return false;
  const lo = c.min, hi = c.max;
  let cur = m.amount === undefined ? lo : m.amount;
  const digit = /^[0-9]$/.test(e.key);
  if (e.key === 'ArrowRight') cur++;
  else if (e.key === 'ArrowLeft') cur--;
  else if (e.key === 'PageUp') cur += 10;
  else if (e.key === 'PageDown') cur -= 10;
  else if (e.key === 'Home') cur = lo;
  else if (e.key === 'End') cur = hi;
  else if (e.key === 'Backspace') cur = m.typing ? Math.floor(cur / 10) : 0;
  else if (digit) cur = (m.typing ? cur * 10 : 0) + Number(e.key);
  else return false;
  m.typing = digit || (e.key === 'Backspace' && m.typing);
  if (m.typing && cur > hi) cur = Number(e.key);
  if (!m.typing) cur = Math.min(hi, Math.max(lo, cur));
  m.amount = cur;
  answer(String(cur));
  return true;
}

function mark() {
  const hand = (app.state && app.state.hand) || [];
  if (app.sel < 0 || !hand[app.sel]) return;
  const c = hand[app.sel];
  const k = app.marked.indexOf(c.card);
  let s = c.name + ', ';
  if (k >= 0) { app.marked.splice(k, 1); s += w('to_keep'); }
  else { app.marked.push(c.card); s += w('to_discard'); }
  const n = app.marked.length;
  const one = app.lang === 'fr' ? n <= 1 : n === 1;
  answer(s + '. ' + fmt(w(one ? 'n_discard_1' : 'n_discard_n'), n));
}

function historyKey(k) {
  if (!app.history.length) return;
  if (k === ',') app.hpos = Math.max(0, app.hpos - 1);
  else if (k === '.') app.hpos = Math.min(app.history.length - 1, app.hpos + 1);
  else app.hpos = app.history.length - 1;
  answer(app.history[app.hpos]);
}

function helpKeys() {
  const when = 1 | (app.menu ? 4 : 0) | (isMyTurn() ? 2 : 0);
  answer(app.keys.filter((k) => k.when & when).map((k) => fmt(w('key_value'), k.keys, k.what)).join('').trim());
}

function adjust(k) {
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  if (k === '+' || k === '-') {
    app.rate = clamp(Math.round((app.rate + (k === '+' ? 0.1 : -0.1)) * 10) / 10, 0.5, 3);
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
}

/* The table's keys, as in the terminal. */
function tableKey(e) {
  if (e.ctrlKey || e.altKey || e.metaKey) return;
  const k = e.key;
  const st = app.state;
  if (app.voice && window.speechSynthesis) speechSynthesis.cancel();
  if (app.quit) {
    app.quit = false;
    e.preventDefault();
    if (k === 'y' || k === 'Y' || k === 'o' || k === 'O') send({ type: 'leave', table: app.table });
    else answer(w('quit_cancelled'));
    return;
  }
  if (app.menu && menuKey(e)) { e.preventDefault(); return; }
  const up = k.length === 1 ? k.toUpperCase() : k;
  const keys = (st && st.keys) || {};
  const hand = (st && st.hand) || [];
  let done = true;
  if ('CFRST123456789'.includes(up) && up.length === 1) answer(keys[up] || '');
  else if (up === 'H') answer(keys.H || w('no_cards'));
  else if (k === 'ArrowLeft' || k === 'ArrowRight') {
    if (hand.length) app.sel = (app.sel + (k === 'ArrowRight' ? 1 : hand.length - 1)) % hand.length;
    answer(selectedName());
  } else if (k === 'ArrowUp' || k === 'ArrowDown') { moveSuit(k === 'ArrowDown' ? 1 : -1); answer(selectedName()); }
  else if (k === 'Home' || k === 'End') {
    if (hand.length) app.sel = k === 'Home' ? 0 : hand.length - 1;
    answer(selectedName());
  } else if (k === 'Enter') enter();
  else if (k === ' ') mark();
  else if (k === 'F1' || k === '?') helpKeys();
  else if (k === ',' || k === '.' || k === ';') historyKey(k);
  else if ('+-[]{}'.includes(k) && k.length === 1) adjust(k);
  else if (up === 'Q') { app.quit = true; answer(w('quit')); }
  else if (k === 'Escape') answer('');
  else done = false;
  if (done) { e.preventDefault(); renderTable(); }
}

/* ---- forms ---- */

function setup() {
  let saved = {};
  try { saved = JSON.parse(sessionStorage.getItem('tapis') || '{}'); } catch (e) { saved = {}; }
  const lang = saved.lang || ((navigator.language || 'en').startsWith('fr') ? 'fr' : 'en');
  $('login-lang').value = lang;
  if (saved.name) $('login-name').value = saved.name;
  app.token = saved.name ? saved.token || '' : '';
  loadWords(lang);
  $('login-lang').onchange = () => loadWords($('login-lang').value);
  $('login-form').onsubmit = (e) => {
    e.preventDefault();
    audioStart();
    const name = $('login-name').value.trim();
    if (name !== saved.name) app.token = '';
    app.name = name;
    app.password = $('login-password').value;
    app.lang = $('login-lang').value;
    if (app.ws) { app.ws.onclose = null; app.ws.close(); }
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
  $('btn-start').onclick = () => send({ type: 'start', table: app.table });
  $('btn-stand').onclick = () => send({ type: 'stand', table: app.table });
  $('btn-sit').onclick = () => send({ type: 'sit', table: app.table });
  $('btn-leave').onclick = () => send({ type: 'leave', table: app.table });
  $('play').addEventListener('keydown', tableKey);
  $('opt-voice').onchange = (e) => { app.voice = e.target.checked; };
  $('opt-cues').onchange = (e) => { app.cues = e.target.checked; audioStart(); };
  $('opt-rate').oninput = (e) => { app.rate = Number(e.target.value); };
  $('opt-speech-volume').oninput = (e) => { app.speechVolume = Number(e.target.value) / 100; };
  $('opt-cue-volume').oninput = (e) => { app.cueVolume = Number(e.target.value) / 100; };
  $('opt-large').onchange = (e) => { document.body.classList.toggle('large', e.target.checked); };
  $('lobby-h').tabIndex = -1;
  show('login');
}

window.tapis = app;   /* for the browser tests */
window.tapisSeatPan = seatPan;
document.addEventListener('DOMContentLoaded', setup);
