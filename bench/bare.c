/*
 * bare: a loader of V1 one-file traces stripped to what any loader that
 * builds a per-call model must do, on every cpu.  `make bench` sets
 * tracetui's load against it.
 *
 *   bare FILE    prints the call count and a checksum
 *
 * One worker per cpu (at most 8) walks every record and takes the thread
 * ids that are its own (id modulo workers).  An entry opens a call: its
 * method, depth, flags and starts go into the thread's slice of fresh
 * arrays (13 bytes a call with two time fields, as in tracetui's model).
 * An exit of the method on top of the stack closes it: its durations go
 * in.  Nothing else is done: no counting pass, no clock unwrapping or
 * clamping, no method lookup, no recursion flags, and every other exit
 * is skipped.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_WORKERS = 8, TIDS = 65536 };

struct layout {
	const unsigned char *records;
	size_t count, size;
	unsigned tid_bytes;
	bool two_times;
};

struct frame {
	uint32_t id, a, b, call;
};

/* A thread's model slice and stack. */
struct thread {
	uint16_t *method, *depth, *start_a, *start_b, *dur_a, *dur_b;
	uint8_t *flags;
	size_t ncalls;
	struct frame *stack;
	size_t sp, stack_cap;
};

struct worker {
	const struct layout *l;
	bool mine[TIDS];              /* the thread ids it takes */
	struct thread *threads[TIDS]; /* by thread id */
	uint64_t calls, sum;
};

static uint32_t
u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void *
must(void *p)
{
	if (!p) {
		perror("bare");
		exit(2);
	}
	return p;
}

/* A thread with room for every record's call (pages are touched only as
 * calls are written). */
static struct thread *
thread_new(size_t records)
{
	struct thread *t = must(calloc(1, sizeof(*t)));
	size_t wide = (records + 1) * sizeof(uint16_t);

	t->method = must(malloc(wide));
	t->depth = must(malloc(wide));
	t->start_a = must(malloc(wide));
	t->start_b = must(malloc(wide));
	t->dur_a = must(malloc(wide));
	t->dur_b = must(malloc(wide));
	t->flags = must(malloc(records + 1));
	return t;
}

/* Walk the records, keeping the current thread's state in locals: a
 * store into the model's arrays could otherwise alias it. */
static void *
walk(void *arg)
{
	struct worker *w = arg;
	const struct layout l = *w->l;
	struct thread *t = NULL;
	struct frame *stack = NULL;
	size_t i, sp = 0, ncalls = 0, cap = 0;
	uint64_t sum = 0;
	unsigned cur = TIDS;

	for (i = 0; i < l.count; i++) {
		const unsigned char *r = l.records + i * l.size;
		unsigned tid = l.tid_bytes == 2 ? r[0] | r[1] << 8 : r[0];
		uint32_t word = u32_at(r + l.tid_bytes), id = word & ~3u;
		uint32_t a = u32_at(r + l.tid_bytes + 4);
		uint32_t b = l.two_times ? u32_at(r + l.tid_bytes + 8) : 0;

		if (tid != cur) {
			if (!w->mine[tid])
				continue;
			if (t) {
				t->sp = sp;
				t->ncalls = ncalls;
				t->stack = stack;
				t->stack_cap = cap;
			}
			t = w->threads[tid];
			if (!t)
				t = w->threads[tid] = thread_new(l.count);
			sp = t->sp;
			ncalls = t->ncalls;
			stack = t->stack;
			cap = t->stack_cap;
			cur = tid;
		}
		if ((word & 3) == 0) {
			size_t c = ncalls++;

			if (sp == cap) {
				cap = cap ? 2 * cap : 256;
				stack = must(
				        realloc(stack, cap * sizeof(*stack)));
			}
			t->method[c] = (uint16_t)(id >> 2);
			t->depth[c] = (uint16_t)sp;
			t->flags[c] = 0;
			t->start_a[c] = (uint16_t)a;
			t->start_b[c] = (uint16_t)b;
			stack[sp++] = (struct frame){id, a, b, (uint32_t)c};
		} else if (sp && stack[sp - 1].id == id) {
			const struct frame *f = &stack[--sp];
			uint16_t da = (uint16_t)(a - f->a),
			         db = (uint16_t)(b - f->b);

			t->dur_a[f->call] = da;
			t->dur_b[f->call] = db;
			sum += da ^ db;
		}
	}
	if (t)
		t->ncalls = ncalls;
	for (i = 0; i < TIDS; i++)
		if (w->mine[i] && w->threads[i])
			w->calls += w->threads[i]->ncalls;
	w->sum = sum;
	return NULL;
}

int
main(int argc, char **argv)
{
	static struct worker workers[MAX_WORKERS];
	pthread_t ids[MAX_WORKERS];
	const unsigned char *data, *p;
	struct layout l;
	uint64_t calls = 0, sum = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cpus < 1 ? 1 : cpus > MAX_WORKERS ? MAX_WORKERS : cpus, i;
	struct stat st;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0 ||
	    fstat(fd, &st) < 0) {
		fprintf(stderr, "usage: bare FILE\n");
		return 2;
	}
	data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		return 2;
	p = memmem(data, (size_t)st.st_size, "\n*end\n", 6);
	if (!p)
		return 2;
	p += 6;
	l.size = p[4] >= 3 ? (size_t)(p[16] | p[17] << 8) : p[4] == 2 ? 10 : 9;
	l.tid_bytes = p[4] >= 2 ? 2 : 1;
	l.two_times = l.size >= l.tid_bytes + 12;
	l.records = p + (p[6] | p[7] << 8);
	l.count = (size_t)(data + st.st_size - l.records) / l.size;
	for (i = 0; i < n; i++) {
		unsigned tid;

		workers[i].l = &l;
		for (tid = i; tid < TIDS; tid += n)
			workers[i].mine[tid] = true;
		if (pthread_create(&ids[i], NULL, walk, &workers[i]))
			return 2;
	}
	for (i = 0; i < n; i++) {
		pthread_join(ids[i], NULL);
		calls += workers[i].calls;
		sum += workers[i].sum;
	}
	printf("%llu calls on %u workers, checksum %llx\n",
	       (unsigned long long)calls, n, (unsigned long long)sum);
	return 0;
}
