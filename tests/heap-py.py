#!/usr/bin/env python3
"""Run several of the heap tests' Python scripts in one interpreter.

  heap-py.py OUT ERR SCRIPT ARGS... [:: OUT ERR SCRIPT ARGS...]...

runs each SCRIPT (tests/heap-gen.py, tests/heap-oracle.py, a snippet the
suite wrote) as `python3 SCRIPT ARGS...` would, in order, its standard
output written to OUT and its errors to ERR ('-': this process's own).  A
python3 start costs more than the scripts on the small dumps the suites
make.  Exits 1 when any script failed (each failure named on stderr),
after running them all.
"""
import contextlib
import runpy
import sys


def run(out, err, argv):
    sys.argv = argv
    status = 0
    with contextlib.ExitStack() as stack:
        o = sys.stdout if out == '-' else stack.enter_context(
            open(out, 'w', encoding='utf-8'))
        e = sys.stderr if err == '-' else stack.enter_context(
            open(err, 'w', encoding='utf-8'))
        try:
            with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
                runpy.run_path(argv[0], run_name='__main__')
        except SystemExit as x:
            if x.code not in (None, 0):
                status = 1
                if isinstance(x.code, str):
                    print(x.code, file=e)
        except Exception as x:  # a script's crash: named, the others run
            status = 1
            print('%s: %s: %s' % (argv[0], type(x).__name__, x), file=e)
    return status


def main():
    args = sys.argv[1:]
    jobs, job = [], []
    for a in args:
        if a == '::':
            jobs.append(job)
            job = []
        else:
            job.append(a)
    jobs.append(job)
    failed = 0
    for job in jobs:
        if len(job) < 3:
            print('heap-py.py: a job needs OUT ERR SCRIPT', file=sys.stderr)
            failed = 1
            continue
        if run(job[0], job[1], job[2:]):
            print('heap-py.py: %s failed' % ' '.join(job[2:]),
                  file=sys.stderr)
            failed = 1
    sys.exit(failed)


main()
