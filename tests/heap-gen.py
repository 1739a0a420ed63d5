#!/usr/bin/env python3
"""Write a random Java heap dump in binary HPROF, for tests and make bench.

  heap-gen.py [--android] [--leaks] [--id-size 4|8] [--seed N]
              [--objects N] OUT

--android writes "JAVA PROFILE 1.0.3" as ART does: heaps named by HEAP DUMP
INFO (zygote, image, app) and written again in every segment, Android's root
types, array classes with their header as instance size, a PRIMITIVE ARRAY
NODATA.  Without it, "JAVA PROFILE 1.0.2" as the JVM writes it (class names
"java/lang/String", "[B").  The graph has cycles, objects no root reaches,
weak references whose referent nothing else holds, statics, object and
primitive arrays, and Strings with equal text.
"""
import random
import struct
import sys

T_OBJ, T_BOOL, T_CHAR, T_FLOAT, T_DOUBLE, T_BYTE, T_SHORT, T_INT, T_LONG = (
    2, 4, 5, 6, 7, 8, 9, 10, 11)
SIZES = {T_BOOL: 1, T_CHAR: 2, T_FLOAT: 4, T_DOUBLE: 8, T_BYTE: 1,
         T_SHORT: 2, T_INT: 4, T_LONG: 8}


def main():
    args = sys.argv[1:]
    android = '--android' in args
    leaks = '--leaks' in args
    id_size = 4
    seed = 1
    n = 400
    out = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == '--id-size':
            id_size = int(args[i + 1]); i += 1
        elif a == '--seed':
            seed = int(args[i + 1]); i += 1
        elif a == '--objects':
            n = int(args[i + 1]); i += 1
        elif a not in ('--android', '--leaks'):
            out = a
        i += 1
    rng = random.Random(seed)
    idfmt = '>I' if id_size == 4 else '>Q'

    def ID(v):
        return struct.pack(idfmt, v)

    recs = []
    strings = {}

    def string(s):
        if s not in strings:
            sid = 0x100000 + len(strings) * 8
            strings[s] = sid
            body = ID(sid) + s.encode()
            recs.append(struct.pack('>BII', 1, 0, len(body)) + body)
        return strings[s]

    def jname(dotted):
        if android:
            return dotted
        if dotted.endswith('[]'):
            el = dotted[:-2]
            prim = {'byte': 'B', 'int': 'I', 'char': 'C', 'long': 'J',
                    'boolean': 'Z', 'short': 'S', 'float': 'F',
                    'double': 'D'}
            if el in prim:
                return '[' + prim[el]
            return '[L' + el.replace('.', '/') + ';'
        return dotted.replace('.', '/')

    # Classes: name, super, instance size, fields [(name, type)],
    # statics [(name, type)].
    hdr = 12 if android else 0
    classes = [
        ('java.lang.Object', None, 8, [], []),
        ('java.lang.Class', 'java.lang.Object', 100, [], []),
        ('java.lang.ref.Reference', 'java.lang.Object', 16,
         [('referent', T_OBJ), ('queue', T_OBJ)], []),
        ('java.lang.ref.WeakReference', 'java.lang.ref.Reference', 16, [],
         []),
        ('java.lang.String', 'java.lang.Object', 20,
         [('value', T_OBJ), ('hash', T_INT)], []),
        ('com.example.Node', 'java.lang.Object', 24,
         [('next', T_OBJ), ('other', T_OBJ), ('val', T_INT),
          ('flag', T_BOOL)], [('head', T_OBJ), ('count', T_INT)]),
        ('com.example.Holder', 'com.example.Node', 40,
         [('extra', T_LONG), ('items', T_OBJ), ('next', T_OBJ)],
         [('cache', T_OBJ)]),
        ('byte[]', 'java.lang.Object', hdr, [], []),
        ('int[]', 'java.lang.Object', hdr, [], []),
        ('char[]', 'java.lang.Object', hdr, [], []),
        ('java.lang.Object[]', 'java.lang.Object', hdr, [], []),
        ('com.example.Node[]', 'java.lang.Object', hdr, [], []),
    ]
    if leaks:
        classes += [
            ('android.app.Activity', 'java.lang.Object', 40,
             [('mDestroyed', T_BOOL), ('mFinished', T_BOOL)], []),
            ('com.example.MainActivity', 'android.app.Activity', 48,
             [('view', T_OBJ)], []),
            ('androidx.fragment.app.Fragment', 'java.lang.Object', 32,
             [('mFragmentManager', T_OBJ)], []),
            ('com.example.MyFragment', 'androidx.fragment.app.Fragment', 32,
             [], []),
            ('leakcanary.KeyedWeakReference', 'java.lang.ref.WeakReference',
             32, [('key', T_OBJ)], []),
        ]
    cid = {}
    for k, c in enumerate(classes):
        cid[c[0]] = 0x1000 + k * 0x40
    for k, c in enumerate(classes):
        name = string(jname(c[0]))
        body = struct.pack('>I', k + 1) + ID(cid[c[0]]) + \
            struct.pack('>I', 0) + ID(name)
        recs.append(struct.pack('>BII', 2, 0, len(body)) + body)
    for c in classes:
        for f in c[3] + c[4]:
            string(f[0])
    for h in ('app', 'image', 'zygote'):
        string(h)

    # Objects: kinds by weight.
    base = 0x20000000
    objs = []  # (id, kind, class, payload)
    kinds = ['node'] * 6 + ['holder'] * 2 + ['weak', 'string', 'bytes',
                                             'ints', 'objarr']
    if android:
        kinds.append('nodata')
    # Ids ascend in file order, as ART writes a space's objects by
    # address; references go anywhere.
    ids = [base + k * 16 for k in range(n)]
    texts = ['alpha', 'beta', 'gamma', 'alpha', '', 'delta' * 3]

    def ref():
        if rng.random() < 0.25:
            return 0
        if rng.random() < 0.02:
            return 0xDEAD0000  # an id no object has
        return ids[rng.randrange(n)]

    pending_strings = []
    for k in range(n):
        kind = rng.choice(kinds)
        objs.append([ids[k], kind])
    # Strings need a value array: make the next object its array.
    for k, o in enumerate(objs):
        if o[1] == 'string':
            text = rng.choice(texts)
            o.append(text)

    layouts = {}

    def field_bytes(cls_name, values):
        if cls_name not in layouts:
            c = next(x for x in classes if x[0] == cls_name)
            slots = []
            while c:
                slots += [(c[0], f, t) for f, t in c[3]]
                c = next((x for x in classes if x[0] == c[1]), None)
            layouts[cls_name] = slots
        out = []
        for cname, fname, t in layouts[cls_name]:
            v = values.get((cname, fname), 0)
            out.append(ID(v) if t == T_OBJ else
                       v.to_bytes(SIZES[t], 'big', signed=False))
        return b''.join(out)

    sub = []  # (heap, bytes)
    extra_arrays = []
    for o in objs:
        oid, kind = o[0], o[1]
        if kind in ('node', 'holder'):
            cls = 'com.example.Node' if kind == 'node' else \
                'com.example.Holder'
            vals = {('com.example.Node', 'next'): ref(),
                    ('com.example.Node', 'other'): ref(),
                    ('com.example.Node', 'val'): rng.randrange(1 << 31),
                    ('com.example.Node', 'flag'): rng.randrange(2)}
            if kind == 'holder':
                vals[('com.example.Holder', 'extra')] = rng.randrange(1 << 60)
                vals[('com.example.Holder', 'items')] = ref()
                vals[('com.example.Holder', 'next')] = ref()
            data = field_bytes(cls, vals)
            rec = b'\x21' + ID(oid) + struct.pack('>I', 0) + ID(cid[cls]) + \
                struct.pack('>I', len(data)) + data
        elif kind == 'weak':
            vals = {('java.lang.ref.Reference', 'referent'): ref(),
                    ('java.lang.ref.Reference', 'queue'): ref()}
            data = field_bytes('java.lang.ref.WeakReference', vals)
            rec = b'\x21' + ID(oid) + struct.pack('>I', 0) + \
                ID(cid['java.lang.ref.WeakReference']) + \
                struct.pack('>I', len(data)) + data
        elif kind == 'string':
            aid = 0x70000000 + len(extra_arrays) * 16
            text = o[2].encode()
            extra_arrays.append(b'\x23' + ID(aid) + struct.pack('>II', 0,
                                len(text)) + bytes([T_BYTE]) + text)
            vals = {('java.lang.String', 'value'): aid,
                    ('java.lang.String', 'hash'): 7}
            data = field_bytes('java.lang.String', vals)
            rec = b'\x21' + ID(oid) + struct.pack('>I', 0) + \
                ID(cid['java.lang.String']) + struct.pack('>I', len(data)) + \
                data
        elif kind == 'bytes':
            ln = rng.choice([0, 3, 16, 100])
            rec = b'\x23' + ID(oid) + struct.pack('>II', 0, ln) + \
                bytes([T_BYTE]) + bytes(rng.randrange(2) for _ in range(ln))
        elif kind == 'ints':
            ln = rng.choice([1, 5, 40])
            rec = b'\x23' + ID(oid) + struct.pack('>II', 0, ln) + \
                bytes([T_INT]) + b''.join(struct.pack('>I', rng.randrange(3))
                                          for _ in range(ln))
        elif kind == 'nodata':
            rec = b'\xc3' + ID(oid) + struct.pack('>II', 0, 9) + \
                bytes([T_CHAR])
        else:
            ln = rng.choice([0, 2, 7])
            cls = rng.choice(['java.lang.Object[]', 'com.example.Node[]'])
            rec = b'\x22' + ID(oid) + struct.pack('>II', 0, ln) + \
                ID(cid[cls]) + b''.join(ID(ref()) for _ in range(ln))
        sub.append(rec)
    sub.extend(extra_arrays)
    leak_roots = []
    if leaks:
        def inst(oid, cls, vals):
            data = field_bytes(cls, vals)
            sub.append(b'\x21' + ID(oid) + struct.pack('>I', 0) +
                       ID(cid[cls]) + struct.pack('>I', len(data)) + data)
        act = 'com.example.MainActivity'
        inst(0x60000000, act, {('android.app.Activity', 'mDestroyed'): 1})
        inst(0x60000010, act, {})
        inst(0x60000020, act, {('android.app.Activity', 'mFinished'): 1})
        frag = 'com.example.MyFragment'
        inst(0x60000030, frag, {})
        inst(0x60000040, frag, {('androidx.fragment.app.Fragment',
                                 'mFragmentManager'): ids[0]})
        kwr = 'leakcanary.KeyedWeakReference'
        inst(0x60000050, kwr, {('java.lang.ref.Reference', 'referent'):
                               0x60000000})
        inst(0x60000060, kwr, {('java.lang.ref.Reference', 'referent'):
                               0x60000020})
        for oid in (0x60000000, 0x60000010, 0x60000030, 0x60000040,
                    0x60000050, 0x60000060):
            leak_roots.append(b'\x03' + ID(oid) + b'\0' * 8)

    class_recs = []
    for c in classes:
        statics = b''
        for fname, t in c[4]:
            statics += ID(strings[fname]) + bytes([t])
            statics += ID(ref()) if t == T_OBJ else \
                (5).to_bytes(SIZES[t], 'big')
        fields = b''.join(ID(strings[f]) + bytes([t]) for f, t in c[3])
        sup = cid[c[1]] if c[1] else 0
        rec = b'\x20' + ID(cid[c[0]]) + struct.pack('>I', 0) + ID(sup) + \
            ID(0) * 5 + struct.pack('>IH', c[2], 0) + \
            struct.pack('>H', len(c[4])) + statics + \
            struct.pack('>H', len(c[3])) + fields
        class_recs.append(rec)

    roots = []
    for c in classes:
        roots.append(b'\x05' + ID(cid[c[0]]))
    jvm_roots = [(0xff, 0), (0x01, 1), (0x02, 8), (0x03, 8), (0x04, 4),
                 (0x06, 4), (0x07, 0), (0x08, 8)]
    android_roots = [(0x89, 0), (0x8a, 0), (0x8b, 0), (0x8c, 0), (0x8d, 0),
                     (0x8e, 8), (0x90, 0)]
    kinds_r = jvm_roots + (android_roots if android else [])
    for _ in range(max(3, n // 40)):
        tag, extra = rng.choice(kinds_r)
        target = ids[rng.randrange(n)]
        if tag == 0x01:
            roots.append(bytes([tag]) + ID(target) + ID(0))
        else:
            roots.append(bytes([tag]) + ID(target) + b'\0' * extra)
    roots.append(b'\xff' + ID(0xBEEF0000))  # a root naming no object
    roots += leak_roots

    # Segments: roots and classes first, then objects in chunks, each
    # segment naming its heap again on Android.
    body_parts = [b''.join(roots)]
    heaps = ['zygote', 'image', 'app'] if android else [None]
    chunks = []
    per = max(1, (len(sub) + 5) // 6)
    for s in range(0, len(sub), per):
        chunks.append(sub[s:s + per])
    segs = []

    def info(h):
        return b'\xfe' + struct.pack('>I', {'app': ord('A'), 'image':
                                     ord('I'), 'zygote': ord('Z')}[h]) + \
            ID(strings[h])

    first = b''.join(roots) + b''.join(class_recs)
    if android:
        first = info('zygote') + first
    segs.append(first)
    for k, ch in enumerate(chunks):
        h = heaps[min(len(heaps) - 1, k * len(heaps) // max(1, len(chunks)))]
        segs.append((info(h) if android else b'') + b''.join(ch))
    with open(out, 'wb') as f:
        f.write(('JAVA PROFILE 1.0.3' if android else
                 'JAVA PROFILE 1.0.2').encode() + b'\0')
        f.write(struct.pack('>IQ', id_size, 1700000000000))
        for r in recs:
            f.write(r)
        for s in segs:
            f.write(struct.pack('>BII', 0x1c, 0, len(s)))
            f.write(s)
        f.write(struct.pack('>BII', 0x2c, 0, 0))


main()
