#!/usr/bin/env python3
"""Check the heap dump viewer's screens (tmux captures) against the batch
commands' output, for tests/heap-viewer.sh.

  heap-screens.py CHECKS

Each line of CHECKS is tab-separated: KIND SCREEN ORACLE [WORD], KIND one of
  classes     the Classes rows equal ORACLE's rows (report --format tsv,
              sorted the same way) from its first (or, WORD "end", its last)
  instances   the Instances rows are the objects `paths -n N` (ORACLE)
              names, with their retained sizes, in order
  dominators  the Dominators rows are `tree --min-pct 0 --format tsv`'s
              depth-0 rows, in order
  leaks       the Leaks rows are the suspects `leaks` names, in order
  duplicates  the Duplicates rows equal `report --duplicates` TSV's
  path        the Path rows are `paths`' first object's hops; WORD must
              show on the screen
  counts      the Classes rows before the dominators: instances and
              shallow bytes equal ORACLE's (report -s shallow), retained
              "-", and the status says the dominators are being computed
  cut         only that nothing is cut (ORACLE unused)
On every screen no cell is cut at its end: a truncation mark right after
text and before a blank or the line's end.  A name shortened from its left
(the mark first) must be the end of the oracle's name.  Prints one line per
failure; exits 1 if any.
"""
import re
import sys

MARKS = ('\u2026', '~')
failures = []


def fail(screen, msg):
    failures.append('%s: %s' % (screen, msg))


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read().split('\n')


def no_cut(screen, lines):
    for n, line in enumerate(lines):
        line = line.rstrip()
        for m in MARKS:
            for at in [i for i in range(len(line)) if line.startswith(m, i)]:
                after = line[at + len(m):at + len(m) + 1]
                before = line[at - 1:at] if at else ' '
                if m == '~' and not (before.isalnum() or before in '.$_'):
                    continue
                if before != ' ' and after in ('', ' '):
                    fail(screen, 'line %d cut at its end: %r' % (n, line))


def rows(lines):
    """The list rows: below the header, above the status line."""
    body = [l.rstrip() for l in lines]
    while body and body[-1] == '':
        body.pop()
    return [l for l in body[2:-2] if l.strip()]


def same_name(shown, full):
    shown = shown.strip()
    for m in MARKS:
        if shown.startswith(m):
            return full.endswith(shown[len(m):])
    return shown == full


def ends_with_name(text, full):
    """Whether text ends with full, or with its end after a mark."""
    if text.endswith(' ' + full) or text == full:
        return True
    for m in MARKS:
        at = text.rfind(m)
        if at >= 0 and len(text) - at > 6 and \
                full.endswith(text[at + len(m):]):
            return True
    return False


def tsv(path):
    out = []
    for line in read(path)[1:]:
        if line:
            out.append(line.split('\t'))
    return out


def check_classes(screen, lines, oracle, word):
    want = tsv(oracle)
    got = []
    for l in rows(lines):
        m = re.match(r'^(.*?)\s+(\d+)\s+(\d+)\s+(\d+)$', l)
        if not m:
            fail(screen, 'not a class row: %r' % l)
            return
        got.append(m.groups())
    if not got:
        fail(screen, 'no rows')
        return
    if word == 'end':
        want = want[-len(got):]
    for g, w in zip(got, want):
        if not same_name(g[0], w[0]) or list(g[1:]) != w[1:4]:
            fail(screen, 'row %r, report says %r' % (g, w))
            return


def check_counts(screen, lines, oracle):
    want = tsv(oracle)
    got = []
    for l in rows(lines):
        m = re.match(r'^(.*?)\s+(\d+)\s+(\d+)\s+-$', l)
        if not m:
            fail(screen, 'not a row of counts: %r' % l)
            return
        got.append(m.groups())
    if not got:
        fail(screen, 'no rows')
    for g, w in zip(got, want):
        if not same_name(g[0], w[0]) or list(g[1:]) != w[1:3]:
            fail(screen, 'row %r, report says %r' % (g, w))
            return
    if not any('computing dominators' in l for l in lines):
        fail(screen, 'the status does not say the dominators are computed')


def paths_objects(oracle):
    """The objects `paths -n N` prints and their retained sizes."""
    out = []
    for line in read(oracle):
        m = re.match(r'^(\S.*)  retained (\d+) bytes$', line)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def check_instances(screen, lines, oracle):
    want = paths_objects(oracle)
    got = rows(lines)
    if not got:
        fail(screen, 'no rows')
    for l, w in zip(got, want):
        m = re.match(r'^(.*?)\s+(\d+)\s+(\d+)$', l)
        if not m or not same_name(m.group(1), w[0]) or m.group(2) != w[1]:
            fail(screen, 'row %r, paths says %r' % (l, w))
            return


def check_dominators(screen, lines, oracle):
    want = [r for r in tsv(oracle) if r[0] == '0']
    got = rows(lines)
    if not got:
        fail(screen, 'no rows')
    for l, w in zip(got, want):
        m = re.match(r'^\S?\s*(.*?)\s+(\d+)\s+([\d.]+)\s+(\d+)$', l)
        if not m or not same_name(m.group(1), w[3]) or \
                m.group(2) != w[1] or m.group(4) != w[2]:
            fail(screen, 'row %r, tree says %r' % (l, w))
            return


def check_leaks(screen, lines, oracle):
    text = read(oracle)
    want = [text[i + 1] for i, l in enumerate(text)
            if l.startswith('suspect: ')]
    want = [re.match(r'^(.*)  retained (\d+) bytes$', w).groups()
            for w in want]
    got = rows(lines)
    if not want:
        if not any('No leak suspects' in l for l in lines):
            fail(screen, 'leaks finds none, the view does not say so')
        return
    if len(got) != len(want):
        fail(screen, '%d rows, leaks says %d' % (len(got), len(want)))
    for l, w in zip(got, want):
        m = re.match(r'^(.*?)\s+(\w+)\s+(\d+)$', l)
        if not m or not same_name(m.group(1), w[0]) or m.group(3) != w[1]:
            fail(screen, 'row %r, leaks says %r' % (l, w))
            return


def check_duplicates(screen, lines, oracle):
    want = tsv(oracle)
    got = rows(lines)
    if not got:
        fail(screen, 'no rows')
    for l, w in zip(got, want):
        m = re.match(r'^(.*?)\s+(\d+)\s+(\d+)$', l)
        if not m or not same_name(m.group(1), w[3]) or \
                [m.group(2), m.group(3)] != w[1:3]:
            fail(screen, 'row %r, report says %r' % (l, w))
            return


def check_path(screen, lines, oracle, word):
    text = read(oracle)
    hops = []
    for line in text[1:]:
        if not line.startswith('  '):
            break
        hops.append(line.strip().split('  ')[-1])
    got = rows(lines)
    if len(got) != len(hops):
        fail(screen, '%d hops, paths says %d' % (len(got), len(hops)))
    for l, w in zip(got, hops):
        m = re.match(r'^(.*?)\s+(\d+)$', l)
        if not m or not ends_with_name(m.group(1), w):
            fail(screen, 'hop %r, paths says %r' % (l, w))
            return
    if word and not any(word in l for l in lines):
        fail(screen, '%s not on the path' % word)


def main():
    for spec in read(sys.argv[1]):
        if not spec:
            continue
        parts = spec.split('\t')
        kind, screen, oracle = parts[:3]
        word = parts[3] if len(parts) > 3 else ''
        lines = read(screen)
        no_cut(screen, lines)
        if kind == 'counts':
            check_counts(screen, lines, oracle)
        elif kind == 'classes':
            check_classes(screen, lines, oracle, word)
        elif kind == 'instances':
            check_instances(screen, lines, oracle)
        elif kind == 'dominators':
            check_dominators(screen, lines, oracle)
        elif kind == 'leaks':
            check_leaks(screen, lines, oracle)
        elif kind == 'duplicates':
            check_duplicates(screen, lines, oracle)
        elif kind == 'path':
            check_path(screen, lines, oracle, word)
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


main()
