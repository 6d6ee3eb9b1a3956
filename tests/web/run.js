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
 *
 * Usage: node tests/web/run.js [BUILD] (from the top of the tree);
 * TAPIS_WEB_ONLY=NAME runs only the part of that name ("bouillotte"). */
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
    const Orig = window.WebSocket;
    window.WebSocket = function (url, proto) {
      const ws = new Orig(url, proto);
      ws.addEventListener('message', (ev) => {
        try {
          const m = JSON.parse(ev.data);
          if (m.type === 'say' && m.text) window.__says.push(m.text);
          if (m.type === 'missed') for (const x of m.says) if (x.type === 'say' && x.text) window.__says.push(x.text);
        } catch (e) { /* not ours */ }
      });
      return ws;
    };
    window.WebSocket.prototype = Orig.prototype;
    Object.assign(window.WebSocket, { OPEN: Orig.OPEN, CLOSED: Orig.CLOSED, CONNECTING: Orig.CONNECTING });
  });
}

async function login(page, port, name, lang, scheme) {
  await page.goto((scheme || 'http') + '://127.0.0.1:' + port + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('#login-h').textContent.length > 0);
  if (lang) {
    await page.select('#login-lang', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, {}, lang);
  }
  await page.type('#login-name', name);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#lobby:not([hidden])');
}

/* Every announcement the page put in its live region. */
const logTexts = (page) => page.$$eval('#log p[data-kind="say"]', (ps) => ps.map((p) => p.textContent));
const lastAnswer = (page) => page.$eval('#answers', (a) => (a.lastElementChild ? a.lastElementChild.textContent : ''));

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
  const q = await pressAndHear(page, 'Enter');
  assert.ok(q.startsWith(items[marked].label) && /O pour confirmer/.test(q), 'a marked choice asks first: ' + q);
  assert.strictEqual(await pressAndHear(page, 'n'), 'Rien de fait.', 'another key goes back');
  assert.strictEqual(await page.evaluate(() => window.tapis.state.moves), moves0, 'nothing was played');
  await go(r);
  await pressAndHear(page, 'End');
  assert.ok(/O pour confirmer/.test(await pressAndHear(page, 'Enter')), 'the most of the range asks');
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
    const heard = await pressAndHear(page, k);
    assert.ok(heard.length > 0, k + ' answers');
    assert.strictEqual(heard, keys[k.toUpperCase()], k + ' says the answer of the view');
  }
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
  const urgent = await page.$$eval('#log p.urgent', (ps) => ps.map((p) => p.textContent));
  assert.ok(urgent.length >= moves && urgent.every((t) => /^Your turn/.test(t)), 'the turn prompts were assertive');
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
 * server names the seats (Anne, Bruno, Claire...) whoever holds them. */
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
    String(table), '--seat', '1', '--actions', actions, '--chat', 'hello from Carl'],
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
  assert.ok(sent.some((s) => /^Bruno (joue|passe|ouvre|suit|relance|abandonne)/.test(s)), 'Bea heard Carl (seat 2, Bruno) play, in French:\n' +
    sent.join('\n'));
  const code = await new Promise((resolve) => {
    if (carl.exitCode !== null) resolve(carl.exitCode);
    carl.on('exit', resolve);
    setTimeout(() => resolve('timeout'), 15000);
  });
  assert.ok(/^Anne (passes|opens|calls|raises|folds|goes|is all)/m.test(carlOut), 'Carl heard Bea (seat 1, Anne) play:\n' + carlOut);
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
      const sit = '#table-line-' + table + ' ~ button';
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
    await page.click('#btn-leave');
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
    window.tapis.state.state === 'playing', { timeout: 15000 }, table);
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
  const sit = '#table-line-' + table + ' ~ button';
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
  await ivo.waitForSelector('#table-line-' + table + ' ~ button + button');
  await ivo.click('#table-line-' + table + ' ~ button + button');
  await gil.bringToFront();
  await gil.waitForFunction(() => window.tapis.info.watchers === 1, { timeout: 10000 });
  assert.strictEqual(await gil.$eval('#seat-kind-3', (s) => s.value), 'bot:3', 'a kind chosen stays chosen');
  assert.ok(await gil.evaluate((b) => b.isConnected, setButton), 'the seat list is not made again');
  await ivo.close();
  await gil.click('#seat-set-3');
  await gil.waitForFunction(() => window.tapis.info.seats[3].level === 3, { timeout: 10000 });
  assert.strictEqual((await seat(3)).state, 'bot', 'seat 4: a bot');
  assert.strictEqual(await gil.$eval('#seat-line-3', (e) => e.textContent), 'Seat 4: a bot of level 3.');
  assert.strictEqual(await gil.$eval('#seat-kick-1', (b) => b.textContent), 'Remove Hana from the table');
  /* In play the kinds are set; a player may still be removed. */
  await gil.click('#btn-start');
  await gil.waitForFunction(() => window.tapis.state && window.tapis.state.state === 'playing');
  assert.strictEqual(await gil.$('#seat-kind-2'), null, 'no seat kinds once the game has begun');
  await gil.click('#seat-kick-1');
  await gil.waitForFunction(() => window.tapis.info.seats[1].state === 'open' && !document.querySelector('#seat-kick-1'),
    { timeout: 10000 });
  await hana.bringToFront();
  await hana.waitForSelector('#lobby:not([hidden])', { timeout: 10000 });
  await gil.bringToFront();
  await gil.click('#btn-leave');
  await gil.waitForSelector('#lobby:not([hidden])');
  await hana.close();
  await gil.close();
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
    }], ['seat controls', testSeats], ['wss://', (b, p, d) => testTls(b, d)]]
    .filter(([name]) => !process.env.TAPIS_WEB_ONLY || name === process.env.TAPIS_WEB_ONLY)) {
    const start = Date.now();
    try {
      const moves = await t(browser, port, dir);
      console.log('web: ' + name + ': ok (' + moves + ' moves by keys, ' + (Date.now() - start) + ' ms)');
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
