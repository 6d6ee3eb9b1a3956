#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A whole deal of each game played by braille alone, on brltty's virtual
# display: this program is the display (it reads the cells brltty sends,
# presses its keys: typed "h" for the hand line, routing keys over a card
# to select then play it, over a menu item to choose it). tapis runs with
# --braille on and no voice (--text: its lines are the announcements), in
# English and French. The deal is then told again from its hand history
# (--actions: the same moves, no key pressed), and every line of that
# telling must have reached the display. With "join" after the games, a
# deal of Le Brouc is then played the same way with tapis join at a
# table of tapis serve, in both languages: every card played and trick
# taken that it said must have reached the display. In the games of
# tricks, typed "c" now and then must show the trick on one line
# ("B:QH Cl:TH Y:?"), a card in it at least once a deal. TAPIS_BRL_LANGS
# (en,fr by default) chooses the languages.
#
# brltty runs in the foreground in a temporary folder of its own (pid file,
# writable folder, the virtual driver's socket, a BrlAPI key), its BrlAPI
# on a free loopback port, no speech, no screen; it is stopped at the end.
# Without brltty the test skips (exit 77), but not under CI=true.
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
tapis = os.path.abspath(os.path.join(build, "tapis"))
games = sys.argv[2].split(",") if len(sys.argv) > 2 else ["brouc", "bouillabaisse", "bourre", "brelan", "bouillotte"]
langs = os.environ.get("TAPIS_BRL_LANGS", "en,fr").split(",")

if not shutil.which("brltty"):
    if os.environ.get("CI") == "true":
        print("braille: brltty is missing under CI"); sys.exit(1)
    print("braille: no brltty, skipped"); sys.exit(77)

def free_api_number():
    for n in range(200, 900):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", 4101 + n)); return n
        except OSError:
            continue
        finally:
            s.close()
    raise SystemExit("no free port")

class Display:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        for _ in range(100):
            try:
                self.sock.connect(path); break
            except OSError:
                time.sleep(0.05)
        self.sock.sendall(b"cells 40\n")
        self.lines = []          # every text the cells showed, in order
        self.now = ""
        self.lock = threading.Lock()
        threading.Thread(target=self.read, daemon=True).start()
    def read(self):
        for raw in self.sock.makefile("rb"):
            m = re.match(r'Visual "(.*)"\s*$', raw.decode("utf-8", "replace"))
            if m:
                text = m.group(1).replace('\\"', '"').replace("\\\\", "\\")
                with self.lock:
                    self.now = text
                    self.lines.append(text)
    def press(self, cmd):
        """A key, then the cells it changes (or a moment, when it changes
        none): the next look reads what the key did."""
        with self.lock:
            seen = len(self.lines)
        self.sock.sendall((cmd + "\n").encode())
        end = time.time() + 0.25
        while time.time() < end:
            time.sleep(0.01)
            with self.lock:
                if len(self.lines) > seen:
                    break
        time.sleep(0.02)
    def text(self):
        with self.lock:
            return self.now

def hand_items(line, panned=False):
    """The columns of the cards of a hand line: 'S: A K | H: Q' (or of
    the rest of a long one, panned to)."""
    body = line[:39]
    if not panned and not re.match(r"^[SHDCPKT]: ", body):
        return []
    return [m.start() for m in re.finditer(r"(?:(?<=[ ])|^)[AKQJT2-9RDVX](?= |$)", body)]

def menu_items(line):
    body = line[:39].rstrip()
    if " | " not in body or re.match(r"^[SHDCPKT]: ", body):
        return []
    cols, at = [0], 0
    while True:
        at = body.find(" | ", at)
        if at < 0: return cols
        at += 3; cols.append(at)

TABLE_LINE = re.compile(r"^[^ :]+:(?:[AKQJT2-9RDVX][SHDCPKT]|\?)(?: [^ :]+:(?:[AKQJT2-9RDVX][SHDCPKT]|\?))*$")
TRICK_GAMES = ("brouc", "bourre", "bouillabaisse")
tables_shown = {}    # (game, lang, joined): table lines with a card read on C

def table_line(d, p, game, lang, url):
    """Typed c: the trick on one line, counted when it holds a card."""
    if d.text()[39:40] not in ("", " "):
        return                             # lines wait (at the deal's end keys only hurry them)
    with d.lock:
        seen = len(d.lines)
    d.press("PassChar 99")
    with d.lock:
        after = [l[:39].rstrip() for l in d.lines[seen:]] or [d.now[:39].rstrip()]
    # The first line the key changed (announcements held 0.08 s may follow).
    table = next((l for l in after if TABLE_LINE.match(l)), after[0])
    if table == "no screen":
        return                             # brltty's own: tapis has left the display (the deal's end)
    if not TABLE_LINE.match(table):
        p.kill(); p.wait()
        raise SystemExit(f"braille: {game} {lang}: c showed {table!r}, not the table line (then {after[1:4]!r}; before {d.lines[max(0, seen - 4):seen]!r})")
    if re.search(r":[AKQJT2-9RDVX][SHDCPKT]", table):
        key = (game, lang, bool(url))
        tables_shown[key] = tables_shown.get(key, 0) + 1

def play(d, game, lang, home, tmp, url=None):
    log = os.path.join(tmp, f"{game}-{lang}.jsonl")
    out = open(os.path.join(tmp, f"{game}-{lang}{'-join' if url else ''}.txt"), "w")
    env = dict(os.environ, HOME=home)
    if url:
        cmd = [tapis, "join", url, "--name", "Anne", "--create", game, "--rule", "hands=1", "--seed", "11",
               "--start", "--lang", lang, "--text", "--no-sound", "--braille", "on"]
    else:
        cmd = [tapis, "play", game, "--seed", "11", "--hands", "1", "--lang", lang, "--text",
               "--braille", "on", "--log", log]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=out, env=env)
    turn, started = 0, False
    deadline = time.time() + 240
    while p.poll() is None and time.time() < deadline:
        status = d.text()[39:40]
        if status not in ("", " "):
            time.sleep(0.1)                # lines wait: read them first
            continue
        if game in TRICK_GAMES and started and turn % 4 == 1:
            table_line(d, p, game, lang, url)
        d.press("PassChar 104")            # typed h: the hand line
        line = d.text()
        cols = hand_items(line)
        started |= bool(cols)              # tapis has the display
        if cols and len(line.rstrip()) >= 38 and (turn // 5) % 2:
            d.press("FwinRt")              # the rest of a long hand
            cols = hand_items(d.text(), True)
        if cols:
            c = cols[turn % len(cols)]
            d.press(f"Route {c}")          # select
            d.press(f"Route {c}")          # play (or the menu)
            if game in TRICK_GAMES and turn % 4 == 3:
                table_line(d, p, game, lang, url)
        elif turn % 2:
            d.press("Route 39")            # the status cell: Enter (the menu)
        line = d.text()
        if hand_items(line) and turn % 3 == 2:
            d.press("Route 39")            # a discard marked: its menu
            line = d.text()
        m = menu_items(line)
        if m:
            d.press(f"Route {m[0]}")       # the safest choice
        turn += 1
    if p.poll() is None:
        p.kill(); p.wait()
        raise SystemExit(f"braille: {game} {lang}: the deal did not end by braille")
    out.close()
    if game in TRICK_GAMES and not tables_shown.get((game, lang, bool(url))):
        raise SystemExit(f"braille: {game} {lang}: c never showed a card of the trick")
    return log

def told_again(game, lang, log, home, tmp):
    acts = os.path.join(tmp, f"{game}-{lang}.actions")
    with open(log) as f, open(acts, "w") as a:
        for l in f:
            e = json.loads(l)
            if e["type"] == "action" and e["seat"] == 0:
                words = [e["action"]]
                if "card" in e: words.append(e["card"])
                if "cards" in e: words += e["cards"]
                if "amount" in e and e["action"] in ("open", "raise"): words.append(str(e["amount"]))
                a.write("0 " + " ".join(words) + "\n")
    r = subprocess.run([tapis, "play", game, "--seed", "11", "--hands", "1", "--lang", lang, "--text",
                        "--braille", "off", "--actions", acts], stdin=subprocess.DEVNULL,
                       capture_output=True, env=dict(os.environ, HOME=home + "2"), timeout=120)
    return [l for l in r.stdout.decode().splitlines() if l.strip()]

def serve(tmp):
    """tapis serve on a free port, its bots without delay: (process, url)."""
    err = open(os.path.join(tmp, "server.err"), "w")
    srv = subprocess.Popen([tapis, "serve", "--port", "0", "--db", os.path.join(tmp, "server.db"),
                            "--bot-delay", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                           env=dict(os.environ, HOME=os.path.join(tmp, "server-home")))
    for _ in range(400):
        with open(os.path.join(tmp, "server.err")) as f:
            m = re.search(r"listening on (ws:\S+)", f.read())
        if m:
            return srv, m.group(1)
        if srv.poll() is not None:
            break
        time.sleep(0.05)
    srv.kill(); srv.wait()
    raise SystemExit("braille: the server did not say where it listens")

def joined(d, game, lang, home, tmp, url):
    """A deal at a server table by braille alone: every card played and
    every trick taken that tapis join said reached the display."""
    start = len(d.lines)
    play(d, game, lang, home, tmp, url)
    seen = [l[:39].rstrip() for l in d.lines[start:]]
    with open(os.path.join(tmp, f"{game}-{lang}-join.txt")) as f:
        said = [l.strip() for l in f if l.strip()]
    moves = [l for l in said if re.search(r" (plays|joue) |^(You|Vous) |trick|levée", l) and
             not l.startswith(("Your ", "Vos ", "Votre ")) and
             not re.search(r"holds? the trick|tien\w* le pli", l)]    # c's answers: the table line shown
    lost = [l for l in moves if l[:39].rstrip() not in seen]
    if not moves or lost:
        print(f"braille: join {game} {lang}: {len(lost)} of {len(moves)} moves never reached the display"
              + (f", first: {lost[0]!r}" if lost else ""))
        with open(os.path.join(tmp, f"{game}-{lang}-join.shown"), "w") as f:
            f.write("\n".join(d.lines[start:]) + "\n")
        return 1
    print(f"braille: join {game} {lang}: the deal played by braille at a server table, {len(moves)} moves shown")
    return 0

def main():
    tmp = tempfile.mkdtemp(prefix="tapis-brl.")
    home = os.path.join(tmp, "home")
    os.makedirs(os.path.join(home, ".config", "tapis"))
    # Each line held a little, so that brltty's refresh shows every one
    # (and checked: a line it never showed fails the test), but far less
    # than a reader's two seconds, so that the five games end in about
    # a minute and a half (19 on the load average).
    with open(os.path.join(home, ".config", "tapis", "settings"), "w") as f:
        f.write("braille_hold = 0.08\n")
    key = os.path.join(tmp, "brlapi.key")
    with open(key, "w") as f:
        f.write(os.urandom(16).hex())
    n = free_api_number()
    vr = os.path.join(tmp, "vr.sock")
    brl = subprocess.Popen(["brltty", "-n", "-q", "-e", "-l", "warning", "-f", "/dev/null", "-F", "/dev/null",
                            "-P", os.path.join(tmp, "pid"), "-W", tmp, "-U", tmp, "-b", "vr",
                            "-d", "server:" + vr, "-s", "no", "-x", "no",
                            "-A", f"host=127.0.0.1:{n},auth=keyfile:{key}"],
                           stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "brltty.log"), "w"))
    os.environ["BRLAPI_HOST"] = f"127.0.0.1:{n}"
    os.environ["BRLAPI_AUTH"] = f"keyfile:{key}"
    fail = 0
    try:
        d = Display(vr)
        time.sleep(0.3)
        for game in games:
            for lang in langs:
                start = len(d.lines)
                log = play(d, game, lang, home, tmp)
                seen = [l[:39].rstrip() for l in d.lines[start:]]
                lost = [l for l in told_again(game, lang, log, home, tmp) if l[:39].rstrip() not in seen]
                if lost:
                    fail = 1
                    print(f"braille: {game} {lang}: {len(lost)} announcements never reached the display, first: {lost[0]!r}")
                    with open(os.path.join(tmp, f"{game}-{lang}.shown"), "w") as f:
                        f.write("\n".join(d.lines[start:]) + "\n")
                else:
                    print(f"braille: {game} {lang}: the deal played by braille, every announcement shown")
        # tapis join at a server's table: the same display and keys.
        if "join" in sys.argv[3:]:
            srv, url = serve(tmp)
            try:
                for lang in langs:
                    fail |= joined(d, "brouc", lang, home, tmp, url)
            finally:
                srv.send_signal(signal.SIGTERM)
                try:
                    srv.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    srv.kill(); srv.wait()
    finally:
        brl.send_signal(signal.SIGTERM)
        try:
            brl.wait(timeout=5)
        except subprocess.TimeoutExpired:
            brl.kill(); brl.wait()
        if not fail:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("braille: kept", tmp)
    sys.exit(fail)

main()
