#!/usr/bin/env python3
"""Append catalogue entries to locales/fr.po and locales/en.po.

Usage: tools/po-add.py FILE
FILE holds blocks separated by blank lines; each block is two lines
(English, then French), or four for a plural (English singular, English
plural, French singular, French plural). A block may begin with a line
"msgctxt CONTEXT" for a sentence looked up with its context (C_("bourre",
"Pass"), P_ with a context): the entry is written with that msgctxt.
Entries already present (the same context and msgid) are skipped.

Example:
    msgctxt bourre
    take the turned card
    prendre la carte retournée
"""
import re
import sys


def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def unq(s):
    return s.replace('\\"', '"').replace('\\\\', '\\')


def known(path):
    """The (context, msgid) pairs of a catalogue; context None without one."""
    ids = set()
    ctx = None
    for line in open(path, encoding='utf-8').read().split('\n'):
        m = re.match(r'^msgctxt "((?:[^"\\]|\\.)*)"', line)
        if m:
            ctx = unq(m.group(1))
            continue
        m = re.match(r'^msgid "((?:[^"\\]|\\.)*)"', line)
        if m:
            ids.add((ctx, unq(m.group(1))))
            ctx = None
    return ids


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    blocks = [b.split('\n') for b in open(sys.argv[1], encoding='utf-8').read().strip('\n').split('\n\n')]
    for lang in ('fr', 'en'):
        path = 'locales/%s.po' % lang
        have = known(path)
        with open(path, 'a', encoding='utf-8') as f:
            for b in blocks:
                b = [x for x in b if x]
                ctx = None
                if b and b[0].startswith('msgctxt '):
                    ctx = b[0][len('msgctxt '):]
                    b = b[1:]
                if len(b) not in (2, 4):
                    sys.exit('bad block: %r' % b)
                if (ctx, b[0]) in have:
                    continue
                have.add((ctx, b[0]))
                head = 'msgctxt %s\n' % q(ctx) if ctx is not None else ''
                if len(b) == 2:
                    f.write('%smsgid %s\nmsgstr %s\n\n' % (head, q(b[0]), q(b[1] if lang == 'fr' else b[0])))
                else:
                    s0, s1 = (b[2], b[3]) if lang == 'fr' else (b[0], b[1])
                    f.write('%smsgid %s\nmsgid_plural %s\nmsgstr[0] %s\nmsgstr[1] %s\n\n'
                            % (head, q(b[0]), q(b[1]), q(s0), q(s1)))


main()
