#!/usr/bin/env python3
"""Append catalogue entries to locales/fr.po and locales/en.po.

Usage: tools/po-add.py FILE
FILE holds blocks separated by blank lines; each block is two lines
(English, then French), or four for a plural (English singular, English
plural, French singular, French plural). Entries already present are skipped.
"""
import re
import sys


def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def known(path):
    text = open(path, encoding='utf-8').read()
    ids = set()
    for m in re.finditer(r'^msgid "((?:[^"\\]|\\.)*)"', text, re.M):
        ids.add(m.group(1).replace('\\"', '"').replace('\\\\', '\\'))
    return ids


def main():
    blocks = [b.split('\n') for b in open(sys.argv[1], encoding='utf-8').read().strip('\n').split('\n\n')]
    for lang in ('fr', 'en'):
        path = 'locales/%s.po' % lang
        have = known(path)
        with open(path, 'a', encoding='utf-8') as f:
            for b in blocks:
                b = [x for x in b if x]
                if b[0] in have:
                    continue
                have.add(b[0])
                if len(b) == 2:
                    f.write('msgid %s\nmsgstr %s\n\n' % (q(b[0]), q(b[1] if lang == 'fr' else b[0])))
                elif len(b) == 4:
                    s0, s1 = (b[2], b[3]) if lang == 'fr' else (b[0], b[1])
                    f.write('msgid %s\nmsgid_plural %s\nmsgstr[0] %s\nmsgstr[1] %s\n\n'
                            % (q(b[0]), q(b[1]), q(s0), q(s1)))
                else:
                    sys.exit('bad block: %r' % b)


main()
