#!/usr/bin/env node
/* The web page in a real browser: `tapis serve` on a free 127.0.0.1 port
 * with a temporary store and --web src/web, Debian's Chromium headless
 * driven by puppeteer-core, axe-core run in the page.
 *
 * 1. Log in, create a Bouillabaisse table with three bots, play a whole
 *    round by keys only; every announcement reaches the live region in the
 *    order the server sent it; C, T and S answer; the accessibility tree
 *    names every control; axe-core finds no violation; screenshots of the
 *    lobby and the table (docs/ has them, made by `make web-shots`).
 * 2. A Bouillotte deal between a browser player and a terminal client
 *    (`tapis join --actions`) at the same table.
 * 3. Le Brelan, Bourré and Le Brouc, each made from the form and played to
 *    the end by keys.
 * 4. The server killed under a player and started again: the page comes
 *    back to its table and the game goes on to its end.
 * 5. The creator's seat controls: a seat opened, another given to a bot of
 *    level 3; the game begun, a player removed (and sent back to the
 *    lobby).
 * 6. A server with a certificate (made here by openssl, self-signed): the
 *    page over https:// and wss://, a round played by keys.
 * 7. touch: a phone's screen (360 px) and a finger only, no keyboard:
 *    log in, make a table of each of the five games and play it to its end
 *    by taps; the focus after the login, the start and the end; the
 *    toolbar; 44 px targets; axe-core clean; a full table offers Watch.
 * 8. coming back: a reload returns a guest to the seat with the history,
 *    the focus on the table, the prompt once; the language changed at the
 *    table; ?lang=fr; the manifest and the icons served.
 * 9. server rules: two Bouillotte tables, with and without the
 *    straddle (a rule of the server's table, the page unchanged): the
 *    choices follow; F1 and the toolbar say what the state says (L on the
 *    last showdown), in English and French; states rewritten on their way
 *    (another menu order, other cards playable): the page follows them.
 *    key model: the cursor's rules as the state gives them (state.cursor,
 *    app/keymap), changed on their way (Right by suit, another word at
 *    the first card, the turn's start on the last card): the page's
 *    cursor follows; tests/check_keymodel.c does the same for the
 *    terminal client.
 * 10. live lobby: an arrival and a new table spoken in the server's words;
 *    the list kept by its changes, a filter asked of the server;
 *    the lobby setting at Nothing silences them and the lobby's chat, and
 *    is kept for the next visit.
 * 11. seat held: a seat held where a game goes on, and a table made or a
 *    seat taken elsewhere: the server's question said at once, the focus
 *    on "keep it and go back" (which does), "give it up" sits elsewhere
 *    and the seat goes to a bot.
 *
 * Usage: node tests/web/run.js [BUILD] (from the top of the tree);
 * TAPIS_WEB_ONLY=NAME runs only the part of that name ("bouillotte",
 * "touch", "coming back"; `make check-web TAPIS_WEB_ONLY=touch`). */
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const assert = require('assert');

const top = path.resolve(__dirname, '..', '..');
const build = path.resolve(top, process.argv[2] || 'build');
const tapis = path.join(build, 'tapis');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
/* Screenshots go to the build directory, or to TAPIS_WEB_SHOTS (`make
 * web-shots`: docs/); TAPIS_WEB_SHOTS=0 takes none. */
const shotDir = process.env.TAPIS_WEB_SHOTS ? path.resolve(top, process.env.TAPIS_WEB_SHOTS) : build;
const shots = process.env.TAPIS_WEB_SHOTS !== '0';

let puppeteer, axeSource;
try {
  puppeteer = require('puppeteer-core');
  axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
} catch (e) {
  console.error('web: puppeteer-core and axe-core are missing: run npm ci in tests/web');
  process.exit(1);
}

const children = [];
function cleanup() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
}
process.on('exit', cleanup);

function env() {
  return { ...process.env, TAPIS_DATADIR: top, TAPIS_LOCALEDIR: path.join(build, 'locale') };
}

/* A server on a free port; resolves with its port once it listens. tls:
 * { cert, key, db } for wss:// (and a store of its own). */
function startServer(dir, port, tls) {
  return new Promise((resolve, reject) => {
    const args = ['serve', '--host', '127.0.0.1', '--port', String(port || 0), '--db',
      path.join(dir, tls ? tls.db : 'server.db'), '--web', path.join(top, 'src', 'web'), '--bot-delay', '0',
      /* The same deals every run (a client's seed is refused where others
       * may sit). */
      '--seed', '3'];
    if (tls) args.push('--cert', tls.cert, '--key', tls.key);
    const srv = spawn(tapis, args, { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(srv);
    let err = '';
    srv.stderr.on('data', (d) => {
      err += d;
      const m = /listening on wss?:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolve({ srv, port: Number(m[1]) });
    });
    srv.on('exit', (code) => reject(new Error('tapis serve ended (' + code + '): ' + err)));
    setTimeout(() => reject(new Error('tapis serve did not start: ' + err)), 10000);
  });
}

/* The announcements the server sends one player, read by a WebSocket spy
 * inside the page: every say message in the order received. */
async function spy(page) {
  await page.evaluateOnNewDocument(() => {
    window.__says = [];
    window.__times = [];
    const Orig = window.WebSocket;
    window.WebSocket = function (url, proto) {
      const ws = new Orig(url, proto);
      ws.addEventListener('message', (ev) => {
        try {
          const m = JSON.parse(ev.data);
          if (m.type === 'say' && m.text) {
            window.__says.push(m.text);
            window.__times.push({ at: performance.now(), urgent: !!m.urgent });
          }
          if (m.type === 'missed') {
            window.__missed = m;
            for (const x of m.says) if (x.type === 'say' && x.text) window.__says.push(x.text);
          }
        } catch (e) { /* not ours */ }
      });
      return ws;
    };
    window.WebSocket.prototype = Orig.prototype;
    Object.assign(window.WebSocket, { OPEN: Orig.OPEN, CLOSED: Orig.CLOSED, CONNECTING: Orig.CONNECTING });
  });
}

async function login(page, port, name, lang, scheme, password) {
  await page.goto((scheme || 'http') + '://127.0.0.1:' + port + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('#login-h').textContent.length > 0);
  if (lang) {
    await page.select('#login-lang', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, {}, lang);
  }
  /* The name of the last guest of this browser may be there already. */
  await page.$eval('#login-name', (el) => { el.value = ''; });
  await page.type('#login-name', name);
  if (password) await page.type('#login-password', password);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#lobby:not([hidden])');
  assert.strictEqual(await page.evaluate(() => document.activeElement && document.activeElement.id), 'lobby-h',
    'after the login the focus is on the lobby\'s heading');
}

/* Every announcement the page put in its live region. */
const logTexts = (page) => page.$$eval('#log p[data-kind="say"]', (ps) => ps.map((p) => p.textContent));
const lastAnswer = (page) => page.$eval('#answers', (a) => (a.lastElementChild ? a.lastElementChild.textContent : ''));

/* A key whose answer is a question: said by the alert region. */
async function pressAndAlert(page, key) {
  const n = await page.$eval('#alert', (a) => a.dataset.n || '0');
  await page.keyboard.press(key);
  await page.waitForFunction((k) => (document.querySelector('#alert').dataset.n || '0') !== k, {}, n);
  /* Without the invisible end that makes the same words told twice unlike. */
  return page.$eval('#alert', (a) => a.lastElementChild.textContent.replace(/\u200b$/, ''));
}

async function pressAndHear(page, key) {
  const n = await page.$eval('#answers', (a) => a.childElementCount);
  await page.keyboard.press(key);
  await page.waitForFunction((k) => document.querySelector('#answers').childElementCount !== k ||
    document.querySelector('#answers').childElementCount === 5, {}, n);
  return lastAnswer(page);
}

async function axe(page, what) {
  await page.evaluate(axeSource);
  const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const v = r.violations.map((x) => x.id + ': ' + x.help + ' ' + x.nodes.map((n) => n.target.join(' ')).join(', '));
  assert.deepStrictEqual(v, [], what + ': axe-core finds violations');
}

/* Every control in the accessibility tree has a name. */
async function named(page, what) {
  const tree = await page.accessibility.snapshot({ interestingOnly: true });
  const roles = new Set(['button', 'textbox', 'combobox', 'checkbox', 'radio', 'slider', 'link', 'application',
    'spinbutton', 'listbox', 'menuitem']);
  const bad = [];
  let controls = 0;
  (function walk(n) {
    if (!n) return;
    if (roles.has(n.role)) {
      controls++;
      if (!n.name || !n.name.trim()) bad.push(n.role + ' ' + JSON.stringify(n));
    }
    for (const c of n.children || []) walk(c);
  })(tree);
  assert.ok(controls > 3, what + ': the accessibility tree holds the controls');
  assert.deepStrictEqual(bad, [], what + ': controls without a name');
}

/* Play by keys alone until the game is over: on each turn, walk the hand
 * to a playable card and press Enter, or Enter through the action menu. */
async function playByKeys(page, limitMs) {
  const end = Date.now() + limitMs;
  let moves = 0;
  for (;;) {
    assert.ok(Date.now() < end, 'the game ends in time');
    const st = await page.evaluate(() => {
      const s = window.tapis.state;
      return s && { state: s.state, turn: s.state === 'playing' && s.my_turn, moves: s.moves,
        hand: (s.hand || []).map((h) => h.playable), sel: window.tapis.sel, choices: (s.choices || []).length };
    });
    if (st && st.state === 'over') return moves;
    if (!st || !st.turn) { await new Promise((r) => setTimeout(r, 30)); continue; }
    const target = st.hand.indexOf(true);
    if (target >= 0) {
      /* Home twice: the first card of the hand; then Right to a playable one. */
      await page.keyboard.press('Home');
      await page.keyboard.press('Home');
      for (let i = 0; i < target; i++) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
    } else {
      await page.keyboard.press('Enter');   /* opens the menu (the safest choice first), or discards */
      if (st.choices) await page.keyboard.press('Enter');
      if (await page.evaluate(() => !!window.tapis.confirm)) await page.keyboard.press('y');
    }
    moves++;
    await page.waitForFunction((n) => { const s = window.tapis.state; return !s || s.moves !== n; },
      { timeout: 10000, polling: 50 }, st.moves).catch(() => {});
  }
}

/* The confirmation of risky choices, as the server marks them in the state:
 * going all in ("confirm") asks for Y (O in French) first, and another key
 * goes back; a range ("confirm_from": more than half one's chips) asks
 * from that amount up, and below it the choice is played at once. Returns
 * the moves played. */
async function confirmByKeys(page) {
  const moves0 = await page.evaluate(() => window.tapis.state.moves);
  await pressAndHear(page, 'Enter');
  const items = await page.evaluate(() => window.tapis.menu.items.map((x) => ({ label: x.label, confirm: x.confirm,
    from: x.confirm_from, min: x.min, max: x.max })));
  const marked = items.findIndex((x) => x.confirm === true);
  const r = items.findIndex((x) => x.from !== undefined);
  assert.ok(marked >= 0 && r >= 0, 'the server marks the choices: ' + JSON.stringify(items));
  assert.ok(items[r].from > items[r].min && items[r].from <= items[r].max, 'confirm_from is within the range');
  const go = async (to) => {
    const at = await page.evaluate(() => window.tapis.menu.i);
    for (let i = at; i < to; i++) await pressAndHear(page, 'ArrowDown');
    for (let i = at; i > to; i--) await pressAndHear(page, 'ArrowUp');
  };
  await go(marked);
  const q = await pressAndAlert(page, 'Enter');
  assert.ok(q.startsWith(items[marked].label) && /O pour confirmer/.test(q), 'a marked choice asks first: ' + q);
  assert.strictEqual(await pressAndHear(page, 'n'), 'Rien de fait.', 'another key goes back');
  assert.strictEqual(await page.evaluate(() => window.tapis.state.moves), moves0, 'nothing was played');
  await go(r);
  await pressAndHear(page, 'End');
  assert.ok(/O pour confirmer/.test(await pressAndAlert(page, 'Enter')), 'the most of the range asks');
  assert.strictEqual(await pressAndHear(page, 'x'), 'Rien de fait.', 'and goes back on another key');
  await pressAndHear(page, 'Home');
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => window.tapis.state.moves !== n, { timeout: 10000 }, moves0);
  assert.strictEqual(await page.evaluate(() => window.tapis.confirm), null, 'the least of the range: played at once');
  return 1;
}

async function testBouillabaisse(browser, port) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 900 });
  await spy(page);
  await login(page, port, 'Anne', 'en');
  await named(page, 'lobby');
  await axe(page, 'lobby');
  await page.evaluate(() => {
    window.__liveChanged = 0;
    new MutationObserver(() => { window.__liveChanged++; }).observe(document.querySelector('#log'),
      { attributes: true, attributeFilter: ['aria-live'] });
  });
  /* Every word of the page comes from /words: each one the page and its
   * script name is there, and no element of the page is left empty. */
  const script = fs.readFileSync(path.join(top, 'src', 'web', 'tapis.js'), 'utf8');
  const names = new Set([...script.matchAll(/\bw\('([a-z0-9_]+)'\)/g)].map((m) => m[1]));
  for (const m of script.matchAll(/\bwn\('([a-z0-9_]+)',/g)) ['_1', '_n'].forEach((x) => names.add(m[1] + x));
  for (const st of ['waiting', 'playing']) ['_1', '_n'].forEach((x) => names.add('table_' + st + x));
  names.add('table_over');
  const missing = await page.evaluate((list) => {
    const words = window.tapis.words;
    const html = [...document.querySelectorAll('[data-w]')].map((e) => e.dataset.w);
    return [...list, ...html].filter((n) => !words[n]);
  }, [...names]);
  assert.deepStrictEqual(missing, [], 'words the page uses and /words lacks');
  assert.ok(names.size > 30, 'the script names its words');
  await page.select('#create-game', 'bouillabaisse');
  await page.select('#create-players', '4');
  await page.select('#rule-hands', '1');
  if (shots) await page.screenshot({ path: path.join(shotDir, 'web-lobby.png'), fullPage: true });
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#table:not([hidden])');
  assert.strictEqual(await page.evaluate(() => document.activeElement.id), 'play', 'the table has the focus');
  await page.waitForSelector('#btn-start:not([hidden])');
  await page.click('#btn-start');
  await page.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing');
  await page.focus('#play');
  /* C, T and S answer from the view. */
  const keys = await page.evaluate(() => window.tapis.state.keys);
  for (const k of ['c', 't', 's']) {
    /* The answer of the view when the key was pressed (a bot may play
     * between the key and the look at the state after it). */
    const before = await page.evaluate(() => window.tapis.state.keys);
    const heard = await pressAndHear(page, k);
    const after = await page.evaluate(() => window.tapis.state.keys);
    assert.ok(heard.length > 0, k + ' answers');
    assert.ok([before, after].some((x) => heard === x[k.toUpperCase()]), k + ' says the answer of the view: ' + heard);
  }
  /* An AZERTY keyboard: its top row gives & é " ' ( - è _ ç à without
   * Shift; read by the physical key (event.code) they tell the table as 1
   * to 9 do, '-' does not slow the voice; > does, and AltGr+( is [. */
  const azerty = await page.evaluate(() => {
    const play = document.getElementById('play');
    const answers = document.getElementById('answers');
    const said = (key, code, altGr) => {
      answers.textContent = '';
      const e = new KeyboardEvent('keydown', { key, code, bubbles: true, cancelable: true });
      if (altGr) Object.defineProperty(e, 'getModifierState', { value: (m) => m === 'AltGraph' });
      play.dispatchEvent(e);
      return answers.lastElementChild ? answers.lastElementChild.textContent : '';
    };
    const keys = window.tapis.state.keys;
    const rate = window.tapis.rate;
    const top = ['&', '\u00e9', '"', "'", '(', '-', '\u00e8', '_', '\u00e7'];
    const heard = top.map((k, i) => [k, said(k, 'Digit' + (i + 1)), keys[String(i + 1)]]);
    const same = window.tapis.rate === rate;
    said('>', 'IntlBackslash');
    const faster = window.tapis.rate > rate;
    const volume = window.tapis.speechVolume;
    said('[', 'Digit5', true);
    return { heard, same, faster, quieter: window.tapis.speechVolume < volume };
  });
  for (const [k, heard, want] of azerty.heard) assert.strictEqual(heard, want, 'AZERTY ' + k + ' tells the table');
  assert.ok(azerty.heard.some((x) => x[2]), 'the table keys answer something');
  assert.ok(azerty.same, 'the top row leaves the rate alone');
  assert.ok(azerty.faster, '> speaks faster');
  assert.ok(azerty.quieter, 'AltGr gives [ on AZERTY: quieter');
  /* F1: the few keys of the moment first, then all of them. */
  const brief = await pressAndHear(page, 'F1');
  assert.ok(brief.endsWith('F1 again for all keys.') && brief.includes('H: '), 'F1 first: ' + brief);
  assert.ok(brief.split('. ').length <= 7 && !brief.includes('V: '), 'F1 first is short: ' + brief);
  const help = await pressAndHear(page, 'F1');
  assert.ok(help.length > 40 && help.includes('C: '), 'F1 says the keys: ' + help);
  assert.ok(help.includes('V: '), 'F1 names V: ' + help);
  /* V: short announcements, then full again, each answered by the server;
   * ?: the hint, asked of the server, comes back as an announcement and
   * plays nothing. */
  for (const [key, said] of [['v', 'Short announcements.'], ['V', 'Full announcements.']]) {
    await page.keyboard.press(key);
    await page.waitForFunction((x) => { const l = document.querySelector('#log').lastElementChild;
      return l && l.textContent === x; }, { timeout: 10000 }, said);
  }
  await page.waitForFunction(() => window.tapis.state.my_turn);
  const before = await page.evaluate(() => window.tapis.state.moves);
  await page.keyboard.press('?');
  await page.waitForFunction(() => [...document.querySelectorAll('#log p[data-kind="say"]')].some((p) =>
    /^Play /.test(p.textContent)), { timeout: 10000 });
  assert.strictEqual(await page.evaluate(() => window.tapis.state.moves), before, 'the hint plays nothing');
  assert.ok((await pressAndHear(page, 'F1')).includes('question mark: '), 'F1 names the hint on one\'s turn');
  /* The hand by the arrows, H, the history. */
  const hand = await page.evaluate(() => window.tapis.state.hand.map((h) => h.name));
  assert.strictEqual(hand.length, 13, 'thirteen cards dealt');
  await pressAndHear(page, 'End');
  assert.ok((await pressAndHear(page, 'End')).startsWith(hand[12]), 'End twice: the last card');
  await pressAndHear(page, 'Home');
  assert.ok((await pressAndHear(page, 'Home')).startsWith(hand[0]), 'Home twice: the first card');
  assert.ok((await pressAndHear(page, 'ArrowLeft')).startsWith('First card. ' + hand[0]), 'Left at the edge');
  assert.ok((await pressAndHear(page, 'ArrowRight')).startsWith(hand[1]), 'Right: the next card');
  assert.strictEqual(await pressAndHear(page, 'h'), keys.H, 'H: the whole hand');
  const said = await logTexts(page);
  assert.strictEqual(await pressAndHear(page, ';'), said[said.length - 1], '; repeats the last message');
  assert.strictEqual(await pressAndHear(page, ','), said[said.length - 2], ', goes back in the history');
  /* The seats sound where the terminal places them: the next seat to the
   * right (play goes anticlockwise), the one across in front. */
  const pans = await page.evaluate(() => [0, 1, 2, 3, -1].map((s) => window.tapisSeatPan(s)));
  assert.deepStrictEqual(pans.map((x) => Math.round(x * 100) / 100), [0, 1, 0, -1, 0], 'seats panned: ' + pans);
  /* Large print: the same page, bigger and in high contrast. */
  await page.click('#opt-large');
  const big = await page.$eval('#view-turn', (e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(big >= 30, 'large print makes whose turn big (' + big + ' px)');
  await axe(page, 'table in large print');
  if (shots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shotDir, 'web-table-large.png'), fullPage: false });
  }
  await page.click('#opt-large');
  await page.focus('#play');
  await named(page, 'table');
  await axe(page, 'table');
  if (shots) {
    await page.waitForFunction(() => window.tapis.state.my_turn);
    await page.screenshot({ path: path.join(shotDir, 'web-table.png'), fullPage: false });
  }
  const moves = await playByKeys(page, 120000);
  assert.ok(moves >= 5, 'the player played a whole round (' + moves + ' moves)');
  await page.waitForFunction(() => window.__says.length > 0 &&
    document.querySelectorAll('#log p[data-kind="say"]').length >= window.__says.length);
  const sent = await page.evaluate(() => window.__says);
  const heard = await logTexts(page);
  assert.ok(sent.length > 30 && sent.length < 300, 'a round told in ' + sent.length + ' announcements');
  assert.deepStrictEqual(heard, sent, 'every announcement reached the live region, in order');
  assert.ok(sent.some((s) => /^Your turn/.test(s)), 'the turn was announced');
  assert.ok(sent.some((s) => /over/i.test(s)), 'the end of the game was announced');
  /* The prompts are queued behind the events before them in the one
   * polite log, which never turned assertive; the alert region took none. */
  const prompts = await page.$$eval('#log p.prompt', (ps) => ps.map((p) => p.textContent));
  assert.ok(prompts.length >= moves && prompts.every((t) => /^Your turn/.test(t)), 'the turn prompts are in the log');
  const live = await page.evaluate(() => ({ now: document.querySelector('#log').getAttribute('aria-live'),
    role: document.querySelector('#log').getAttribute('role'),
    changed: window.__liveChanged, alerts: [...document.querySelectorAll('#alert p')].map((p) => p.textContent) }));
  /* Not even aria-live="off" nor role="log": Orca takes a region named
   * off for a live one, and drops the next live line of the same words
   * (the line told by #said, a refusal) as said already. */
  assert.ok(live.now === null && live.role !== 'log', 'the log is no live region at all: #said tells the screen reader');
  assert.strictEqual(await page.$eval('#said', (e) => e.getAttribute('aria-live')), 'polite', '#said is polite');
  assert.strictEqual(live.changed, 0, 'the log never changed its aria-live');
  assert.ok(!live.alerts.some((t) => /^Your turn/.test(t)), 'no prompt in the alert region');
  /* Events that came less than 50 ms before a prompt: each in the log
   * before it. */
  const times = await page.evaluate(() => window.__times);
  let close = 0;
  for (let i = 0; i < times.length; i++) {
    if (!times[i].urgent) continue;
    for (let k = i - 1; k >= 0 && times[i].at - times[k].at < 50; k--) if (!times[k].urgent) close++;
  }
  console.log('web: ' + close + ' events came less than 50 ms before a prompt, each said before it');
  /* The cues came from the server's sounds/ and were decoded. */
  const cues = await page.evaluate(async () => {
    const names = Object.keys(window.tapis.buffers);
    const bufs = await Promise.all(names.map((n) => window.tapis.buffers[n]));
    return names.filter((n, i) => bufs[i] && bufs[i].duration > 0);
  });
  for (const c of ['shuffle', 'deal', 'card', 'trick', 'your_turn'])
    assert.ok(cues.includes(c), 'the cue ' + c + ' was played (' + cues + ')');
  await page.close();
  return moves;
}

/* A Bouillotte deal: Bea in the browser (in French), Carl in a terminal
 * client playing from an actions file, a bot on the third seat. The
 * server names each seat by the person holding it, the bot's by a name
 * that says it is a bot ("Claire (robot)"), in the web page as in the
 * terminal. */
async function testBouillotte(browser, port, dir) {
  const page = await browser.newPage();
  await spy(page);
  await login(page, port, 'Bea', 'fr');
  /* The server's seed (--seed 3): Bea speaks first: pass, open (a range), all in. */
  await page.select('#create-game', 'bouillotte');
  await page.select('#create-players', '3');
  await page.$eval('#rule-hands', (el) => { el.value = '1'; });
  await page.select('#rule-straddle', 'no');
  await page.select('#seat-1', 'open');
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#table:not([hidden])');
  const table = await page.evaluate(() => window.tapis.table);
  /* Carl goes all in at his first turn (legal whether or not someone has
   * opened before him): he has nothing more to say in the deal. */
  const actions = path.join(dir, 'carl.actions');
  fs.writeFileSync(actions, '# Carl\n1 allin\n');
  const carl = spawn(tapis, ['join', 'ws://127.0.0.1:' + port + '/', '--name', 'Carl', '--text', '--table',
    String(table), '--seat', '2', '--actions', actions, '--chat', 'hello from Carl'],
  { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(carl);
  let carlOut = '';
  carl.stdout.on('data', (d) => { carlOut += d; });
  carl.stderr.on('data', (d) => { carlOut += d; });
  await page.waitForFunction(() => {
    const t = window.tapis.info;   /* the table as it fills (a "table" message) */
    return t && t.seats[1].name === 'Carl';
  }, { timeout: 15000 });
  /* The page speaks French, its own words too. */
  assert.strictEqual(await page.$eval('#btn-leave', (b) => b.textContent), 'Quitter la table');
  /* Chat both ways. */
  await page.waitForFunction(() => [...document.querySelectorAll('#log p.chat')].some((p) =>
    p.textContent === 'Carl : hello from Carl' || p.textContent === 'Carl: hello from Carl'), { timeout: 10000 });
  await page.type('#table-chat-text', 'bonjour de Bea');
  await page.keyboard.press('Enter');
  await page.click('#btn-start');
  await page.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing');
  await page.focus('#play');
  /* The action menu: Enter opens it, Down walks it, an amount moves with
   * Right, Escape closes it. */
  await page.waitForFunction(() => { const s = window.tapis.state; return s.my_turn || s.state === 'over'; });
  const n = await page.evaluate(() => window.tapis.state.choices.length);
  assert.ok(n >= 2, 'Bea has choices');
  assert.ok((await pressAndHear(page, 'Enter')).endsWith(', 1 sur ' + n + '.'), 'Enter opens the menu');
  assert.ok((await pressAndHear(page, 'ArrowDown')).endsWith(', 2 sur ' + n + '.'), 'Down: the second choice');
  const second = await page.evaluate(() => window.tapis.menu.items[1]);
  if (second.min !== undefined && second.max > second.min)
    assert.strictEqual(await pressAndHear(page, 'ArrowRight'), second.labels ? second.labels[1] : String(second.min + 1),
      'Right: one chip more, as the game phrases it');
  assert.ok((await pressAndHear(page, 'ArrowUp')).endsWith(', 1 sur ' + n + '.'), 'Up: the first choice');
  assert.ok((await pressAndHear(page, 'ArrowUp')).startsWith('Premier choix.'), 'Up at the edge');
  assert.strictEqual(await pressAndHear(page, 'Escape'), 'Menu fermé.', 'Escape closes the menu');
  /* An error of the server, in French as the player speaks: said as it
   * comes. */
  await page.evaluate(() => window.tapis.ws.send(JSON.stringify({ type: 'sit', table: 999 })));
  await page.waitForFunction(() => [...document.querySelectorAll('#log p[data-kind="error"]')].some((p) =>
    p.textContent === "cette table n'existe pas"), { timeout: 10000 });
  const confirmed = await confirmByKeys(page);
  assert.strictEqual(confirmed, 1, 'the deal of seed 3 gives Bea a range to open with');
  const moves = confirmed + await playByKeys(page, 120000);
  const sent = await page.evaluate(() => window.__says);
  const heard = await logTexts(page);
  assert.deepStrictEqual(heard.slice(-sent.length), sent.slice(-heard.length), 'announcements in order (French)');
  assert.ok(sent.some((s) => /^Carl (joue|passe|ouvre|suit|relance|renvie|tient|se couche|abandonne|fait son va-tout)/.test(s)), 'Bea heard Carl (seat 2) play, in French:\n' +
    sent.join('\n'));
  const builtin = /(^|[^\p{L}])(Anne|Bruno|Claire|Denis|Emma)(?! \(robot\))([^\p{L}]|$)/u;
  assert.ok(!sent.some((s) => builtin.test(s)), 'Bea heard only the bot by a built-in name:\n' + sent.join('\n'));
  assert.ok(sent.some((s) => /Claire \(robot\)/.test(s)), 'Bea heard the bot called a bot:\n' + sent.join('\n'));
  const code = await new Promise((resolve) => {
    if (carl.exitCode !== null) resolve(carl.exitCode);
    carl.on('exit', resolve);
    setTimeout(() => resolve('timeout'), 15000);
  });
  assert.ok(/^Bea (passes|opens|calls|raises|folds|goes|is all)/m.test(carlOut), 'Carl heard Bea (seat 1) play:\n' + carlOut);
  assert.ok(!/(^|[^\p{L}])(Anne|Bruno|Denis)([^\p{L}]|$)/mu.test(carlOut) && /Claire \(bot\)/.test(carlOut),
    'Carl heard the people by their names, the bot as a bot:\n' + carlOut);
  assert.ok(/^Game over/m.test(carlOut), 'Carl heard the end of the game:\n' + carlOut);
  assert.ok(/Bea: bonjour de Bea/.test(carlOut), 'Carl heard Bea chat:\n' + carlOut);
  assert.strictEqual(code, 0, 'the terminal client ended well:\n' + carlOut);
  await page.close();
  return moves;
}

/* The other three games, each created from the form and played to its end
 * by keys, the bots on the other seats (one deal each). */
async function testOtherGames(browser, port) {
  const page = await browser.newPage();
  await login(page, port, 'Dora', 'en');
  let moves = 0;
  /* Le Brelan has a second browser player, who sits from the lobby. */
  const finn = await browser.newPage();
  await login(finn, port, 'Finn', 'en');
  for (const game of ['brelan', 'bourre', 'brouc']) {
    await page.bringToFront();
    await page.select('#create-game', game);
    await page.$eval('#rule-hands', (el) => { el.value = '1'; });
    if (game === 'brelan') await page.select('#seat-1', 'open');
    await page.click('#create-form button[type=submit]');
    await page.waitForSelector('#table:not([hidden])');
    const table = await page.evaluate(() => window.tapis.table);
    if (game === 'brelan') {
      const sit = '#table-line-' + table + ' ~ button.sit';
      await finn.bringToFront();   /* a click waits for the page to be drawn */
      await finn.waitForSelector(sit);
      await finn.click(sit);
      await finn.waitForSelector('#table:not([hidden])');
      assert.strictEqual(await finn.evaluate(() => window.tapis.seat), 1, 'Finn sits at the open seat');
    }
    await page.bringToFront();
    await page.waitForSelector('#btn-start:not([hidden])');
    await page.click('#btn-start');
    await page.waitForFunction(() => window.tapis.state && window.tapis.state.state !== 'waiting');
    if (game === 'bourre') {
      /* A choice taken with its button: the button goes with the turn,
       * and the focus goes to the table's keys, not to the page's body. */
      await page.waitForFunction(() => { const s = window.tapis.state; return s.my_turn || s.state === 'over'; });
      const st = await page.evaluate(() => ({ moves: window.tapis.state.moves, n: (window.tapis.state.choices || []).length }));
      assert.ok(st.n >= 2, 'Dora stays or passes');
      await page.focus('#choices button');
      await page.keyboard.press('Enter');
      await page.waitForFunction((n) => window.tapis.state.moves !== n, { timeout: 10000 }, st.moves);
      assert.strictEqual(await page.evaluate(() => document.activeElement && document.activeElement.id), 'play',
        'the focus goes to the table after a choice');
      moves++;
    }
    await page.focus('#play');
    const both = [playByKeys(page, 120000)];
    if (game === 'brelan') {
      /* Two pages play at once: their waits poll (a page in the background
       * gets no animation frames). */
      await finn.waitForFunction(() => window.tapis.state && window.tapis.state.state !== 'waiting', { polling: 50 });
      await finn.focus('#play');
      both.push(playByKeys(finn, 120000));
    }
    const [n, m] = await Promise.all(both);
    if (game === 'brelan') assert.ok(m > 0, 'Finn played by keys');
    const over = await page.$$eval('#log p[data-kind="say"]', (ps) => ps.map((p) => p.textContent))
      .then((t) => t.some((x) => /^Game over/.test(x)));
    assert.ok(over, game + ': the game is over');
    moves += n;
    await page.bringToFront();
    await leaveTable(page);
    await page.waitForSelector('#lobby:not([hidden])');
  }
  await finn.close();
  await page.close();
  return moves;
}

/* A Bouillabaisse table for three, one hand, made from the lobby's form
 * and begun by its creator. */
async function startBouillabaisse(page) {
  await page.select('#create-game', 'bouillabaisse');
  await page.select('#create-players', '3');
  await page.select('#rule-hands', '1');
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#btn-start:not([hidden])');
  await page.click('#btn-start');
  await page.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing');
}

/* A server killed under a player (an account) and started again: the page
 * says the loss once, comes back by itself, sits back at its table and
 * plays the game to its end. */
async function testReconnect(browser, port, dir, server) {
  const page = await browser.newPage();
  await page.goto('http://127.0.0.1:' + port + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('#login-h').textContent.length > 0);
  await page.$eval('#login-name', (el) => { el.value = ''; });
  await page.type('#login-name', 'Eve');
  await page.type('#login-password', 'a long secret');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#lobby:not([hidden])');
  await startBouillabaisse(page);
  await page.waitForFunction(() => window.tapis.state && window.tapis.state.my_turn);
  const table = await page.evaluate(() => window.tapis.table);
  server.srv.kill('SIGKILL');
  await page.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => p.textContent ===
    window.tapis.words.lost), { timeout: 10000 });
  await new Promise((r) => setTimeout(r, 2500));   /* a failed try or two */
  const again = await startServer(dir, port);
  await page.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => p.textContent ===
    window.tapis.words.back), { timeout: 15000 });
  const lost = await page.$$eval('#log p', (ps) => ps.filter((p) => p.textContent === window.tapis.words.lost).length);
  assert.strictEqual(lost, 1, 'the loss is said once');
  await page.waitForFunction((t) => window.tapis.table === t && window.tapis.state &&
    window.tapis.state.state === 'playing' && window.tapis.state.my_turn, { timeout: 15000 }, table);
  /* Back on one's turn: what was missed in one summary, the prompt once. */
  await new Promise((r) => setTimeout(r, 500));
  const after = await page.evaluate(() => {
    const ps = [...document.querySelectorAll('#log p')];
    const from = ps.findIndex((p) => p.textContent === window.tapis.words.back);
    return ps.slice(from + 1).map((p) => ({ kind: p.dataset.kind, prompt: p.classList.contains('prompt') }));
  });
  assert.strictEqual(after.filter((p) => p.prompt).length, 1, 'the prompt said once after the reconnection: ' +
    JSON.stringify(after));
  assert.ok(after.filter((p) => p.kind === 'missed').length <= 1, 'the missed messages in one summary');
  await page.focus('#play');
  const moves = await playByKeys(page, 120000);
  await page.close();
  return { moves, server: again };
}

/* The creator's controls of the seats: Gil makes a Le Brouc table with one
 * seat open; Hana sits from the lobby. Before the start Gil opens a bot's
 * seat and gives another to a bot of level 3; in play he removes Hana, who
 * is sent back to the lobby. Every control is named, axe-core finds
 * nothing. */
async function testSeats(browser, port) {
  const gil = await browser.newPage();
  await login(gil, port, 'Gil', 'en');
  const hana = await browser.newPage();
  await login(hana, port, 'Hana', 'en');
  await gil.bringToFront();
  await gil.select('#create-game', 'brouc');
  await gil.select('#create-players', '4');
  await gil.select('#seat-1', 'open');
  await gil.click('#create-form button[type=submit]');
  await gil.waitForSelector('#table:not([hidden])');
  const table = await gil.evaluate(() => window.tapis.table);
  await hana.bringToFront();
  const sit = '#table-line-' + table + ' ~ button.sit';
  await hana.waitForSelector(sit);
  await hana.click(sit);
  await hana.waitForSelector('#table:not([hidden])');
  assert.strictEqual(await hana.$('#seat-kind-0'), null, 'no seat controls but for the creator');
  await gil.bringToFront();
  await gil.waitForSelector('#seat-kick-1', { timeout: 10000 });
  assert.strictEqual(await gil.$('#seat-kind-1'), null, 'a seat held by a player has no kind to choose');
  const label = await gil.$eval('label[for="seat-kind-2"]', (l) => l.textContent);
  assert.strictEqual(label, 'Who plays seat 3', 'the seat control is labelled');
  await named(gil, 'seat controls');
  await axe(gil, 'seat controls');
  const seat = (n) => gil.evaluate((k) => window.tapis.info.seats[k], n);
  await gil.select('#seat-kind-2', 'open');
  await gil.click('#seat-set-2');
  await gil.waitForFunction(() => window.tapis.info.seats[2].state === 'open', { timeout: 10000 });
  await gil.select('#seat-kind-3', 'bot:3');
  /* News of the table that leave its seats as they are (Ivo comes to
   * watch) leave a kind chosen but not yet set, and its button, alone. */
  const setButton = await gil.$('#seat-set-3');
  const ivo = await browser.newPage();
  await login(ivo, port, 'Ivo', 'en');
  await ivo.waitForSelector('#table-line-' + table + ' ~ button.watch');
  await ivo.click('#table-line-' + table + ' ~ button.watch');
  await gil.bringToFront();
  await gil.waitForFunction(() => window.tapis.info.watchers === 1, { timeout: 10000 });
  assert.strictEqual(await gil.$eval('#seat-kind-3', (s) => s.value), 'bot:3', 'a kind chosen stays chosen');
  assert.ok(await gil.evaluate((b) => b.isConnected, setButton), 'the seat list is not made again');
  await ivo.close();
  await gil.click('#seat-set-3');
  await gil.waitForFunction(() => window.tapis.info.seats[3].level === 3, { timeout: 10000 });
  assert.strictEqual((await seat(3)).state, 'bot', 'seat 4: a bot');
  assert.strictEqual(await gil.$eval('#seat-line-3', (e) => e.textContent), 'Seat 4: Denis, bot, level 3.',
    'a bot called by its name');
  assert.strictEqual(await gil.$eval('#seat-kick-1', (b) => b.textContent), 'Remove Hana from the table');
  /* In play the kinds are set; a player may still be removed. */
  await gil.click('#btn-start');
  await gil.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing');
  assert.strictEqual(await gil.$('#seat-kind-2'), null, 'no seat kinds once the game has begun');
  /* The table's sentences call the bot by the name the seat list gives it. */
  await gil.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => p.textContent.includes('Denis (bot)')),
    { timeout: 10000 });
  await gil.click('#seat-kick-1');
  /* Removing a player asks first, as Q does. */
  await gil.waitForSelector('#confirm:not([hidden])');
  assert.ok(/^Remove Hana from the table\?/.test(await gil.$eval('#confirm-q', (e) => e.textContent)), 'Remove asks first');
  assert.strictEqual(await gil.evaluate(() => window.tapis.info.seats[1].state === 'open'), false, 'nobody removed yet');
  await gil.click('#confirm-yes');
  await gil.waitForFunction(() => window.tapis.info.seats[1].state === 'open' && !document.querySelector('#seat-kick-1'),
    { timeout: 10000 });
  await hana.bringToFront();
  await hana.waitForSelector('#lobby:not([hidden])', { timeout: 10000 });
  await gil.bringToFront();
  await leaveTable(gil);
  await gil.waitForSelector('#lobby:not([hidden])');
  await hana.close();
  await gil.close();
  return 0;
}

/* The live lobby: what changes there is spoken as the server phrases it
 * (an arrival, a table made), and the setting "Spoken in the lobby" set to
 * Nothing silences it (and the lobby's chat), kept for the next visit. */
/* The defects a screen reader met: the table read without keys
 * ("Table now", not hidden, not live), T and C at a waiting table, Start
 * before the seats in Tab order, leaving a game under way asks first, a
 * saved table alone, the tab's title on one's turn, the arrivals said. */
async function testScreenReaderDefects(browser, port) {
  /* A name no other part uses: Ugo of the server rules stays seated at a
   * game under way, and his login would go back to it, not to the lobby. */
  const page = await browser.newPage();
  await login(page, port, 'Vera', 'en');
  assert.ok(/^Lobby: \d+ tables?, \d+ (person|people)\.$/.test(await page.$eval('#said', (e) => e.textContent.trim())) ||
    await page.waitForFunction(() => /Lobby: /.test(document.querySelector('#said').textContent), { timeout: 5000 }),
  'the arrival in the lobby is told');
  await page.select('#create-game', 'bourre');
  await page.$eval('#rule-hands', (el) => { el.value = '1'; });
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#btn-start:not([hidden])');
  await page.waitForFunction(() => /Table \d+, Bourré, \d+ players\. Start when ready\./.test(document.querySelector('#said').textContent),
    { timeout: 5000 });
  await page.focus('#play');
  for (const k of ['t', 'c']) assert.strictEqual(await pressAndHear(page, k), 'The game has not begun.', k + ' at a waiting table');
  const order = await page.evaluate(() => !!(document.querySelector('#btn-start').compareDocumentPosition(
    document.querySelector('#seats')) & Node.DOCUMENT_POSITION_FOLLOWING));
  assert.ok(order, 'Start comes before the seats');
  await page.click('#btn-start');
  await page.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing');
  const view = await page.evaluate(() => ({ hidden: !!document.querySelector('#view').closest('[aria-hidden=true]'),
    live: !!document.querySelector('#view').closest('[aria-live], [role=log], [role=status], [role=alert]'),
    scores: document.querySelector('#view-scores').textContent, s: window.tapis.state.keys.S }));
  assert.ok(!view.hidden && !view.live, '"Table now" is read by touch, not live');
  assert.strictEqual(view.scores, view.s, '"Table now" has the scores');
  await page.waitForFunction(() => window.tapis.state.my_turn, { timeout: 10000 });
  assert.ok(/^Your turn/.test(await page.title()), 'the title says it is one\'s turn: ' + await page.title());
  /* The button itself (not leaveTable, which answers Yes): it must ask. */
  await page.click('#btn-leave');
  await page.waitForSelector('#confirm:not([hidden])', { timeout: 5000 });
  assert.strictEqual(await page.evaluate(() => window.tapis.table > 0), true, 'leaving a game under way asks first');
  await page.click('#confirm-yes');
  await page.waitForSelector('#lobby:not([hidden])');
  const alone = await page.evaluate(() => {
    window.tapis.savedTables = [{ id: 9, game: 'brouc', seats: ['Vera', ''] }];
    renderSaved();
    return document.querySelector('#saved-line-9').textContent.trim();
  });
  assert.strictEqual(alone, 'Table 9: Le Brouc, alone.', 'a saved table with nobody else');
  await page.close();
  return 0;
}

async function testLiveLobby(browser, port) {
  const jo = await browser.newPage();
  await login(jo, port, 'Jo', 'en');
  const lobbyTexts = () => jo.$$eval('#log p[data-kind="lobby"], #log p[data-kind="chat"]', (ps) => ps.map((p) => p.textContent));
  const kim = await browser.newPage();
  await login(kim, port, 'Kim', 'en');
  await jo.bringToFront();
  await jo.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => p.textContent === 'Kim arrives.'),
    { timeout: 10000 });
  await kim.bringToFront();
  await kim.select('#create-game', 'brelan');
  await kim.click('#create-form button[type=submit]');
  await kim.waitForSelector('#table:not([hidden])');
  const table = await kim.evaluate(() => window.tapis.table);
  await jo.bringToFront();
  await jo.waitForFunction((t) => [...document.querySelectorAll('#log p')].some((p) => p.textContent.startsWith('New table ' + t + ': Le Brelan, by Kim.')),
    { timeout: 10000 }, table).catch(async (e) => { throw new Error(e + ': ' + (await jo.$$eval('#log p', (ps) => ps.map((p) => p.textContent))).join(' | ')); });
  /* The list follows by its changes (lobby_delta): Kim's table is in Jo's
   * copy; a filter that matches none empties it, cleared brings it back. */
  await jo.waitForFunction((t) => window.tapis.lobby.tables.some((x) => x.id === t) && window.tapis.lobby.seq > 1,
    { timeout: 10000 }, table);
  await jo.type('#table-filter', 'no such table');
  await jo.waitForFunction(() => window.tapis.lobby.filter === 'no such table' && window.tapis.lobby.tables.length === 0,
    { timeout: 10000 });
  await jo.$eval('#table-filter', (i) => { i.value = ''; i.dispatchEvent(new Event('input')); });
  await jo.waitForFunction((t) => window.tapis.lobby.filter === '' && window.tapis.lobby.tables.some((x) => x.id === t),
    { timeout: 10000 }, table);
  /* Nothing: Lea's arrival and Kim's lobby chat are not said. */
  await jo.select('#opt-lobby', 'none');
  const before = (await lobbyTexts()).length;
  const lea = await browser.newPage();
  await login(lea, port, 'Lea', 'en');
  /* The setting is the browser's: Lea's page (the same browser) took
   * Nothing too; she hears all. */
  assert.strictEqual(await lea.$eval('#opt-lobby', (s) => s.value), 'none', 'the setting kept');
  await lea.select('#opt-lobby', 'all');
  await lea.type('#lobby-chat-text', 'hello all');
  await lea.keyboard.press('Enter');
  await lea.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => p.textContent.includes('hello all')),
    { timeout: 10000 });
  await jo.bringToFront();
  await jo.waitForFunction(() => window.tapis.lobby.users.some((u) => u.name === 'Lea'), { timeout: 10000 });
  await new Promise((r) => setTimeout(r, 500));
  assert.strictEqual((await lobbyTexts()).length, before, 'nothing of the lobby said: ' + (await lobbyTexts()).join(' | '));
  await jo.select('#opt-lobby', 'friends');
  await jo.reload({ waitUntil: 'load' });
  await jo.waitForFunction(() => document.querySelector('#opt-lobby').value === 'friends', { timeout: 10000 });
  await jo.select('#opt-lobby', 'all');
  for (const p of [jo, kim, lea]) await p.close();
  return 0;
}

/* The page over https:// and wss://: a server with a self-signed
 * certificate made here (the browser runs with --ignore-certificate-errors),
 * its own store; a Bouillabaisse round played by keys. */
async function testTls(browser, dir) {
  const cert = path.join(dir, 'cert.pem'), key = path.join(dir, 'key.pem');
  const made = require('child_process').spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key,
    '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  assert.strictEqual(made.status, 0, 'openssl made a certificate: ' + made.stderr);
  const server = await startServer(dir, 0, { cert, key, db: 'tls.db' });
  const page = await browser.newPage();
  await spy(page);
  await login(page, server.port, 'Ida', 'en', 'https');
  assert.strictEqual(await page.evaluate(() => window.tapis.ws.url.slice(0, 6)), 'wss://', 'the page speaks over wss://');
  await page.waitForSelector('#rule-hands', { timeout: 10000 });
  await startBouillabaisse(page);
  await page.focus('#play');
  const moves = await playByKeys(page, 120000);
  assert.ok((await logTexts(page)).some((x) => /^Game over/.test(x)), 'the game over wss:// is over');
  await page.close();
  server.srv.kill('SIGTERM');
  return moves;
}

/* ---- touch: a phone's screen, a finger, no keyboard ---- */

const PHONE = { width: 360, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/* Leave the table by its button; a game under way asks first (Yes). */
async function leaveTable(page, touch) {
  await (touch ? tap(page, '#btn-leave') : page.click('#btn-leave'));
  if (await page.evaluate(() => !document.querySelector('#confirm').hidden))
    await (touch ? tap(page, '#confirm-yes') : page.click('#confirm-yes'));
}

/* A tap on what a selector finds once it is shown. */
async function tap(page, sel) {
  const el = await page.waitForSelector(sel, { visible: true, timeout: 10000 });
  await el.tap();
}

/* Text put in a field as a phone's on-screen keyboard does (input events;
 * page.keyboard is never used). */
async function fill(page, sel, text) {
  await page.$eval(sel, (el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }, text);
}

const focused = (page) => page.evaluate(() => { const a = document.activeElement; return a && a !== document.body ? a.id : 'body'; });

/* Nothing wider than the screen, and every control shown at least 44 by
 * 44 CSS pixels. */
async function phoneFits(page, what) {
  const r = await page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll('button, input, select')) {
      const b = el.getBoundingClientRect();
      if (!b.width && !b.height) continue;   /* not shown */
      if (b.width < 44 || b.height < 44) small.push((el.id || el.textContent || el.outerHTML.slice(0, 40)) + ' ' +
        Math.round(b.width) + 'x' + Math.round(b.height));
    }
    return { wide: document.documentElement.scrollWidth, small };
  });
  assert.ok(r.wide <= 360, what + ': the page fits 360 px (' + r.wide + ')');
  assert.deepStrictEqual(r.small, [], what + ': targets under 44 by 44 px');
}

/* One game played to its end by taps: a playable card of the hand, else
 * the first (safest) choice, a question answered Yes. Returns the taps. */
async function playByTaps(page, limitMs) {
  const end = Date.now() + limitMs;
  let taps = 0;
  for (;;) {
    assert.ok(Date.now() < end, 'the game ends in time');
    const st = await page.evaluate(() => {
      const s = window.tapis.state;
      return s && { state: s.state, turn: s.state === 'playing' && s.my_turn, moves: s.moves,
        confirm: !document.querySelector('#confirm').hidden };
    });
    if (st && st.state === 'over') return taps;
    if (!st || !st.turn) { await new Promise((r) => setTimeout(r, 30)); continue; }
    if (st.confirm) await tap(page, '#confirm-yes');
    else if (await page.$('#hand button.playable')) await tap(page, '#hand button.playable');
    else {
      await tap(page, '#choice-0');
      if (await page.evaluate(() => !!window.tapis.confirm)) {
        assert.strictEqual(await focused(page), 'confirm-yes', 'a question takes the focus to Yes');
        await tap(page, '#confirm-yes');
      }
    }
    taps++;
    await page.waitForFunction((n) => { const s = window.tapis.state; return !s || s.moves !== n; },
      { timeout: 10000, polling: 50 }, st.moves).catch(() => {});
  }
}

/* A phone, touch only: log in, make a table of each game and play it to
 * its end by taps; the focus where it should be after the login, the start
 * and the end; the toolbar answers as the keys; a full table offers only
 * Watch to another player, who hears the lobby change; axe clean at 360. */
async function testTouch(browser, port) {
  const lou = await browser.newPage();
  await login(lou, port, 'Lou', 'en');
  const page = await browser.newPage();
  await page.setViewport(PHONE);
  await page.goto('http://127.0.0.1:' + port + '/?lang=en', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('#login-h').textContent.length > 0);
  await phoneFits(page, 'login');
  await axe(page, 'login at 360 px');
  await fill(page, '#login-name', 'Zoe');
  await tap(page, '#login-form button[type=submit]');
  await page.waitForSelector('#lobby:not([hidden])');
  assert.strictEqual(await focused(page), 'lobby-h', 'after the login the focus is on the lobby\'s heading');
  await phoneFits(page, 'lobby');
  await axe(page, 'lobby at 360 px');
  let taps = 0;
  for (const game of ['bouillabaisse', 'bouillotte', 'brelan', 'bourre', 'brouc']) {
    await page.select('#create-game', game);
    if (await page.$('#rule-hands')) await page.$eval('#rule-hands', (el) => { el.value = '1'; });
    await tap(page, '#create-form button[type=submit]');
    await page.waitForSelector('#table:not([hidden])');
    const table = await page.evaluate(() => window.tapis.table);
    if (game === 'bouillabaisse') {
      /* Every seat taken (bots): Lou, in the lobby, hears the new table and
       * may only watch it. */
      await lou.bringToFront();
      await lou.waitForSelector('#table-line-' + table + ' ~ button.watch', { timeout: 10000 });
      assert.strictEqual(await lou.$('#table-line-' + table + ' ~ button.sit'), null, 'a full table offers no seat');
      /* In the server's words (lobby_event). */
      await lou.waitForFunction((t) => [...document.querySelectorAll('#log p[data-kind="lobby"]')]
        .some((p) => p.textContent === 'New table ' + t + ': La Bouillabaisse, by Zoe.'), { timeout: 10000 }, table);
      await page.bringToFront();
    }
    await tap(page, '#btn-start');
    await page.waitForFunction(() => window.tapis.state && window.tapis.state.state !== 'waiting');
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'play', { timeout: 5000 })
      .catch(() => {});
    assert.strictEqual(await focused(page), 'play', game + ': after Start the focus is on the table');
    if (game === 'bouillabaisse') {
      await page.waitForFunction(() => window.tapis.state.my_turn && document.querySelector('#hand button'));
      await phoneFits(page, 'table');
      /* The table's box, touched, says the turn and the last answer. */
      const told = await page.$eval('#play', (e) => (e.getAttribute('aria-describedby') || '').split(' ')
        .map((id) => document.getElementById(id).textContent).join(' '));
      const prompt = await page.evaluate(() => window.tapis.state.prompt);
      assert.ok(prompt && told.includes(prompt), 'touching the table says the turn: "' + told + '"');
      if (shots) {
        await page.$eval('#table', (e) => e.scrollIntoView());
        await page.screenshot({ path: path.join(shotDir, 'web-phone.png'), fullPage: false });
      }
      await axe(page, 'table at 360 px');
      await named(page, 'table at 360 px');
      /* The hand: a button a card, named by the card and whether it plays. */
      const names = await page.$$eval('#hand button', (bs) => bs.map((b) => b.getAttribute('aria-label')));
      const hand = await page.evaluate(() => window.tapis.state.hand);
      assert.deepStrictEqual(names, hand.map((h) => h.name + ', ' + (h.playable ? 'playable' : 'not playable now')),
        'the hand\'s buttons say each card and whether it may be played');
      /* The toolbar answers as the keys. */
      const keys = await page.evaluate(() => window.tapis.state.keys);
      for (const k of ['C', 'S', 'T', 'N', 'L']) {
        await tap(page, '#queries button[data-key="' + k + '"]');
        await page.waitForFunction((x) => { const a = document.querySelector('#answers').lastElementChild;
          return a && a.textContent === x; }, { timeout: 5000 }, keys[k]);
      }
      const bar = await page.$$eval('#queries button', (bs) => bs.map((b) => b.dataset.key));
      for (const k of ['C', 'F', 'R', 'S', 'T', 'L', 'N', 'H', '?', 'F1']) assert.ok(bar.includes(k), 'the toolbar has ' + k + ': ' + bar);
      /* F1 says the few keys of the moment first, all of them on F1 again. */
      await tap(page, '#queries button[data-key="F1"]');
      await page.waitForFunction(() => /F1 again/.test(document.querySelector('#answers').lastElementChild.textContent),
        { timeout: 5000 });
      await tap(page, '#queries button[data-key="F1"]');
      await page.waitForFunction(() => /L: /.test(document.querySelector('#answers').lastElementChild.textContent),
        { timeout: 5000 });
      const help = await page.$eval('#answers', (a) => a.lastElementChild.textContent);
      assert.ok(/L: the last trick/.test(help) && /N: /.test(help), 'F1 names L and N: ' + help);
      assert.ok(!/F2|chat line|saved/.test(help), 'F1 names no key of the terminal alone: ' + help);
      /* V's choice is a checkbox too; the server answers it. */
      for (const said of ['Short announcements.', 'Full announcements.']) {
        await tap(page, '#opt-short');
        await page.waitForFunction((x) => [...document.querySelectorAll('#log p')].some((p) => p.textContent === x),
          { timeout: 10000 }, said);
      }
    }
    taps += await playByTaps(page, 120000);
    /* The server offers a rematch: its button takes the focus, the result
     * line as its description. */
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'btn-rematch', { timeout: 5000 })
      .catch(() => {});
    assert.strictEqual(await focused(page), 'btn-rematch', game + ': after the game the focus is on the rematch');
    assert.strictEqual(await page.$eval('#btn-rematch', (e) => e.getAttribute('aria-describedby')), 'result');
    assert.ok(/over/i.test(await page.$eval('#result', (e) => e.textContent)), game + ': the result says the game is over');
    if (game === 'bouillabaisse') {
      /* One tap: the table starts again (the only person said yes). */
      const before = await page.evaluate(() => window.tapis.state.moves);
      const lines = await page.$$eval('#log p', (ps) => ps.length);
      await tap(page, '#btn-rematch');
      await page.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing', { timeout: 10000 });
      assert.ok(await page.$eval('#btn-rematch', (e) => e.hidden), 'the rematch button goes once the game starts again');
      assert.ok((await page.evaluate(() => window.tapis.state.moves)) <= before, 'a new game');
      /* The seats turn at a rematch: the seat list names each bot as the
       * new game's sentences do. */
      await page.waitForFunction((n) => [...document.querySelectorAll('#log p')].slice(n).some((p) => /\(bot\)/.test(p.textContent)),
        { timeout: 10000 }, lines);
      const bots = await page.$$eval('#seats li span', (ss) => ss.map((x) => x.textContent).filter((t) => /, bot, level/.test(t))
        .map((t) => /^Seat \d+: (.+), bot, level \d\.$/.exec(t)[1]));
      assert.strictEqual(bots.length, 3, 'the seat list names the three bots: ' + bots);
      const told = await page.$$eval('#log p', (ps, n) => ps.slice(n).map((p) => p.textContent).join(' '), lines);
      for (const m of told.matchAll(/(\S+) \(bot\)/g)) assert.ok(bots.includes(m[1]), m[1] + ' (bot) is in the seat list: ' + bots);
    }
    await leaveTable(page, true);
    await page.waitForSelector('#lobby:not([hidden])');
  }
  await page.close();
  await lou.close();
  return taps;
}

/* Coming back: a guest reloads the page in the middle of a game and is
 * back at the same seat, with the messages of before, the focus on the
 * table; ?lang=fr gives French; the language changed at the table; the
 * settings kept; Escape in the chat line goes back to the table. */
async function testComeBack(browser, port) {
  const page = await browser.newPage();
  await spy(page);
  await login(page, port, 'Kim', 'en');
  await startBouillabaisse(page);
  await page.waitForFunction(() => window.tapis.state.my_turn);
  await page.focus('#table-chat-text');
  await page.keyboard.press('Escape');
  assert.strictEqual(await focused(page), 'play', 'Escape in the chat line goes back to the table');
  await page.click('#opt-large');
  const before = await page.evaluate(() => ({ table: window.tapis.table, seat: window.tapis.seat,
    log: [...document.querySelectorAll('#log p')].map((p) => p.textContent) }));
  assert.ok(before.log.length > 3, 'some messages before the reload');
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction((t) => window.tapis.table === t && window.tapis.state && window.tapis.state.state === 'playing',
    { timeout: 15000 }, before.table);
  assert.strictEqual(await page.evaluate(() => window.tapis.seat), before.seat, 'back at the same seat');
  const after = await page.$$eval('#log p', (ps) => ps.map((p) => p.textContent));
  assert.deepStrictEqual(after.slice(0, before.log.length), before.log, 'the history is back');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'play', { timeout: 5000 })
    .catch(() => {});
  assert.strictEqual(await focused(page), 'play', 'after a reload the focus is on the table');
  assert.ok(await page.evaluate(() => document.body.classList.contains('large') && document.querySelector('#opt-large').checked),
    'large print is kept');
  /* The turn prompt once: the missed messages as one summary, without it. */
  await page.waitForFunction(() => window.tapis.state.my_turn);
  await new Promise((r) => setTimeout(r, 300));
  const fresh = await page.$$eval('#log p:not(.old)', (ps) => ps.map((p) => ({ kind: p.dataset.kind, cls: p.className })));
  assert.ok(fresh.filter((p) => p.cls === 'prompt').length <= 1, 'the prompt said once after the reload: ' + JSON.stringify(fresh));
  assert.ok(fresh.filter((p) => p.kind === 'missed').length <= 1, 'the missed messages in one summary');
  /* The page's own reconnection: a card played and the connection dropped;
   * what the bots did meanwhile comes back as one summary, headed and ended
   * by the server (where the game stands: missed.now), no word of the page. */
  await page.evaluate(() => { window.__missed = null; });
  await page.evaluate(() => { document.querySelector('#hand button.playable').click(); window.tapis.ws.close(); });
  await page.waitForFunction(() => window.__missed, { timeout: 15000 });
  const mm = await page.evaluate(() => window.__missed);
  assert.strictEqual(mm.heading, 'While you were away:', 'the server heads the summary');
  assert.ok(mm.now && mm.now.length > 10, 'the server says where the game stands: ' + JSON.stringify(mm));
  await page.waitForFunction((n) => [...document.querySelectorAll('#log p[data-kind="missed"]')].some((p) =>
    p.textContent.startsWith('While you were away: ') && p.textContent.endsWith(n)), { timeout: 5000 }, mm.now)
    .catch(() => {});
  const summary = await page.$$eval('#log p[data-kind="missed"]', (ps) => ps.map((p) => p.textContent));
  assert.ok(summary.some((t) => t.startsWith('While you were away: ') && t.endsWith(mm.now)),
    'the summary as the server phrases it: ' + JSON.stringify(summary));
  await page.waitForFunction(() => window.tapis.state && window.tapis.state.my_turn, { timeout: 15000 });
  /* Another language at the table: the page's words and the server's. */
  await page.select('#opt-lang', 'fr');
  await page.waitForFunction(() => document.documentElement.lang === 'fr' && window.tapis.state &&
    window.tapis.state.hand.length && window.tapis.state.hand.every((h) => / (de|d')/.test(h.name)), { timeout: 15000 });
  assert.strictEqual(await page.$eval('#btn-leave', (b) => b.textContent), 'Quitter la table', 'the page in French');
  assert.strictEqual(await page.evaluate(() => window.tapis.table), before.table, 'still at the table');
  await page.click('#opt-large');
  /* Q asks (the alert region, Yes and No buttons); No goes on, Yes leaves. */
  await page.focus('#play');
  const q = await pressAndAlert(page, 'q');
  assert.strictEqual(q, await page.evaluate(() => window.tapis.words.quit), 'Q asks first');
  await page.click('#confirm-no');
  assert.strictEqual(await page.evaluate(() => window.tapis.table), before.table, 'No: still at the table');
  assert.ok(await page.$eval('#confirm', (e) => e.hidden), 'the question is gone');
  await pressAndAlert(page, 'q');
  await page.click('#confirm-yes');
  await page.waitForSelector('#lobby:not([hidden])');
  assert.strictEqual(await focused(page), 'lobby-h', 'back in the lobby, on its heading');
  await page.close();
  /* ?lang=fr in the address, whatever was chosen before. */
  const fr = await browser.newPage();
  await fr.goto('http://127.0.0.1:' + port + '/?lang=fr', { waitUntil: 'load' });
  await fr.waitForFunction(() => window.tapis.words.login, { timeout: 10000 });
  assert.strictEqual(await fr.evaluate(() => document.documentElement.lang), 'fr', '?lang=fr gives French');
  assert.strictEqual(await fr.$eval('#login-lang', (s) => s.value), 'fr', 'the login form says French');
  /* The icons and the manifest of an installable page. */
  const got = await fr.evaluate(async () => {
    const out = {};
    for (const f of ['manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png']) {
      const r = await fetch(f);
      out[f] = r.ok ? (await r.arrayBuffer()).byteLength : 0;
    }
    out.manifest = await (await fetch('manifest.webmanifest')).json().catch(() => null);
    return out;
  });
  for (const f of ['manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png']) assert.ok(got[f] > 0, f + ' is served');
  assert.ok(got.manifest && got.manifest.icons.length >= 2 && got.manifest.start_url, 'the manifest names its icons');
  await fr.close();
  return 0;
}

/* Every state the page gets goes through rewrite(m) first (in the page). */
async function rewriteStates(page, rewrite) {
  await page.evaluateOnNewDocument((src) => {
    const rw = new Function('m', src);
    const Orig = window.WebSocket;
    const d = Object.getOwnPropertyDescriptor(Orig.prototype, 'onmessage');
    window.WebSocket = function (url, proto) {
      const ws = new Orig(url, proto);
      Object.defineProperty(ws, 'onmessage', {
        get() { return d.get.call(ws); },
        set(f) {
          d.set.call(ws, f && ((ev) => {
            const m = JSON.parse(ev.data);
            if (m.type === 'state') rw(m);
            f({ data: JSON.stringify(m) });
          }));
        },
      });
      return ws;
    };
    window.WebSocket.prototype = Orig.prototype;
    Object.assign(window.WebSocket, { OPEN: Orig.OPEN, CLOSED: Orig.CLOSED, CONNECTING: Orig.CONNECTING });
  }, rewrite);
}

/* A Bouillotte table of three, one deal, the straddle as given; the page
 * waits for its first turn and gives its state. */
async function bouillotteTurn(page, straddle) {
  await page.select('#create-game', 'bouillotte');
  await page.select('#create-players', '3');
  await page.$eval('#rule-hands', (el) => { el.value = '1'; });
  await page.select('#rule-straddle', straddle);
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#btn-start:not([hidden])');
  await page.click('#btn-start');
  await page.waitForFunction(() => { const s = window.tapis.state; return s && s.my_turn && document.querySelector('#choices button'); },
    { timeout: 15000 });
  return page.evaluate(() => window.tapis.state);
}

/* A rule of the server's table and nothing else: with the straddle, the
 * first turn before the deal offers it; without it, the same page offers
 * none. F1 says what the state says F1 says, the toolbar names L as the
 * state does, in the person's language. */
async function testRuleOptions(browser, port) {
  const page = await browser.newPage();
  await login(page, port, 'Tess', 'en');
  const yes = await bouillotteTurn(page, 'yes');
  const acts = (st) => st.choices.map((c) => c.action.split(' ')[0]);
  const shown = () => page.$$eval('#choices button', (bs) => bs.map((b) => b.textContent));
  assert.ok(acts(yes).includes('straddle'), 'the straddle offered: ' + acts(yes));
  assert.deepStrictEqual(await shown(), yes.menu.map((k) => yes.choices[k].label), 'the buttons are the state\'s choices');
  assert.ok(yes.f1 && yes.f1.brief && yes.f1.all && yes.f1.menu, 'the state says what F1 says: ' + JSON.stringify(yes.f1));
  await page.focus('#play');
  assert.strictEqual(await pressAndHear(page, 'F1'), yes.f1.brief, 'F1 says the state\'s short list');
  assert.strictEqual(await pressAndHear(page, 'F1'), yes.f1.all, 'F1 again says the state\'s whole list');
  assert.ok(/L: the last showdown/.test(yes.f1.all) && !/last trick|F2|chat line|saved/.test(yes.f1.all),
    'L as the state says it, no key of the terminal alone: ' + yes.f1.all);
  assert.ok(/leave the table/.test(yes.f1.all), 'Q leaves the table at the page: ' + yes.f1.all);
  const l = await page.$eval('#queries button[data-key="L"]', (b) => b.getAttribute('aria-label'));
  assert.ok(/last showdown/.test(l), 'the toolbar\'s L as the state says it: ' + l);
  await pressAndHear(page, 'Enter');   /* the menu open: F1 says its keys */
  assert.strictEqual(await pressAndHear(page, 'F1'), yes.f1.menu, 'F1 in the menu says the state\'s menu keys');
  await pressAndHear(page, 'Escape');
  await leaveTable(page);
  await page.waitForSelector('#lobby:not([hidden])');
  await page.close();
  const fr = await browser.newPage();
  await login(fr, port, 'Ugo', 'fr');
  const no = await bouillotteTurn(fr, 'no');
  assert.ok(!acts(no).includes('straddle'), 'no straddle offered: ' + acts(no));
  assert.deepStrictEqual(await fr.$$eval('#choices button', (bs) => bs.map((b) => b.textContent)),
    no.menu.map((k) => no.choices[k].label), 'the buttons are the state\'s choices');
  await fr.focus('#play');
  const brief = await pressAndHear(fr, 'F1');
  assert.strictEqual(brief, no.f1.brief, 'F1 says the state\'s short list');
  assert.ok(brief.length > 20 && !/F1 again|the cards/.test(brief), 'F1 in French: ' + brief);
  await fr.close();
  return 0;
}

/* The page keeps no rule: what the server's state says, it follows. A
 * state rewritten on its way (as a server with other rules would send it:
 * the menu in another order, other cards playable) changes the page's
 * buttons, its menu and its names of the cards, nothing else needed. */
async function testServerRules(browser, port) {
  /* Bouillotte: the menu the other way round. */
  const page = await browser.newPage();
  await rewriteStates(page, 'if (m.menu) m.menu.reverse();');
  await login(page, port, 'Rui', 'en');
  await page.select('#create-game', 'bouillotte');
  await page.select('#create-players', '3');
  await page.$eval('#rule-hands', (el) => { el.value = '1'; });
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#btn-start:not([hidden])');
  await page.click('#btn-start');
  await page.waitForFunction(() => { const s = window.tapis.state; return s && (s.my_turn || s.state === 'over'); },
    { timeout: 15000 });
  const st = await page.evaluate(() => window.tapis.state);
  assert.ok(st.choices.length >= 2 && st.menu.length === st.choices.length, 'a menu to order: ' + JSON.stringify(st.menu));
  const want = st.menu.map((k) => st.choices[k].label);
  assert.deepStrictEqual(await page.$$eval('#choices button', (bs) => bs.map((b) => b.textContent)), want,
    'the choices in the order the server gives');
  await page.focus('#play');
  assert.ok((await pressAndHear(page, 'Enter')).startsWith(want[0]), 'the menu opens on the server\'s first choice');
  await pressAndHear(page, 'Escape');
  await page.close();
  /* Bouillabaisse: of the hand, only the last card may be played. */
  const page2 = await browser.newPage();
  await rewriteStates(page2, 'if (m.hand && m.hand.some((h) => h.playable)) ' +
    'm.hand.forEach((h, i) => { h.playable = i === m.hand.length - 1; }); ' +
    'if (m.f1) m.f1.brief = "From the server. " + m.f1.brief;');
  await login(page2, port, 'Sam', 'en');
  await startBouillabaisse(page2);
  await page2.waitForFunction(() => window.tapis.state.my_turn && document.querySelector('#hand button'), { timeout: 15000 });
  const labels = await page2.$$eval('#hand button', (bs) => bs.map((b) => b.getAttribute('aria-label')));
  assert.ok(labels.length > 1, 'a hand');
  assert.ok(labels.slice(0, -1).every((l) => / not playable now$/.test(l)) && /, playable$/.test(labels[labels.length - 1]),
    'the hand says playable what the server says: ' + labels);
  assert.strictEqual(await page2.$$eval('#hand button.playable', (bs) => bs.length), 1, 'one card shown playable');
  await page2.focus('#play');
  assert.ok((await pressAndHear(page2, 'F1')).startsWith('From the server. '), 'F1 says what the state says');
  await page2.close();
  return testRuleOptions(browser, port);
}

/* The key model: the page moves its cursor over the lists the state
 * names (state.cursor), and over nothing of its own. The lists changed on
 * their way, as a server with another rule would send them: Right by suit
 * (Down's lists), Left's word at the first card, the turn's start on the
 * last card; the page follows them (the server's own, kept aside, differ). */
async function testKeyModel(browser, port) {
  const page = await browser.newPage();
  await rewriteStates(page, 'if (m.cursor && m.cursor.hand) { window.__cursor = JSON.parse(JSON.stringify(m.cursor)); ' +
    'const h = m.cursor.hand; h.ArrowRight = h.ArrowDown; h.ArrowLeft = { ...h.ArrowLeft, said: "From the server." }; ' +
    'm.cursor.turn = m.cursor.turn.map(() => m.cursor.turn.length - 1); }');
  await login(page, port, 'Kit', 'en');
  await startBouillabaisse(page);
  await page.waitForFunction(() => window.tapis.state.my_turn && document.querySelector('#hand button'), { timeout: 15000 });
  await page.focus('#play');
  const st = await page.evaluate(() => window.tapis.state);
  const own = await page.evaluate(() => window.__cursor);
  assert.ok(own && own.hand.ArrowRight && own.turn && own.amount, 'the state says how the cursor moves: ' + JSON.stringify(own));
  assert.strictEqual(own.hand.ArrowRight.to.length, st.hand.length, 'a place for every card');
  assert.strictEqual(own.hand.ArrowRight.to[0], 1, 'the server\'s Right: the next card');
  assert.strictEqual(await page.evaluate(() => window.tapis.sel), st.hand.length - 1, 'the turn begins where the state says');
  await pressAndHear(page, 'Home');
  await pressAndHear(page, 'Home');
  assert.strictEqual(await page.evaluate(() => window.tapis.sel), 0, 'Home twice: the first card');
  assert.ok((await pressAndHear(page, 'ArrowLeft')).startsWith('From the server. '), 'Left\'s edge in the state\'s words');
  await pressAndHear(page, 'ArrowRight');
  const by = st.cursor.hand.ArrowDown.to[0];
  assert.strictEqual(await page.evaluate(() => window.tapis.sel), by, 'Right by suit, as the state says: ' + by);
  await page.close();
  return 0;
}

/* Among friends: a private table's member invites someone online with the
 * Invite button; the person hears the invitation and sits without the
 * table's password. */
async function testInvitation(browser, port) {
  const lena = await browser.newPage();
  await login(lena, port, 'Lena', 'en');
  const milo = await browser.newPage();
  await login(milo, port, 'Milo', 'fr');
  let asked = 0;
  milo.on('dialog', (d) => { asked++; d.dismiss(); });
  lena.on('dialog', (d) => d.accept('Milo'));
  await lena.bringToFront();
  await lena.select('#create-game', 'brouc');
  await lena.select('#create-players', '4');
  await lena.select('#seat-1', 'open');
  await lena.click('#create-private');
  await lena.type('#create-password', 'door');
  await lena.click('#create-form button[type=submit]');
  await lena.waitForSelector('#table:not([hidden])');
  const table = await lena.evaluate(() => window.tapis.table);
  await lena.click('#btn-invite');
  await lena.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => /Invitation sent to Milo/.test(p.textContent)),
    { timeout: 10000 });
  await milo.bringToFront();
  await milo.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => /Lena vous invite/.test(p.textContent)),
    { timeout: 10000 });
  const sit = '#table-line-' + table + ' ~ button.sit';
  await milo.waitForSelector(sit);
  await milo.click(sit);
  await milo.waitForSelector('#table:not([hidden])', { timeout: 10000 });
  assert.strictEqual(asked, 0, 'no password asked of the person invited');
  assert.strictEqual(await milo.evaluate(() => window.tapis.seat), 1, 'sat at the first open seat');
  /* Lena's chat muted for Milo alone: a toggle in the list of who is here. */
  await leaveTable(milo);
  await milo.waitForSelector('#lobby:not([hidden])');
  const mute = await milo.waitForSelector('#online button.mute[data-name="Lena"]');
  assert.strictEqual(await mute.evaluate((b) => b.textContent + '|' + b.getAttribute('aria-pressed')), 'Ne plus entendre Lena|false');
  /* Clicked in the page at once: a lobby update may make the list again. */
  await milo.$eval('#online button.mute[data-name="Lena"]', (b) => b.click());
  await milo.waitForFunction(() => [...document.querySelectorAll('#log p')].some((p) => /n'entendrez plus les messages de Lena/.test(p.textContent)),
    { timeout: 10000 });
  assert.strictEqual(await milo.$eval('#online button.mute[data-name="Lena"]', (b) => b.getAttribute('aria-pressed')), 'true');
  await lena.close();
  await milo.close();
  return 0;
}

/* A page whose hello is bound elsewhere ("going"), as `tapis join
 * --create` or `--table` sends it: the person is not put back at the
 * seats they hold, and a seat held where a game goes on is asked about
 * at the next sit or create (the page's own hello never says so: a
 * person coming back there is put back at their seat). */
async function goingElsewhere(page) {
  await page.evaluateOnNewDocument(() => {
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (d) {
      try {
        const m = JSON.parse(d);
        if (m.type === 'hello') d = JSON.stringify(Object.assign(m, { going: true }));
      } catch (e) { /* not JSON */ }
      return send.call(this, d);
    };
  });
}

/* The server's question, once the box shows it: its words, the alert
 * region's last line, where the focus is, the choices' words. */
async function question(page) {
  await page.waitForSelector('#ask:not([hidden])', { timeout: 10000 });
  await page.waitForFunction(() => { const a = document.querySelector('#alert').lastElementChild;
    return a && a.textContent.replace(/\u200b$/, '') === document.querySelector('#ask-q').textContent; }, { timeout: 5000 })
    .catch(() => {});
  return page.evaluate(() => ({ text: document.querySelector('#ask-q').textContent,
    alert: (document.querySelector('#alert').lastElementChild || { textContent: '' }).textContent.replace(/\u200b$/, ''),
    focus: document.activeElement && document.activeElement.textContent,
    choices: [...document.querySelectorAll('#ask-choices button')].map((b) => b.textContent),
    table: window.tapis.table }));
}

/* The question about a seat held at another table: Oda (an account)
 * leaves a game in play at table A, her seat waiting; back bound for a
 * table of her own, making a table is answered by the question (said by
 * the alert region, the focus on its first choice, nothing made); Enter
 * on "keep" takes her back to her seat at A. Away again and back, a sit
 * at Pim's table is asked about the same way; "give it up" sits her
 * there, and her seat at A goes to a bot. */
async function testSeatHeld(browser, port) {
  const first = await browser.newPage();
  await login(first, port, 'Oda', 'en', null, 'oda-secret');
  await startBouillabaisse(first);
  const tableA = await first.evaluate(() => window.tapis.table);
  const seatA = await first.evaluate(() => window.tapis.seat);
  const held = 'You hold seat ' + (seatA + 1) + ' at table ' + tableA +
    ', where the game goes on: keep it and go back, or give it up?';
  const back = 'Keep the seat and go back to table ' + tableA;
  await first.close();
  /* Back, bound elsewhere: in the lobby, a table made is asked about. */
  const second = await browser.newPage();
  await goingElsewhere(second);
  await login(second, port, 'Oda', 'en', null, 'oda-secret');
  assert.strictEqual(await second.evaluate(() => window.tapis.table), 0, 'not put back at table ' + tableA);
  await second.select('#create-game', 'bourre');
  await second.click('#create-form button[type=submit]');
  let q = await question(second);
  assert.strictEqual(q.text, held, 'the question names the seat held');
  assert.strictEqual(q.alert, held, 'the question is said at once (the alert region)');
  assert.deepStrictEqual(q.choices, [back, 'Give it up and make the new table'], 'its two answers');
  assert.strictEqual(q.focus, back, 'the focus on the first answer, which keeps the seat');
  assert.strictEqual(q.table, 0, 'nothing made before the answer');
  /* Enter on the first answer: back at the seat held, the game going on. */
  await second.keyboard.press('Enter');
  await second.waitForFunction((t) => window.tapis.table === t && window.tapis.state &&
    window.tapis.state.state === 'playing', { timeout: 10000 }, tableA);
  assert.strictEqual(await second.evaluate(() => window.tapis.seat), seatA, 'back at the same seat');
  assert.ok(await second.$eval('#ask', (e) => e.hidden), 'the question is gone');
  await second.close();
  /* Pim's table waits for a player; Oda, away again and back bound
   * elsewhere, sits there: asked, she gives her seat at A up. */
  const pim = await browser.newPage();
  await login(pim, port, 'Pim', 'en');
  await pim.select('#create-game', 'brouc');
  await pim.select('#create-players', '4');
  await pim.select('#seat-1', 'open');
  await pim.click('#create-form button[type=submit]');
  await pim.waitForSelector('#table:not([hidden])');
  const tableB = await pim.evaluate(() => window.tapis.table);
  const third = await browser.newPage();
  await goingElsewhere(third);
  await login(third, port, 'Oda', 'en', null, 'oda-secret');
  const sit = '#table-line-' + tableB + ' ~ button.sit';
  await third.waitForSelector(sit, { timeout: 10000 });
  await third.click(sit);
  q = await question(third);
  assert.strictEqual(q.text, held, 'a sit is asked about too');
  assert.deepStrictEqual(q.choices, [back, 'Give it up and sit at this table'], 'its two answers at a sit');
  assert.strictEqual(q.table, 0, 'not seated before the answer');
  await third.click('#ask-choices button:nth-child(2)');
  await third.waitForFunction((t) => window.tapis.table === t && window.tapis.seat >= 0, { timeout: 10000 }, tableB);
  assert.ok(await third.$eval('#ask', (e) => e.hidden), 'the question is gone');
  /* Her seat at A is a bot's now (its game may be over since): back in
   * the lobby, her list says what a newcomer's says. */
  await leaveTable(third);
  await third.waitForSelector('#lobby:not([hidden])');
  const entryOf = (page) => page.evaluate((t) => JSON.stringify((window.tapis.lobby.tables.find((y) => y.id === t) ||
    { gone: true }).seats || 'gone'), tableA);
  const quin = await browser.newPage();
  await login(quin, port, 'Quin', 'en');
  await quin.waitForFunction(() => window.tapis.lobby.tables.length > 0, { timeout: 10000 });
  const fresh = await entryOf(quin);
  assert.ok(!/"Oda"/.test(fresh), 'the seat given up at table ' + tableA + ': ' + fresh);
  await third.waitForFunction((t, want) => JSON.stringify((window.tapis.lobby.tables.find((y) => y.id === t) ||
    { gone: true }).seats || 'gone') === want, { timeout: 10000 }, tableA, fresh).catch(() => {});
  assert.strictEqual(await entryOf(third), fresh, 'her lobby is fresh: table ' + tableA + ' as a newcomer sees it');
  await quin.close();
  await third.close();
  await pim.close();
  return 0;
}

/* A line of the page's log (what it said) matching re, waited for. */
function logged(page, re) {
  return page.waitForFunction((src) => [...document.querySelectorAll('#log p')].some((p) => new RegExp(src).test(p.textContent)),
    { timeout: 10000 }, re.source);
}

/* A moderator's buttons in the list of who is here: an account that is
 * no moderator is refused in its language; the moderator (named by
 * tapis admin while the server runs) mutes a guest and removes them from
 * the server, each with a reason said to them; the audit keeps both. */
async function testModeration(browser, port, dir) {
  const mona = await browser.newPage();
  await login(mona, port, 'Mona', 'en', null, 'mona-secret');
  const role = require('child_process').spawnSync(tapis, ['admin', '--db', path.join(dir, 'server.db'), 'role', 'Mona', 'moderator'],
    { env: env(), encoding: 'utf8' });
  assert.strictEqual(role.status, 0, 'tapis admin role: ' + role.stderr);
  const ned = await browser.newPage();
  await login(ned, port, 'Ned', 'fr', null, 'ned-secret');
  const pia = await browser.newPage();
  await login(pia, port, 'Pia', 'en');
  /* A guest has no moderator's buttons. */
  await pia.waitForSelector('#online button.mute[data-name="Ned"]');
  assert.strictEqual(await pia.$$eval('#online button.mod', (bs) => bs.length), 0, 'no moderation for a guest');
  /* Ned is no moderator: refused, in French. */
  ned.on('dialog', (d) => d.accept(''));
  await ned.bringToFront();
  await ned.waitForSelector('#online button.mod[data-name="Pia"]');
  await ned.$eval('#online button.mod[data-name="Pia"]', (b) => b.click());
  await logged(ned, /seul un modérateur peut faire cela/);
  /* Mona mutes Pia, with a reason; then removes her from the server. */
  const reasons = ['flooding the chat', 'insults'];
  mona.on('dialog', (d) => d.accept(reasons.shift()));
  await mona.bringToFront();
  await mona.waitForSelector('#online button.mod[data-name="Pia"]');
  const labels = await mona.$$eval('#online button.mod[data-name="Pia"]', (bs) => bs.map((b) => b.textContent));
  assert.deepStrictEqual(labels.length, 3, 'mute, remove and ban: ' + labels.join(' | '));
  await mona.$$eval('#online button.mod[data-name="Pia"]', (bs) => bs[0].click());
  await logged(mona, /Pia is muted\./);
  /* A page in the background has its timers slowed: Pia's in front to hear. */
  await pia.bringToFront();
  await logged(pia, /A moderator muted you for \d+ minutes?\. Reason: flooding the chat/);
  await mona.bringToFront();
  await mona.$$eval('#online button.mod[data-name="Pia"]', (bs) => bs[1].click());
  await logged(mona, /Pia is removed from the server\./);
  await pia.bringToFront();
  await logged(pia, /A moderator removed you from the server\. Reason: insults/);
  const list = require('child_process').spawnSync(tapis, ['admin', '--db', path.join(dir, 'server.db'), 'list'],
    { env: env(), encoding: 'utf8' });
  assert.match(list.stdout, /audit .*Mona mute Pia.*flooding the chat/);
  assert.match(list.stdout, /audit .*Mona kick Pia.*insults/);
  for (const p of [mona, ned, pia]) await p.close();
  return 2;
}

async function main() {
  if (!fs.existsSync(chromium)) {
    console.error('web: ' + chromium + ' is missing (Debian: apt-get install chromium)');
    process.exit(1);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapis-web-'));
  let server = await startServer(dir);
  const port = server.port;
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    /* Pages in the background (two players at once) are not slowed down. */
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required',
      '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows',
      '--disable-renderer-backgrounding', '--ignore-certificate-errors'],
  });
  let failed = 0;
  for (const [name, t] of [['bouillabaisse', testBouillabaisse], ['bouillotte', testBouillotte],
    ['brelan, bourre, brouc', testOtherGames], ['server restarted', async (b, p, d) => {
      const r = await testReconnect(b, p, d, server);
      server = r.server;
      return r.moves;
    }], ['seat controls', testSeats], ['wss://', (b, p, d) => testTls(b, d)], ['touch', testTouch],
    ['coming back', testComeBack], ['server rules', testServerRules], ['key model', testKeyModel], ['invitation', testInvitation],
    ['live lobby', testLiveLobby], ['moderation', testModeration], ['screen reader defects', testScreenReaderDefects],
    ['seat held', testSeatHeld]]
    .filter(([name]) => !process.env.TAPIS_WEB_ONLY || name === process.env.TAPIS_WEB_ONLY)) {
    const start = Date.now();
    try {
      const moves = await t(browser, port, dir);
      console.log('web: ' + name + ': ok (' + moves + (name === 'touch' ? ' taps, ' : ' moves by keys, ') + (Date.now() - start) + ' ms)');
    } catch (e) {
      failed++;
      console.log('web: ' + name + ': FAILED: ' + (e.stack || e));
    }
  }
  await browser.close();
  cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e); cleanup(); process.exit(1); });
