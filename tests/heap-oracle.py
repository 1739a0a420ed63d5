#!/usr/bin/env python3
"""An independent reader of Java heap dumps (binary HPROF), for the tests.

  heap-oracle.py [--mapping MAP] [--heap HEAP] DUMP

prints the class histogram as TSV (class, instances, shallow_bytes,
retained_bytes; sorted by class), then lines "# objects N" and
"# largest S1 S2 ... S10".  It shares no code with tracetui and reaches its
numbers another way: every object parsed into a dict, the strong
reference graph held whole, dominators by the iterative data-flow
algorithm of Cooper, Harvey and Kennedy on the reverse postorder, and a
class's retained bytes found by looking up each object's dominator chain.

Definitions (doc/tracetui.1): shallow size as ahat (an instance: its class's
instance size; an array: its class's instance size plus length times the
element size, an object element the id size; a class object: java.lang.Class's
instance size plus its statics' sizes); strong references are instance fields
(with the superclasses'), object array elements and object statics, but not
the referent of a java.lang.ref.Reference; every root record hangs off one
super-root.
"""
import struct
import sys

SIZES = {2: None, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
PRIM = {4: 'boolean', 5: 'char', 6: 'float', 7: 'double', 8: 'byte',
        9: 'short', 10: 'int', 11: 'long'}
DESC = {'B': 'byte', 'C': 'char', 'D': 'double', 'F': 'float', 'I': 'int',
        'J': 'long', 'S': 'short', 'Z': 'boolean'}
ROOT_SIZES = {0xff: 0, 0x05: 0, 0x07: 0, 0x89: 0, 0x8a: 0, 0x8b: 0,
              0x8c: 0, 0x8d: 0, 0x8f: 0, 0x90: 0, 0x01: 1, 0x04: 'u4',
              0x06: 'u4', 0x02: 'u8', 0x03: 'u8', 0x08: 'u8', 0x8e: 'u8'}


def java_name(raw):
    dims = len(raw) - len(raw.lstrip('['))
    base = raw[dims:]
    if dims:
        if len(base) == 1 and base in DESC:
            base = DESC[base]
        elif base.startswith('L') and base.endswith(';'):
            base = base[1:-1]
        else:
            return raw.replace('/', '.')
    return base.replace('/', '.') + '[]' * dims


def read_mapping(path):
    classes, fields = {}, {}
    cur = None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\r\n')
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        if not line[0].isspace():
            orig, obf = line.rstrip(':').split(' -> ')
            cur = obf.strip()
            classes.setdefault(cur, orig.strip())
        elif ' -> ' in line and '(' not in line.split(' -> ')[0]:
            left, obf = line.strip().split(' -> ')
            fields.setdefault((cur, obf.strip()), left.split()[-1])
    return classes, fields


def main():
    args = sys.argv[1:]
    mapping = None
    heap_arg = None
    while args and args[0].startswith('--'):
        if args[0] == '--mapping':
            mapping = read_mapping(args[1])
        elif args[0] == '--heap':
            heap_arg = args[1]
        args = args[2:]
    data = open(args[0], 'rb').read()
    nul = data.index(b'\0')
    ids = struct.unpack_from('>I', data, nul + 1)[0]
    idf = '>I' if ids == 4 else '>Q'
    pos = nul + 1 + 4 + 8

    def rid(p):
        return struct.unpack_from(idf, data, p)[0]

    strings, class_name_id = {}, {}
    objects = {}    # id -> [kind, class id or prim type, pos, heap, extra]
    order = []
    class_dumps = {}
    roots = []
    heap = 'default'
    android = False
    while pos + 9 <= len(data):
        tag, _, ln = struct.unpack_from('>BII', data, pos)
        body = pos + 9
        end = body + ln
        if end > len(data):
            break
        if tag == 1:
            strings[rid(body)] = data[body + ids:end].decode('utf-8',
                                                             'replace')
        elif tag == 2:
            class_name_id[rid(body + 4)] = rid(body + 8 + ids)
        elif tag in (0x0c, 0x1c):
            p = body
            while p < end:
                st = data[p]
                if st in ROOT_SIZES:
                    roots.append((rid(p + 1), st))
                    extra = ROOT_SIZES[st]
                    p += 1 + ids + {0: 0, 1: ids, 'u4': 4, 'u8': 8}[extra]
                elif st == 0xfe:
                    android = True
                    heap = strings.get(rid(p + 5), '?')
                    p += 5 + ids
                elif st == 0x20:
                    start = p
                    oid = rid(p + 1)
                    sup = rid(p + 1 + ids + 4)
                    q = p + 1 + 7 * ids + 4
                    isize = struct.unpack_from('>I', data, q)[0]
                    q += 4
                    ncp = struct.unpack_from('>H', data, q)[0]
                    q += 2
                    for _ in range(ncp):
                        t = data[q + 2]
                        q += 3 + (SIZES[t] or ids)
                    nst = struct.unpack_from('>H', data, q)[0]
                    q += 2
                    statics = []
                    for _ in range(nst):
                        name = rid(q)
                        t = data[q + ids]
                        sz = SIZES[t] or ids
                        v = rid(q + ids + 1) if t == 2 else None
                        statics.append((name, t, sz, v))
                        q += ids + 1 + sz
                    nf = struct.unpack_from('>H', data, q)[0]
                    q += 2
                    fields = []
                    for _ in range(nf):
                        fields.append((rid(q), data[q + ids]))
                        q += ids + 1
                    class_dumps[oid] = dict(sup=sup, isize=isize,
                                            statics=statics, fields=fields)
                    objects.setdefault(oid, ['class', oid, start, heap, None])
                    order.append(oid)
                    p = q
                elif st == 0x21:
                    oid = rid(p + 1)
                    cl = rid(p + 1 + ids + 4)
                    n = struct.unpack_from('>I', data, p + 1 + 2 * ids + 4)[0]
                    dpos = p + 1 + 2 * ids + 8
                    objects.setdefault(oid, ['inst', cl, dpos, heap, n])
                    order.append(oid)
                    p = dpos + n
                elif st == 0x22:
                    oid = rid(p + 1)
                    n = struct.unpack_from('>I', data, p + 1 + ids + 4)[0]
                    cl = rid(p + 1 + ids + 8)
                    dpos = p + 1 + 2 * ids + 8
                    objects.setdefault(oid, ['oarr', cl, dpos, heap, n])
                    order.append(oid)
                    p = dpos + n * ids
                elif st in (0x23, 0xc3):
                    oid = rid(p + 1)
                    n = struct.unpack_from('>I', data, p + 1 + ids + 4)[0]
                    t = data[p + 1 + ids + 8]
                    objects.setdefault(oid, ['parr', t, p, heap, n])
                    order.append(oid)
                    p += 1 + ids + 9 + (n * SIZES[t] if st == 0x23 else 0)
                else:
                    raise SystemExit('unknown sub-record 0x%02x' % st)
        pos = end

    classes_map, fields_map = mapping if mapping else ({}, {})

    # Names, classes and sizes are looked up once each (memo dicts): the
    # same answers, a JVM's dump of 20,000 objects read in half the time.
    dump_names = {}

    def dump_name(cid):
        n = dump_names.get(cid)
        if n is None:
            if cid in class_name_id and class_name_id[cid] in strings:
                n = java_name(strings[class_name_id[cid]])
            else:
                n = 'class@0x%x' % cid
            dump_names[cid] = n
        return n

    shown_names = {}

    def shown_name(cid):
        if cid in shown_names:
            return shown_names[cid]
        n = dump_name(cid)
        base = n
        while base.endswith('[]'):
            base = base[:-2]
        shown_names[cid] = classes_map.get(base, base) + n[len(base):]
        return shown_names[cid]

    by_name = {}
    for cid in class_dumps:
        by_name.setdefault(dump_name(cid), cid)

    def field_name(cid, sid):
        n = strings.get(sid, '?')
        return fields_map.get((dump_name(cid), n), n)

    # Strong reference slots of instances, by class.
    layout = {}

    def refs_of_class(cid):
        if cid in layout:
            return layout[cid]
        offs = []
        off = 0
        c = cid
        seen = set()
        while c in class_dumps and c not in seen:
            seen.add(c)
            is_ref = dump_name(c) == 'java.lang.ref.Reference'
            for sid, t in class_dumps[c]['fields']:
                if t == 2 and not (is_ref and field_name(c, sid) ==
                                   'referent'):
                    offs.append(off)
                off += SIZES[t] or ids
            c = class_dumps[c]['sup']
        layout[cid] = offs
        return offs

    jlc = by_name.get('java.lang.Class')
    jlc_size = class_dumps[jlc]['isize'] if jlc else 0

    classes_of = {}

    def cls_of(o):
        key = (o[0], o[1])
        if key not in classes_of:
            classes_of[key] = cls_of_uncached(o)
        return classes_of[key]

    def cls_of_uncached(o):
        kind, c = o[0], o[1]
        if kind == 'class':
            return ('java.lang.Class', jlc_size)
        if kind == 'parr':
            name = PRIM[c] + '[]'
            k = by_name.get(name)
            return (shown_name(k) if k else name,
                    class_dumps[k]['isize'] if k else 0)
        if c in class_dumps:
            return (shown_name(c), class_dumps[c]['isize'])
        return ('(unknown class)', 0)

    shallows = {}

    def shallow(oid):
        if oid not in shallows:
            shallows[oid] = shallow_uncached(oid)
        return shallows[oid]

    def shallow_uncached(oid):
        o = objects[oid]
        name, isize = cls_of(o)
        if o[0] == 'oarr':
            return isize + o[4] * ids
        if o[0] == 'parr':
            return isize + o[4] * SIZES[o[1]]
        if o[0] == 'class':
            return isize + sum(s[2] for s in class_dumps[oid]['statics'])
        return isize

    def succ(oid):
        o = objects[oid]
        out = []
        if o[0] == 'inst':
            for off in refs_of_class(o[1]):
                if off + ids <= o[4]:
                    out.append(rid(o[2] + off))
        elif o[0] == 'oarr':
            out = [rid(o[2] + k * ids) for k in range(o[4])]
        elif o[0] == 'class':
            out = [s[3] for s in class_dumps[oid]['statics'] if s[1] == 2]
        return [v for v in out if v and v in objects]

    # Reverse postorder from the super-root (ROOT), iteratively.
    ROOT = -1
    graph = {ROOT: [r for r, _ in roots if r in objects]}
    post = []
    seen = {ROOT}
    stack = [(ROOT, iter(graph[ROOT]))]
    while stack:
        node, it = stack[-1]
        for w in it:
            if w not in seen:
                seen.add(w)
                graph[w] = succ(w)
                stack.append((w, iter(graph[w])))
                break
        else:
            post.append(node)
            stack.pop()
    rpo = post[::-1]
    num = {v: k for k, v in enumerate(rpo)}
    preds = {v: [] for v in rpo}
    for v in rpo:
        for w in graph[v]:
            preds[w].append(v)
    idom = {ROOT: ROOT}

    def intersect(a, b):
        while a != b:
            while num[a] > num[b]:
                a = idom[a]
            while num[b] > num[a]:
                b = idom[b]
        return a
    changed = True
    while changed:
        changed = False
        for v in rpo[1:]:
            new = None
            for p in preds[v]:
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if idom.get(v) != new:
                idom[v] = new
                changed = True
    retained = {v: 0 for v in rpo}
    for v in post:  # children before parents
        if v == ROOT:
            continue
        retained[v] += shallow(v)
        if idom[v] != ROOT:
            retained[idom[v]] += retained[v]

    heaps = set(o[3] for o in objects.values())
    want = heap_arg or ('app' if android and 'app' in heaps else 'all')

    def shown(oid):
        return want == 'all' or objects[oid][3] == want

    rows = {}
    for oid, o in objects.items():
        if not shown(oid):
            continue
        name = cls_of(o)[0]
        r = rows.setdefault(name, [0, 0, 0])
        r[0] += 1
        r[1] += shallow(oid)
    # A class's retained: its shown objects with no shown object of the
    # same class on their dominator chain.
    for v in rpo[1:]:
        if not shown(v):
            continue
        name = cls_of(objects[v])[0]
        u = idom[v]
        dominated = False
        while u != ROOT:
            if shown(u) and cls_of(objects[u])[0] == name:
                dominated = True
                break
            u = idom[u]
        if not dominated:
            rows[name][2] += retained[v]
    for name in sorted(rows):
        r = rows[name]
        print('%s\t%d\t%d\t%d' % (name, r[0], r[1], r[2]))
    print('# objects %d' % len(objects))
    print('# largest ' + ' '.join(str(s) for s in
                                  sorted((shallow(o) for o in objects),
                                         reverse=True)[:10]))
    print('# reachable %d' % (len(rpo) - 1))


main()
