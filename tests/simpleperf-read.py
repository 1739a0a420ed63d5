#!/usr/bin/env python3
"""simpleperf-read.py: an independent reading of a simpleperf
`report-sample --protobuf` recording (gzipped or not), written from the
format's definition (cmd_report_sample.proto), not from tracetui's code,
to check what tracetui says of frames and folded stacks.

  simpleperf-read.py frames FILE [REGEX]
      Per thread, its frames: from the first sample (of any event type)
      whose stack holds a method matching REGEX (by default
      Choreographer.doFrame) to the first later sample of that thread
      without one; a frame still open at the thread's last sample ends
      where that sample's time ends (a cpu-clock or task-clock sample's
      event count after it, any other's the sampling period: the median
      event count of those).  TSV: tid, start_us (since the
      recording's first sample of any type), wall_us; times floored to
      microseconds.
  simpleperf-read.py folded FILE [TYPE]
      Folded stacks of event type TYPE (a name or an index; the first by
      default): "thread;root;...;leaf US" summed per line, US the samples'
      time in microseconds: a cpu-clock or task-clock sample's event
      count, any other sample's time to its thread's next sample of that
      type, at most the sampling period (the median step between a
      thread's consecutive samples of that type).
  simpleperf-read.py roots FILE [TYPE]
      Per thread, the samples of event type TYPE (the first by default):
      tid, the first's time and the last's (us since the recording's
      first sample of any type), and the names of their outermost
      frames, sorted, joined by '|'.
  simpleperf-read.py write SEED OUT
      Write a recording of its own, from a seeded generator: a few
      threads, cpu-clock samples about every 250 us and off-CPU
      (sched:sched_switch) samples between them, stacks that enter and
      leave Choreographer.doFrame and other methods, idle gaps.
  simpleperf-read.py all FILE DIR [SEED]
      With SEED, write that recording to FILE first; then DIR/frames,
      DIR/roots (the first type) and DIR/folded.K for each event type K
      (an index): what frames, roots and folded print, in one process.
"""
import gzip
import os
import re
import sys

DOFRAME = r"^android\.view\.Choreographer\.doFrame( |$)"
TIME_TYPES = ("cpu-clock", "task-clock")


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(number, value) of each field of message b; length-delimited
    values as bytes, varints as ints."""
    i = 0
    out = []
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            i += n
        elif wt == 1:
            v = int.from_bytes(b[i:i + 8], "little")
            i += 8
        elif wt == 5:
            v = int.from_bytes(b[i:i + 4], "little")
            i += 4
        else:
            raise ValueError("wire type %d" % wt)
        out.append((num, v))
    return out


def read(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    assert data[:10] == b"SIMPLEPERF", "not a simpleperf recording"
    i = 12
    samples, files, threads, types = [], {}, {}, []
    while i + 4 <= len(data):
        size = int.from_bytes(data[i:i + 4], "little")
        i += 4
        if size == 0:
            break
        rec = data[i:i + size]
        i += size
        for num, v in fields(rec):
            if num == 1:  # Sample
                s = {"time": 0, "tid": 0, "chain": [], "count": 0,
                     "type": 0, "order": len(samples)}
                for f, x in fields(v):
                    if f == 1:
                        s["time"] = x
                    elif f == 2:
                        s["tid"] = x
                    elif f == 3:
                        e = dict(fields(x))
                        sym = e.get(3, 0)
                        if sym >= 1 << 31:
                            sym -= 1 << 32
                        if sym >= 1 << 63:
                            sym -= 1 << 64
                        s["chain"].append((e.get(1, 0), e.get(2, 0), sym))
                    elif f == 4:
                        s["count"] = x
                    elif f == 5:
                        s["type"] = x
                samples.append(s)
            elif num == 3:  # File
                fid, fpath, syms = 0, "", []
                for f, x in fields(v):
                    if f == 1:
                        fid = x
                    elif f == 2:
                        fpath = x.decode("utf-8", "replace")
                    elif f == 3:
                        syms.append(x.decode("utf-8", "replace"))
                files.setdefault(fid, (fpath, syms))
            elif num == 4:  # Thread
                t = dict(fields(v))
                threads[t.get(1, 0)] = t.get(3, b"").decode("utf-8", "replace")
            elif num == 5:  # MetaInfo
                for f, x in fields(v):
                    if f == 1:
                        types.append(x.decode("utf-8", "replace"))
    return samples, files, threads, types


def name_of(files, entry):
    vaddr, fid, sym = entry
    fpath, syms = files.get(fid, ("", []))
    if 0 <= sym < len(syms):
        return syms[sym]
    return "%s+0x%x" % (os.path.basename(fpath), vaddr)


def frames(path, regex):
    samples, files, _, types = read(path)
    rx = re.compile(regex)
    timed = [k for k, t in enumerate(types) if t in TIME_TYPES]
    counts = sorted(s["count"] for s in samples if s["type"] in timed)
    period = counts[len(counts) // 2] if counts else 0
    t0 = min(s["time"] for s in samples)
    by_tid = {}
    for s in samples:
        by_tid.setdefault(s["tid"], []).append(s)
    for tid in sorted(by_tid):
        run = sorted(by_tid[tid], key=lambda s: (s["time"], s["order"]))
        start = None
        for s in run:
            holds = any(rx.search(name_of(files, e)) for e in s["chain"])
            if holds and start is None:
                start = s["time"]
            elif not holds and start is not None:
                print("%d\t%d\t%d" % (tid, (start - t0) // 1000,
                                      (s["time"] - start) // 1000))
                start = None
        if start is not None:
            last = run[-1]
            ns = last["count"] if last["type"] in timed else period
            print("%d\t%d\t%d" % (tid, (start - t0) // 1000,
                                  (last["time"] + ns - start) // 1000))


def folded(path, which):
    samples, files, threads, types = read(path)
    k = types.index(which) if which in types else int(which)
    chosen = sorted((s for s in samples if s["type"] == k),
                    key=lambda s: (s["tid"], s["time"], s["order"]))
    timed = types[k] in TIME_TYPES
    steps = sorted(b["time"] - a["time"] for a, b in zip(chosen, chosen[1:])
                   if a["tid"] == b["tid"] and b["time"] > a["time"])
    period = steps[len(steps) // 2] if steps else 1
    sums = {}
    for n, s in enumerate(chosen):
        if timed:
            ns = s["count"]
        else:
            ns = period
            nxt = chosen[n + 1] if n + 1 < len(chosen) else None
            if nxt and nxt["tid"] == s["tid"]:
                ns = min(ns, nxt["time"] - s["time"])
        thread = threads.get(s["tid"], "thread %d" % s["tid"])
        thread = thread.replace(";", "_").replace(" ", "_")
        names = [name_of(files, e).replace(";", ",")
                 for e in reversed(s["chain"])]
        line = ";".join([thread] + names)
        sums[line] = sums.get(line, 0) + ns
    for line in sorted(sums):
        print("%s %.3f" % (line, sums[line] / 1000))


def roots(path, which):
    samples, files, _, types = read(path)
    k = types.index(which) if which in types else int(which)
    t0 = min(s["time"] for s in samples)
    by_tid = {}
    for s in samples:
        if s["type"] == k and s["chain"]:
            by_tid.setdefault(s["tid"], []).append(s)
    for tid in sorted(by_tid):
        run = by_tid[tid]
        names = sorted(set(name_of(files, s["chain"][-1]) for s in run))
        print("%d\t%d\t%d\t%s" % (tid, (min(s["time"] for s in run) - t0) // 1000,
                                 (max(s["time"] for s in run) - t0) // 1000,
                                 "|".join(names)))


def put_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, v):
    if isinstance(v, (bytes, bytearray)):
        return put_varint(num << 3 | 2) + put_varint(len(v)) + v
    return put_varint(num << 3) + put_varint(v)


def write(seed, out):
    import random
    rng = random.Random(int(seed))
    java = ["android.os.Looper.loop", "android.os.Handler.dispatchMessage",
            "android.view.Choreographer.doFrame",
            "android.view.ViewRootImpl.performTraversals",
            "android.view.View.measure", "android.view.View.draw",
            "android.os.MessageQueue.next", "com.example.Work.run"]
    records = []
    for tid in (100, 101, 102):
        t = 1000000 + rng.randrange(0, 500000)
        stack = [0, 1]
        for _ in range(rng.randrange(50, 400)):
            r = rng.random()
            if r < 0.25 and len(stack) > 2:
                del stack[rng.randrange(2, len(stack)):]
            elif r < 0.6 and len(stack) < 8:
                stack.append(rng.randrange(2, len(java)))
            gap = 250000 if rng.random() < 0.8 else rng.randrange(1, 40) * 250000
            t += gap + rng.randrange(-20000, 20000)
            offcpu = rng.random() < 0.3
            when = t + (rng.randrange(10000, 240000) if offcpu else 0)
            chain = b"".join(field(3, field(1, 0x100 + 4 * m) + field(2, 1) +
                                   field(3, m))
                             for m in reversed(stack))
            sample = (field(1, when) + field(2, tid) + chain +
                      field(4, 1 if offcpu else 250000) +
                      field(5, 1 if offcpu else 0))
            records.append(field(1, sample))
    rng.shuffle(records)
    records.append(field(3, field(1, 1) + field(2, b"/system/framework/framework.jar") +
                   b"".join(field(3, n.encode()) for n in java)))
    for tid in (100, 101, 102):
        records.append(field(4, field(1, tid) + field(2, 100) +
                             field(3, b"t%d" % tid)))
    records.append(field(5, field(1, b"cpu-clock") +
                         field(1, b"sched:sched_switch") + field(6, 1)))
    with open(out, "wb") as f:
        f.write(b"SIMPLEPERF" + (1).to_bytes(2, "little"))
        for r in records:
            f.write(len(r).to_bytes(4, "little") + r)
        f.write((0).to_bytes(4, "little"))


def every(path, out, seed):
    """The `all` command (the docstring's)."""
    import contextlib
    if seed is not None:
        write(seed, path)
    _, _, _, types = read(path)
    jobs = [("frames", frames, DOFRAME), ("roots", roots, "0")]
    jobs += [("folded.%d" % k, folded, str(k)) for k in range(len(types))]
    for name, job, arg in jobs:
        with open(os.path.join(out, name), "w") as f, \
                contextlib.redirect_stdout(f):
            job(path, arg)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "frames":
        frames(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else DOFRAME)
    elif len(sys.argv) >= 3 and sys.argv[1] == "folded":
        folded(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "0")
    elif len(sys.argv) >= 3 and sys.argv[1] == "roots":
        roots(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "0")
    elif len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "all":
        every(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        sys.exit(__doc__)
