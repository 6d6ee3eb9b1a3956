#!/usr/bin/env node
/* The web page through Orca (started by tests/sr/run.sh, inside a D-Bus
 * session, on an Xvfb display of its own). Here: speech-dispatcher with its
 * dummy module, Orca with a debug file, `tapis serve` on a free port,
 * Debian's Chromium shown on the display (not headless) with the renderer's
 * accessibility on. Every key of play goes through the X server (xdotool),
 * as a person's would; what Orca spoke is read from its debug log
 * ("SPEECH OUTPUT:" lines). The page is driven by script only to fill the
 * lobby's form; its state is read to know when to press the next key.
 *
 * 1. Arrivals: "Lobby: N tables, N people." on logging in; "Table N,
 *    GAME, N players. Start when ready." on making a table.
 * 2. A deal of each of the five games played by keys alone (Enter, the
 *    arrows, Y), Orca left in the mode it chooses by itself.
 * 3. Every line the server sent is spoken once, in the server's order (a
 *    burst of lines, the turn prompt last, included).
 * 4. A key pressed as a burst arrives (H) loses nothing of the burst.
 * 5. A refusal of the server (a card that may not be played) is spoken
 *    once.
 * 6. A key pressed twice (H, once its answer is said) is answered twice.
 *
 * Usage: tests/sr/run.sh [BUILD] (from the top of the tree); TAPIS_SR_KEEP=1
 * keeps Orca's log (its path said at the end); TAPIS_SR_ONLY=GAME plays only
 * that game; TAPIS_SR_WEB=DIR serves another page (another tree's src/web,
 * to see this test fail on it). */
'use strict';

const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const assert = require('assert');

const top = path.resolve(__dirname, '..', '..');
const build = path.resolve(top, process.argv[2] || 'build');
const tapis = path.join(build, 'tapis');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const dir = process.env.TAPIS_SR_DIR;
const puppeteer = require(path.join(top, 'tests', 'web', 'node_modules', 'puppeteer-core'));

const children = [];
function cleanup() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}
process.on('exit', cleanup);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start(cmd, args, env, name) {
  const out = fs.openSync(path.join(dir, name + '.out'), 'w');
  const c = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  children.push(c);
  return c;
}

async function until(what, f, ms) {
  const end = Date.now() + (ms || 10000);
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out: ' + what);
    await sleep(50);
  }
}

/* ---- speech-dispatcher and Orca ---- */

const sd = path.join(dir, 'sd');
const speechdAddress = 'unix_socket:' + path.join(sd, 'socket');
function startSpeechd() {
  fs.mkdirSync(sd);
  /* The dummy module alone: Orca speaks, nothing is heard. */
  fs.writeFileSync(path.join(sd, 'speechd.conf'), 'AddModule "dummy" "sd_dummy" ""\nDefaultModule dummy\nAudioOutputMethod "libao"\n');
  start('speech-dispatcher', ['-s', '-t', '0', '-C', sd, '-S', path.join(sd, 'socket'), '-L', sd], {}, 'speechd');
  return until('speech-dispatcher listens', () => fs.existsSync(path.join(sd, 'socket')));
}

const orcaLog = path.join(dir, 'orca.log');
function startOrca() {
  const prefs = path.join(dir, 'orca');
  fs.mkdirSync(prefs);
  /* Orca's defaults but the echo of typed keys (not what is tested here). */
  fs.writeFileSync(path.join(prefs, 'user-settings.conf'), JSON.stringify({
    general: { enableKeyEcho: false, enableEchoByCharacter: false, enableEchoByWord: false },
    profiles: { default: { profile: ['Default', 'default'] } }, pronunciations: {}, keybindings: {},
  }));
  /* Orca itself, its debug file written line by line (else what it spoke
   * reaches the file only when a buffer fills), without the details of
   * every object an event names: each asks Chromium a dozen questions over
   * the bus, and makes Orca fall far behind on a busy machine (what it
   * speaks, queues and takes is still written). */
  const lineByLine = 'import builtins, sys\n' +
    'o = builtins.open\n' +
    'builtins.open = lambda f, m="r", *a, **k: o(f, m, 1) if f == ' + JSON.stringify(orcaLog) + ' else o(f, m, *a, **k)\n' +
    'from orca import debug\n' +
    'debug.printDetails = lambda *a, **k: None\n' +
    'sys.argv[0] = "orca"\n' +
    'exec(compile(o("/usr/bin/orca").read(), "/usr/bin/orca", "exec"))\n';
  start('/usr/bin/python3', ['-c', lineByLine, '-u', prefs, '--debug-file=' + orcaLog], { SPEECHD_ADDRESS: speechdAddress }, 'orca');
  return until('Orca starts', () => spoken().some((s) => /Screen reader on/.test(s.text)), 30000).then(first);
}

/* Orca's log, read as it grows: what it spoke ({at, text} in order) and
 * the events of the accessibility bus it queued, took and dropped. */
const { StringDecoder } = require('string_decoder');
const log = { at: 0, rest: '', decoder: new StringDecoder('utf8'), spoken: [], queued: 0, taken: 0, pruned: 0 };
function readLog() {
  let fd;
  try { fd = fs.openSync(orcaLog, 'r'); } catch (e) { return; }
  try {
    const size = fs.fstatSync(fd).size;
    if (size <= log.at) return;
    const b = Buffer.alloc(size - log.at);
    fs.readSync(fd, b, 0, b.length, log.at);
    log.at = size;
    const lines = (log.rest + log.decoder.write(b)).split('\n');
    log.rest = lines.pop();
    for (const l of lines) {
      if (l.includes(' - EVENT MANAGER: Queueing ')) log.queued++;
      else if (l.includes(' - EVENT MANAGER: Dequeued ')) log.taken++;
      else {
        let m = / - EVENT MANAGER: (\d+) events pruned/.exec(l);
        if (m) log.pruned += Number(m[1]);
        m = /^(\d\d):(\d\d):(\d\d\.\d+) - SPEECH OUTPUT: '(.*?)'(?:\s*\[?\{.*)?$/.exec(l);
        if (m) log.spoken.push({ at: (Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3]), text: m[4] });
      }
    }
  } finally { fs.closeSync(fd); }
}
function spoken() {
  readLog();
  return log.spoken;
}
let mark = 0;
/* What Orca spoke since the last call. */
function heardSince() {
  const s = spoken();
  const got = s.slice(mark);
  mark = s.length;
  return got.map((x) => x.text);
}
/* A sentence Orca must speak; when it does not, the part goes on and
 * fails at its end (what follows is tested too). */
const missing = [];
function waitHeard(re, what, ms) {
  return until(what + ' (Orca spoke: ' + JSON.stringify(spoken().slice(mark).map((x) => x.text)) + ')',
    () => spoken().slice(mark).some((x) => re.test(x.text)), ms || 20000).catch((e) => { missing.push(e.message); });
}

/* Orca has caught up: no event of the accessibility bus waits in its
 * queue (its log says what it queues and what it takes), as a person
 * waits for the speech to end before the next key. Orca takes the events
 * in turn; with more than 50 waiting it drops the text changes outside
 * the focus, the live regions' among them, when a focus or selection
 * event comes (its "flood" pruning): keys sent into a backlog make it so. */
async function quiet(most = 20000) {
  const end = Date.now() + most;
  let calm = 0;
  while (Date.now() < end) {
    readLog();
    calm = log.queued - log.taken - log.pruned <= 1 ? calm + 1 : 0;
    if (calm >= 4) return;
    await sleep(50);
  }
}

/* The screen reader and what it listens to (the accessibility bus, its
 * registry) get the processor first, as a desktop gives them, when we may
 * (root): on a machine busy with other work Orca falls behind the page
 * otherwise. Every process of this D-Bus session but Chromium's. */
function first() {
  const ppid = (pid) => {
    try { return Number(fs.readFileSync('/proc/' + pid + '/stat', 'utf8').replace(/^.*\) /, '').split(' ')[1]); } catch (e) { return 0; }
  };
  const top = process.ppid;
  for (const d of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    let comm = '';
    try { comm = fs.readFileSync('/proc/' + d + '/comm', 'utf8').trim(); } catch (e) { continue; }
    if (/chrom/i.test(comm) || Number(d) === process.pid) continue;
    let p = Number(d), hops = 0;
    while (p > 1 && p !== top && hops++ < 8) p = ppid(p);
    if (p !== top) continue;
    try { execFileSync('renice', ['-n', '-10', '-p', d], { stdio: 'ignore' }); } catch (e) { return; }
  }
}

/* ---- X keys ---- */

function xdo(...args) { return execFileSync('xdotool', args, { encoding: 'utf8' }).trim(); }
const key = (...ks) => xdo('key', '--delay', '40', ...ks);
/* A click of the X mouse on an element of the page (the keyboard's focus
 * goes into the page, as a person's click puts it). */
async function clickOn(page, sel) {
  const at = await page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(window.screenX + (window.outerWidth - window.innerWidth) / 2 + r.x + Math.min(r.width / 2, 20)),
      y: Math.round(window.screenY + window.outerHeight - window.innerHeight + r.y + r.height / 2) };
  });
  xdo('mousemove', '--sync', String(at.x), String(at.y));
  xdo('click', '1');
}

/* ---- the server and the browser ---- */

function startServer() {
  return new Promise((resolve, reject) => {
    const srv = spawn(tapis, ['serve', '--host', '127.0.0.1', '--port', '0', '--db', path.join(dir, 'server.db'),
      '--web', path.resolve(top, process.env.TAPIS_SR_WEB || 'src/web'), '--bot-delay', '0', '--seed', '5'],
    { env: { ...process.env, TAPIS_DATADIR: top, TAPIS_LOCALEDIR: path.join(build, 'locale') },
      stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(srv);
    let err = '';
    srv.stderr.on('data', (d) => {
      err += d;
      const m = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolve(Number(m[1]));
    });
    srv.on('exit', (code) => reject(new Error('tapis serve ended (' + code + '): ' + err)));
    setTimeout(() => reject(new Error('tapis serve did not start: ' + err)), 10000);
  });
}

/* Every say the server sent the page, in order, with the number of the
 * WebSocket message and whether it was the turn's prompt (urgent). */
async function spy(page) {
  await page.evaluateOnNewDocument(() => {
    window.__says = [];
    window.__answers = [];
    window.__keys = [];
    window.addEventListener('keydown', (ev) => window.__keys.push({ key: ev.key, at: performance.now() }), true);
    let seen = null;
    new MutationObserver(() => {
      const a = document.querySelector('#answers');
      const p = a && a.lastElementChild;
      if (p && p !== seen) window.__answers.push(p.textContent);
      seen = p || seen;
    }).observe(document, { childList: true, subtree: true });
    const Orig = window.WebSocket;
    window.WebSocket = function (url, proto) {
      const ws = new Orig(url, proto);
      ws.addEventListener('message', (ev) => {
        try {
          const m = JSON.parse(ev.data);
          if (['say', 'notice', 'welcome', 'joined'].includes(m.type) && m.text)
            window.__says.push({ text: m.text, urgent: !!m.urgent, at: performance.now() });
          if (m.type === 'refused') window.__says.push({ text: m.text, refused: true, at: performance.now() });
        } catch (e) { /* not ours */ }
      });
      return ws;
    };
    window.WebSocket.prototype = Orig.prototype;
    Object.assign(window.WebSocket, { OPEN: Orig.OPEN, CLOSED: Orig.CLOSED, CONNECTING: Orig.CONNECTING });
  });
}

const state = (page) => page.evaluate(() => {
  const s = window.tapis.state;
  return s && { state: s.state, turn: s.state === 'playing' && !!s.my_turn, moves: s.moves,
    hand: (s.hand || []).map((h) => h.playable), sel: window.tapis.sel, menu: !!window.tapis.menu,
    confirm: !!window.tapis.confirm, choices: (s.choices || []).length };
});

/* One key through the X server; the page is seen to take it (the state
 * moves on, a menu opens, a question comes) within a few seconds, else the
 * key never reached the page. */
async function keyTaken(page, k, before) {
  key(k);
  await until('the page takes ' + k + ' (the screen reader kept it)', async () => {
    const st = await state(page);
    return st && (st.moves !== before.moves || st.state !== before.state || st.menu !== before.menu ||
      st.confirm !== before.confirm || st.sel !== before.sel);
  }, 8000);
}

/* A deal by keys alone: on each turn, Enter on the selected card (the page
 * selects a playable one) or Enter in the menu (its first, safest, item),
 * Y to a question. Once, on a turn with a card that may not be played, the
 * arrows go to it and Enter sends it: the server refuses. Once, H as the
 * next burst comes. */
async function playDeal(page, game, checks) {
  const end = Date.now() + 90000;
  let moves = 0;
  for (;;) {
    assert.ok(Date.now() < end, game + ': the deal ends in time');
    const st = await state(page);
    if (st && st.state === 'over') return moves;
    if (!st || !st.turn) { await sleep(50); continue; }
    /* As a person does: the turn's prompt heard before the next key (it
     * comes last, after what happened before it). */
    const prompt = await page.evaluate(() => { const u = window.__says.filter((x) => x.urgent).pop(); return u ? u.text : ''; });
    if (prompt && prompt !== checks.prompted) {
      await until('the prompt "' + prompt + '" is spoken', () => spoken().slice(checks.keyMark || 0).some((x) => x.text.includes(prompt)), 20000)
        .catch((e) => { missing.push(e.message); });
      checks.prompted = prompt;
    }
    await quiet();
    checks.keyMark = spoken().length;
    if (st.confirm) { await keyTaken(page, 'y', st); continue; }
    const bad = st.hand.indexOf(false);
    if (checks.refusal && bad >= 0 && st.hand.includes(true)) {
      checks.refusal = false;
      key('Home', 'Home');
      for (let i = 0; i < bad; i++) key('Right');
      await until('the arrows select the card', async () => (await state(page)).sel === bad, 5000);
      const n = await page.evaluate(() => window.__says.length);
      key('Return');
      const refusal = await until('the server refuses', () => page.evaluate((k) =>
        window.__says.slice(k).find((x) => x.refused), n), 8000);
      checks.refused = refusal.text;
      checks.refusedIn = game;
      /* Heard before the next key, as a person waits for it. */
      await until('the refusal is spoken', () => spoken().slice(checks.keyMark).some((x) => x.text.includes(refusal.text)), 20000)
        .catch(() => {});
      continue;
    }
    if (checks.twice && st.hand.length > 1) {
      /* H, and once its answer is said, H again: the same words told
       * twice are spoken twice (Orca drops a live line of the words of
       * the one before it, taken for the same change told again). */
      checks.twice = false;
      checks.twiceIn = game;
      const texts = [];
      for (let k = 0; k < 2; k++) {
        const n = await page.evaluate(() => window.__answers.length);
        key('h');
        texts.push(await until('the page answers H', () => page.evaluate((i) => window.__answers[i], n), 8000));
        await until('H is answered', () => spoken().slice(checks.keyMark).filter((x) => x.text.includes(texts[0])).length > k,
          20000).catch(() => {});
        await quiet();
        await sleep(1200);   /* nothing told again ahead of the next answer */
      }
      const all = spoken();
      checks.twiceAt = [];
      for (let i = checks.keyMark; i < all.length; i++) if (all[i].text.includes(texts[0])) checks.twiceAt.push(i);
      checks.twiceHeard = checks.twiceAt.length;
      checks.twiceText = texts[0];
      checks.twiceSame = texts[0] === texts[1];
      checks.keyMark = spoken().length;
      continue;
    }
    const good = st.hand.indexOf(true);
    if (good >= 0 && st.sel !== good) {
      key('Home', 'Home');
      for (let i = 0; i < good; i++) key('Right');
      await until('the arrows select a card that plays', async () => (await state(page)).sel === good, 5000);
      continue;
    }
    if (st.hand.includes(true) || st.choices) {
      if (checks.burst && st.hand.length > 3 && st.hand.includes(true)) {
        /* Enter, and H as the bots' lines come back. */
        checks.burst = false;
        const n = await page.evaluate(() => window.__says.length);
        key('Return');
        await until('the next burst comes', () => page.evaluate((k) => window.__says.length > k + 1, n), 8000);
        const answers = await page.evaluate(() => window.__answers.length);
        key('h');
        checks.burstAt = n;
        checks.handIn = game;
        /* When the page took H: the lines before it come before its answer. */
        checks.handAt = await until('the page takes H', () => page.evaluate(() => {
          const k = window.__keys.filter((x) => x.key === 'h').pop();
          return k && k.at;
        }), 8000);
        /* The hand as the page answered H (a state may come between). */
        checks.hand = await until('the page answers H', () => page.evaluate((k) => window.__answers[k], answers), 8000);
        await until('H is answered', () => spoken().slice(checks.keyMark).some((x) => x.text.includes(checks.hand)), 20000)
          .catch(() => {});
        moves++;
        continue;
      }
      await keyTaken(page, 'Return', st);
      moves++;
      continue;
    }
    await sleep(50);
  }
}

/* Where the server's lines were spoken: each in order after the one
 * before, and spoken as many times as sent. */
function inOrder(sent, heard, what, counted = true) {
  const all = heard.join(' \u2016 ');
  let at = 0;
  const late = [];
  for (const s of sent) {
    const i = all.indexOf(s, at);
    if (i < 0) late.push(s); else at = i + s.length;
  }
  assert.deepStrictEqual(late.slice(0, 5), [], what + ': lines not spoken, or spoken out of the server\'s order');
  if (!counted) return;
  const count = (hay, s) => hay.split(s).length - 1;
  const joined = sent.join(' \u2016 ');
  const twice = [...new Set(sent)].filter((s) => count(all, s) !== count(joined, s));
  assert.deepStrictEqual(twice, [], what + ': lines not spoken as often as sent');
}

/* What Orca spoke, each line the page told again ahead of a key's answer
 * (what a screen reader may have dropped at the key) taken out when Orca
 * had spoken it already, in the elements just before: so every line counts
 * as many times as a person heard it. */
function tellOnce(got, told) {
  return got.map((t, k) => {
    const x = told.find((y) => y.text === t && y.again.length);
    if (!x) return t;
    const before = got.slice(Math.max(0, k - 4), k).join(' ');
    let rest = t;
    for (const line of x.again) {
      if (!rest.startsWith(line)) break;
      if (before.includes(line)) rest = rest.slice(line.length).trim();
      else break;
    }
    return rest;
  });
}

const PLAYERS = { bourre: '3' };
const GAMES = [
  ['bouillabaisse', 'La Bouillabaisse'], ['bourre', 'Bourré'], ['brouc', 'Le Brouc'],
  ['bouillotte', 'Bouillotte'], ['brelan', 'Le Brelan']];

async function main() {
  await startSpeechd();
  await startOrca();
  const port = await startServer();
  const profile = path.join(dir, 'chromium');
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: false,
    userDataDir: profile,
    defaultViewport: null,
    args: ['--force-renderer-accessibility', '--no-first-run', '--no-default-browser-check',
      '--window-position=0,0', '--window-size=1200,1000', '--disable-gpu',
      ...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [])],
    env: { ...process.env, SPEECHD_ADDRESS: speechdAddress },
  });
  const [page] = await browser.pages();
  await spy(page);
  /* The window has the X focus, as a person's browser would. */
  const win = await until('the browser\'s window', () => {
    try { return xdo('search', '--onlyvisible', '--class', 'chromium').split('\n').pop(); } catch (e) { return ''; }
  }, 20000);
  xdo('windowfocus', '--sync', win);
  const failures = [];
  const part = async (name, f) => {
    const t0 = Date.now();
    try {
      const r = await f();
      assert.deepStrictEqual(missing.splice(0), [], 'sentences not spoken');
      console.log('sr: ' + name + ': ok' + (r ? ' (' + r + ')' : '') + ' ' + (Date.now() - t0) + ' ms');
    } catch (e) {
      failures.push(name);
      missing.splice(0);
      console.log('sr: the page told: ' + JSON.stringify(await page.evaluate(() =>
        [...document.querySelectorAll('#said p')].map((p) => p.textContent).concat(['LOG:'],
          [...document.querySelectorAll('#log p')].slice(-8).map((p) => p.textContent), ['SAYS:'], window.__says.slice(0, 8).map((x) => x.text))).catch(() => [])));
      console.log('sr: ' + name + ': FAILED: ' + (e.stack || e));
    }
    /* Back in the lobby for the next part. */
    if (await page.evaluate(() => window.tapis.table).catch(() => 0)) {
      await page.evaluate(() => window.tapis.ws.send(JSON.stringify({ type: 'leave', table: window.tapis.table })));
      await page.waitForSelector('#lobby:not([hidden])', { timeout: 5000 }).catch(() => {});
    }
  };
  const heard = [];
  await part('arrival in the lobby', async () => {
    await page.goto('http://127.0.0.1:' + port + '/?lang=en', { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('#login-h').textContent.length > 0);
    /* The sound cues off (a setting of the page): every cue renames the
     * browser's tab ("Audio playing"), events Orca takes for nothing. */
    await page.$eval('#opt-cues', (el) => { if (el.checked) el.click(); });
    await quiet();
    await clickOn(page, '#login-name');
    await until('the name field has the focus', () => page.evaluate(() => document.activeElement.id === 'login-name' &&
      document.hasFocus()));
    await quiet();
    heardSince();
    xdo('type', '--delay', '20', 'Anne');
    key('Return');
    await page.waitForSelector('#lobby:not([hidden])');
    await waitHeard(/Lobby: 0 tables, 1 person\./, 'the arrival in the lobby is spoken');
  });
  const checks = { refusal: true, burst: true, twice: true };
  for (const [game, title] of GAMES.filter(([g]) => !process.env.TAPIS_SR_ONLY || g === process.env.TAPIS_SR_ONLY)) {
    await part(game + ': a deal by keys', async () => {
      /* What a game before tried and could not check (it failed before
       * its end) is tried again here. */
      if (!checks.handSeen && checks.hand) Object.assign(checks, { burst: true, hand: null });
      if (!checks.refusalSeen && checks.refused) Object.assign(checks, { refusal: true, refused: null });
      if (!checks.twiceSeen && checks.twiceIn) Object.assign(checks, { twice: true, twiceIn: null });
      await quiet();
      await page.evaluate(() => { window.__says = []; });
      heardSince();
      await page.select('#create-game', game);
      /* Bourré at 3 (its 7 by default make a long deal). */
      if (PLAYERS[game]) await page.select('#create-players', PLAYERS[game]);
      if (await page.$('#rule-hands')) await page.$eval('#rule-hands', (el) => { el.value = '1'; });
      await page.click('#create-form button[type=submit]');
      await page.waitForSelector('#btn-start:not([hidden])');
      const table = await page.evaluate(() => window.tapis.table);
      const players = await page.evaluate(() => window.tapis.info.players);
      await waitHeard(new RegExp('Table ' + table + ', ' + title + ', ' + players + ' players\\. Start when ready\\.'),
        'the arrival at the table is spoken');
      /* Start by its key, from browse mode: the focus on the button (a
       * person's Tab), Enter. */
      await quiet();
      await page.focus('#btn-start');
      await quiet();
      key('Return');
      await page.waitForFunction(() => window.tapis.state && window.tapis.state.state !== 'waiting');
      await sleep(300);
      const moves = await playDeal(page, game, checks);
      /* Orca's log reaches the last line the server sent (Orca is slow with
       * its debug log on). */
      const last = await page.evaluate(() => { const x = window.__says.filter((y) => !y.refused).pop(); return x ? x.text : ''; });
      await until('the last line is spoken: ' + last, () => spoken().slice(mark).some((x) => x.text.includes(last)), 30000)
        .catch((e) => { missing.push(e.message); });
      /* ... and the last element the page told (a line may be heard
       * before it in what the focus reads: the result is the Rematch
       * button's description), once the page holds nothing back. */
      await until('the page tells what it holds', () => page.evaluate(() => !window.tapisSaid.lines.length &&
        !window.tapisSaid.timer), 10000).catch(() => {});
      const lastEl = await page.evaluate(() => { const t = window.tapisSaid.told; return t.length ? t[t.length - 1].text : ''; });
      const lastTold = lastEl.replace(/\u200b$/, '');
      await until('the page\'s last words are spoken: ' + lastTold, () => spoken().slice(mark).some((x) => x.text.includes(lastTold)),
        30000).catch((e) => { missing.push(e.message); });
      await sleep(500);
      const from = mark;
      const got = heardSince();
      /* The result read as the description of the Rematch button when
       * the focus lands on it is what the focus reads, no live line:
       * not counted (the lines themselves come live, in order). */
      const result = await page.$eval('#result', (e) => e.textContent).catch(() => '');
      for (let i = 1; i < got.length; i++)
        if (result && /push button\.$/.test(got[i - 1]) && got[i] === result) got[i] = '';
      heard.push(...got);
      const says = await page.evaluate(() => window.__says);
      /* The lines a key's answer tells again ahead of it (the page repeats
       * what Orca drops at a key) count once: when they were spoken before. */
      const h = checks.hand && !checks.handSeen && checks.handIn === game ? checks.hand : '';
      if (checks.refused && checks.refusedIn === game) {
        checks.refusalSeen = true;
        const n = got.filter((t) => t.includes(checks.refused)).length;
        assert.strictEqual(n, 1, 'the refusal "' + checks.refused + '" is spoken once, not ' + n + ' times');
      }
      if (checks.twiceIn === game) {
        checks.twiceSeen = true;
        assert.ok(checks.twiceSame, 'H twice gives the same words');
        assert.strictEqual(checks.twiceHeard, 2, 'H pressed twice is answered twice, not ' + checks.twiceHeard + ' times');
      }
      const told = await page.evaluate(() => window.tapisSaid.told);
      const once = tellOnce(got, told);
      /* The answers of H twice are no line of the server's (the hand may
       * be the words of the deal's line): taken out for the counts, the
       * last words of each element that holds one. */
      if (checks.twiceIn === game)
        for (const i of checks.twiceAt || []) {
          const t = once[i - from];
          const at = t === undefined ? -1 : t.lastIndexOf(checks.twiceText);
          if (at >= 0) once[i - from] = (t.slice(0, at) + t.slice(at + checks.twiceText.length)).trim();
        }
      if (h) {
        checks.handSeen = true;
        const burst = says.slice(checks.burstAt).filter((x) => !x.refused && x.at <= checks.handAt).map((x) => x.text);
        const i = got.findIndex((t) => t.includes(h));
        assert.ok(i >= 0, 'H pressed in a burst is answered');
        if (process.env.TAPIS_SR_KEEP) console.log('sr: told around H: ' + JSON.stringify(told.filter((x) => x.text.includes(h))));
        inOrder(burst, got.slice(0, i + 1), game + ': the burst H came in', false);
      }
      inOrder(says.filter((x) => !x.refused).map((x) => x.text), once, game);
      return moves + ' moves, ' + got.length + ' spoken';
    });
  }
  await part('a refusal spoken once, H in a burst, H twice', async () => {
    assert.ok(checks.refusalSeen, 'a card that may not be played was sent and refused');
    assert.ok(checks.handSeen, 'H was pressed in a burst');
    assert.ok(checks.twiceSeen, 'H was pressed twice');
  });
  await browser.close().catch(() => {});
  if (process.env.TAPIS_SR_KEEP) {
    fs.copyFileSync(orcaLog, path.join(build, 'sr-orca.log'));
    console.log('sr: Orca\'s log kept in ' + path.join(build, 'sr-orca.log'));
  }
  cleanup();
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => { console.error(e); cleanup(); process.exit(1); });
