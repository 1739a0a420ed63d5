/*
 * profile: one pass over the scope's calls.  A call's exclusive time is
 * its duration minus its children's, so each call adds its duration to
 * its own method and subtracts it from its parent's method: no per-call
 * child sums are stored.
 */
#include "config.h"

#include "query/profile.h"

#include "util/alloc.h"
#include "util/jobs.h"
#include "util/map.h"
#include "util/sort.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Add call i, called by parent and lasting dur, to rows and links. */
static void
add_call(struct profile_row *rows, struct link_table *links,
         const struct calltree *tree, size_t i, uint32_t parent,
         const uint64_t *dur)
{
	const struct tt_calls *c = &tree->calls;
	uint32_t m = calltree_method(tree, i);
	uint32_t pm =
	        parent == CALL_NONE ? CALL_NONE : calltree_method(tree, parent);
	bool rec = c->flags[i] & CALL_RECURSIVE;
	bool parent_rec =
	        parent != CALL_NONE && (c->flags[parent] & CALL_RECURSIVE);

	sums_add_call(&rows[m], parent == CALL_NONE ? NULL : &rows[pm],
	              link_slot(links, pm, m, rec, parent_rec), rec, parent_rec,
	              dur);
}

/* Add calls [from, to) of one thread, whole. */
static void
add_calls(struct profile_row *rows, struct link_table *links,
          const struct calltree *tree, size_t from, size_t to)
{
	struct calltree_walk walk = {0};
	uint64_t dur[CLOCK_COUNT];
	size_t i;
	int k;

	if (from >= to)
		return;
	calltree_walk_start(&walk, tree, from);
	for (i = from; i < to; i++) {
		for (k = 0; k < CLOCK_COUNT; k++)
			dur[k] = tree->has_clock[k]
			                 ? calltree_duration(tree, i, k)
			                 : 0;
		add_call(rows, links, tree, i, calltree_walk_parent(&walk, i),
		         dur);
	}
	calltree_walk_done(&walk);
}

/* Add the calls of thread t that the scope's range touches (every call
 * when scope is NULL). */
static void
add_thread_calls(struct profile_row *rows, struct link_table *links,
                 const struct calltree *tree, const struct scope *scope,
                 size_t t, struct scope_span *span)
{
	const struct tt_thread *th = &tree->threads[t];
	struct calltree_walk walk = {0};
	uint64_t dur[CLOCK_COUNT];
	size_t i;

	if (!scope || !scope->range.on) {
		add_calls(rows, links, tree, th->first_call,
		          th->first_call + th->ncalls);
		return;
	}
	scope_span_of(span, scope, tree, t);
	for (i = 0; i < span->nopen; i++) {
		scope_clip(scope, tree, span, span->open[i], dur);
		add_call(rows, links, tree, span->open[i],
		         calltree_parent(tree, span->open[i]), dur);
	}
	if (span->first < span->end)
		calltree_walk_start(&walk, tree, span->first);
	for (i = span->first; i < span->end; i++) {
		scope_clip(scope, tree, span, i, dur);
		add_call(rows, links, tree, i, calltree_walk_parent(&walk, i),
		         dur);
	}
	calltree_walk_done(&walk);
}

void
profile_start(struct profile *out, const struct calltree *tree,
              const struct scope *scope)
{
	int k;

	memset(out, 0, sizeof(*out));
	out->nrows = tree->nmethods;
	out->rows = xcalloc(tree->nmethods + 1, sizeof(*out->rows));
	for (k = 0; k < CLOCK_COUNT; k++)
		out->total[k] = scope_total(scope, tree, k);
}

/* The threads' sums in three arrays, thread after thread: thread t's
 * rows are rows[row_at[t]] up to rows[row_at[t + 1]] (of the methods
 * methods[] at the same places), its links links[link_at[t]] up to
 * links[link_at[t + 1]].  No block per thread: a million threads cost
 * their numbers, not a million headers and allocations.  A thread of
 * fewer than CACHE_MIN_CALLS calls has none (its calls are summed again,
 * no slower than its sums would be): a thread that made calls and has
 * no link is one. */
struct profile_cache {
	uint32_t *methods;
	struct profile_row *rows;
	struct profile_link *links;
	size_t *row_at, *link_at; /* nthreads + 1 each */
	size_t nthreads;
	size_t method_cap, row_cap, link_cap; /* while it is made */
};

/* The aggregates of calls [from, to) of one thread into a; rows and used
 * have a zero entry per method, and have them again on return. */
static void
aggregate_part(struct thread_sums *a, const struct calltree *tree, size_t from,
               size_t to, struct profile_row *rows, uint8_t *used)
{
	struct link_table *links = xcalloc(1, sizeof(*links));
	size_t n = 0, i;

	add_calls(rows, links, tree, from, to);
	link_table_done(links);
	/* Kept as long as the cache: as long as what they hold, not the
	 * room they grew to (a million one-call threads). */
	a->links = links->count ? xreallocarray(links->links, links->count,
	                                        sizeof(*links->links))
	                        : links->links;
	a->nlinks = links->count;
	/* Collect the methods touched (called, or parents of calls: a part
	 * that starts inside a call has callers it did not count), then
	 * clear the dense rows for the next part. */
	a->methods = xcalloc(2 * a->nlinks + 1, sizeof(*a->methods));
	for (i = 0; i < 2 * a->nlinks; i++) {
		uint32_t m =
		        i % 2 ? a->links[i / 2].parent : a->links[i / 2].child;

		if (m != CALL_NONE && !used[m]) {
			used[m] = 1;
			a->methods[n++] = m;
		}
	}
	a->count = n;
	if (n)
		a->methods = xreallocarray(a->methods, n, sizeof(*a->methods));
	a->rows = xcalloc(n ? n : 1, sizeof(*a->rows));
	for (i = 0; i < n; i++) {
		a->rows[i] = rows[a->methods[i]];
		memset(&rows[a->methods[i]], 0, sizeof(*rows));
		used[a->methods[i]] = 0;
	}
	free(links);
}

/* Add the links of a to links, in their order. */
static void
links_add(struct link_table *links, const struct thread_sums *a)
{
	size_t i;

	for (i = 0; i < a->nlinks; i++)
		link_table_add(links, &a->links[i]);
}

/* The n consecutive parts of one thread, summed in order into out (the
 * links in the order one pass would make them); the parts are freed. */
static void
join_parts(struct thread_sums *out, struct thread_sums *parts, size_t n,
           size_t nmethods)
{
	struct link_table links = {0};
	struct profile_row *rows = xcalloc(nmethods + 1, sizeof(*rows));
	uint8_t *used = xcalloc(nmethods + 1, 1);
	size_t most = 0, count = 0, p, i;

	for (p = 0; p < n; p++)
		most += parts[p].count;
	out->methods = xcalloc(most + 1, sizeof(*out->methods));
	for (p = 0; p < n; p++) {
		for (i = 0; i < parts[p].count; i++) {
			uint32_t m = parts[p].methods[i];

			sums_add_row(&rows[m], &parts[p].rows[i]);
			if (!used[m]) {
				used[m] = 1;
				out->methods[count++] = m;
			}
		}
		links_add(&links, &parts[p]);
		free(parts[p].methods);
		free(parts[p].rows);
		free(parts[p].links);
	}
	link_table_done(&links);
	out->links = links.links;
	out->nlinks = links.count;
	out->count = count;
	out->rows = xcalloc(count + 1, sizeof(*out->rows));
	for (i = 0; i < count; i++)
		out->rows[i] = rows[out->methods[i]];
	free(rows);
	free(used);
}

/* Calls [from, to) of a thread, summed by one worker. */
struct part {
	uint32_t thread;
	size_t from, to;
};

/* Workers share out the parts, largest threads' first. */
struct aggregate_job {
	const struct calltree *tree;
	struct thread_sums *out; /* one per part */
	const struct part *parts;
	size_t count;
	atomic_size_t *next; /* into parts */
};

static void *
aggregate_job(void *arg)
{
	struct aggregate_job *job = arg;
	size_t nm = job->tree->nmethods + 1, i;
	struct profile_row *rows = xcalloc(nm, sizeof(*rows));
	uint8_t *used = xcalloc(nm, 1);

	while ((i = atomic_fetch_add(job->next, 1)) < job->count)
		aggregate_part(&job->out[i], job->tree, job->parts[i].from,
		               job->parts[i].to, rows, used);
	free(rows);
	free(used);
	return NULL;
}

/* Calls below which a worker of its own is not worth starting. */
enum { CALLS_PER_JOB = 1 << 16 };

size_t profile_part_calls;

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Per thread of [first, end_thread), the aggregates of the threads
 * scope has (every thread when scope is NULL) that made min_calls calls
 * or more (at least 1), thread t's at t - first, built by one worker per
 * cpu; a thread with more calls than a part is summed in parts, side by
 * side, and joined. */
static struct thread_sums *
aggregate_threads(const struct calltree *tree, const struct scope *scope,
                  size_t first, size_t end_thread, uint32_t min_calls)
{
	struct thread_sums *out = xcalloc(end_thread - first + 1, sizeof(*out));
	uint64_t *by_size = xcalloc(end_thread - first + 1, sizeof(*by_size));
	struct aggregate_job jobs[UTIL_JOBS_MAX];
	struct thread_sums *sums;
	struct part *parts;
	atomic_size_t next;
	size_t n = 0, calls = 0, nparts = 0, part, t, p, q;
	unsigned i, njobs;

	for (t = first; t < end_thread; t++) {
		/* A thread without calls adds nothing (files may name
		 * millions of them). */
		if ((scope && !scope_has(scope, t)) ||
		    tree->threads[t].ncalls < min_calls)
			continue;
		/* Most calls first, then by index. */
		by_size[n++] = (uint64_t)(UINT32_MAX - tree->threads[t].ncalls)
		                       << 32 |
		               t;
		calls += tree->threads[t].ncalls;
	}
	sort_items(by_size, n, sizeof(*by_size), u64_cmp);
	njobs = util_jobs_count((unsigned)(calls / CALLS_PER_JOB + 1));
	/* Parts small enough to keep every worker busy to the end. */
	part = profile_part_calls ? profile_part_calls
	                          : calls / (4 * (size_t)njobs) + 1;
	if (!profile_part_calls && part < (size_t)1 << 20)
		part = (size_t)1 << 20;
	for (p = 0; p < n; p++) {
		size_t c = tree->threads[(uint32_t)by_size[p]].ncalls;

		nparts += c > part ? (c + part - 1) / part : 1;
	}
	parts = xcalloc(nparts + 1, sizeof(*parts));
	nparts = 0;
	for (p = 0; p < n; p++) {
		const struct tt_thread *th =
		        &tree->threads[(uint32_t)by_size[p]];
		size_t from = th->first_call, end = from + th->ncalls;

		do {
			size_t to = end - from > part ? from + part : end;

			parts[nparts++] =
			        (struct part){(uint32_t)by_size[p], from, to};
			from = to;
		} while (from < end);
	}
	free(by_size);
	sums = xcalloc(nparts + 1, sizeof(*sums));
	atomic_init(&next, 0);
	for (i = 0; i < njobs; i++)
		jobs[i] = (struct aggregate_job){tree, sums, parts, nparts,
		                                 &next};
	util_jobs_run(aggregate_job, jobs, sizeof(*jobs), njobs);
	for (p = 0; p < nparts; p = q) {
		for (q = p + 1;
		     q < nparts && parts[q].thread == parts[p].thread; q++)
			;
		if (q - p == 1)
			out[parts[p].thread - first] = sums[p];
		else
			join_parts(&out[parts[p].thread - first], sums + p,
			           q - p, tree->nmethods);
	}
	free(sums);
	free(parts);
	return out;
}

/* Add one thread's n rows (of methods) and nlinks links to rows and
 * links. */
static void
add_thread_sums(struct profile_row *rows, struct link_table *links,
                const uint32_t *methods, const struct profile_row *from,
                size_t n, const struct profile_link *their_links, size_t nlinks)
{
	size_t i;

	for (i = 0; i < n; i++)
		sums_add_row(&rows[methods[i]], &from[i]);
	for (i = 0; i < nlinks; i++)
		link_table_add(links, &their_links[i]);
}

/* out: the sums of the aggregates of the threads scope has. */
static void
merge_aggregates(struct profile *out, const struct thread_sums *threads,
                 size_t nthreads, const struct calltree *tree,
                 const struct scope *scope)
{
	struct link_table links = {0};
	size_t t;

	profile_start(out, tree, scope);
	for (t = 0; t < nthreads; t++) {
		const struct thread_sums *a = &threads[t];

		if (scope_has(scope, t))
			add_thread_sums(out->rows, &links, a->methods, a->rows,
			                a->count, a->links, a->nlinks);
	}
	link_table_done(&links);
	out->links = links.links;
	out->nlinks = links.count;
}

static void
aggregates_free(struct thread_sums *threads, size_t nthreads)
{
	size_t t;

	for (t = 0; t < nthreads; t++)
		thread_sums_done(&threads[t]);
	free(threads);
}

void
profile_compute(struct profile *out, const struct calltree *tree,
                const struct scope *scope)
{
	struct link_table links = {0};
	struct scope_span span = {0};
	struct thread_sums *threads;
	size_t t;

	if (tree->sums) {
		/* Summed as the trace was read (no calls, no range). */
		merge_aggregates(out, tree->sums, tree->nthreads, tree, scope);
		return;
	}
	if (!scope->range.on) {
		/* Thread by thread, side by side, then summed in thread
		 * order: the links come out in the order one pass over
		 * the threads would create them. */
		threads = aggregate_threads(tree, scope, 0, tree->nthreads, 1);
		merge_aggregates(out, threads, tree->nthreads, tree, scope);
		aggregates_free(threads, tree->nthreads);
		return;
	}
	profile_start(out, tree, scope);
	for (t = 0; t < tree->nthreads; t++)
		if (scope_has(scope, t))
			add_thread_calls(out->rows, &links, tree, scope, t,
			                 &span);
	scope_span_done(&span);
	link_table_done(&links);
	out->links = links.links;
	out->nlinks = links.count;
}

/* The sums of threads [first, first + n) appended to cache, thread after
 * thread; with owned, each thread's arrays are freed once copied, and
 * threads with them. */
static void
cache_append(struct profile_cache *cache, struct thread_sums *threads,
             size_t first, size_t n, bool owned)
{
	size_t nrows = cache->row_at[first], nlinks = cache->link_at[first], t;
	size_t need_rows = nrows, need_links = nlinks;

	for (t = 0; t < n; t++) {
		need_rows += threads[t].count;
		need_links += threads[t].nlinks;
	}
	UTIL_GROW(cache->methods, cache->method_cap, need_rows + 1);
	UTIL_GROW(cache->rows, cache->row_cap, need_rows + 1);
	UTIL_GROW(cache->links, cache->link_cap, need_links + 1);
	for (t = 0; t < n; t++) {
		struct thread_sums *a = &threads[t];

		cache->row_at[first + t] = nrows;
		cache->link_at[first + t] = nlinks;
		if (a->count) {
			memcpy(cache->methods + nrows, a->methods,
			       a->count * sizeof(*a->methods));
			memcpy(cache->rows + nrows, a->rows,
			       a->count * sizeof(*a->rows));
		}
		if (a->nlinks)
			memcpy(cache->links + nlinks, a->links,
			       a->nlinks * sizeof(*a->links));
		nrows += a->count;
		nlinks += a->nlinks;
		if (owned)
			thread_sums_done(a);
	}
	cache->row_at[first + n] = nrows;
	cache->link_at[first + n] = nlinks;
	if (owned)
		free(threads);
}

/* The calls of a thread below which its sums are not kept; the sums of
 * many threads are never held at once but packed, a batch at a time. */
enum { CACHE_MIN_CALLS = 32 };

size_t profile_cache_batch_threads = 1 << 16;

struct profile_cache *
profile_cache_new(const struct calltree *tree)
{
	struct profile_cache *cache = xcalloc(1, sizeof(*cache));
	size_t n = tree->nthreads, from, to;

	cache->nthreads = n;
	cache->row_at = xcalloc(n + 1, sizeof(*cache->row_at));
	cache->link_at = xcalloc(n + 1, sizeof(*cache->link_at));
	/* Loaded for its sums: they are the cache, and the model's. */
	if (tree->sums) {
		cache_append(cache, tree->sums, 0, n, false);
	} else {
		for (from = 0; from < n; from = to) {
			to = n - from > profile_cache_batch_threads
			             ? from + profile_cache_batch_threads
			             : n;
			cache_append(cache,
			             aggregate_threads(tree, NULL, from, to,
			                               CACHE_MIN_CALLS),
			             from, to - from, true);
		}
	}
	/* As long as what they hold, not the room they grew to. */
	cache->methods = xreallocarray(cache->methods, cache->row_at[n] + 1,
	                               sizeof(*cache->methods));
	cache->rows = xreallocarray(cache->rows, cache->row_at[n] + 1,
	                            sizeof(*cache->rows));
	cache->links = xreallocarray(cache->links, cache->link_at[n] + 1,
	                             sizeof(*cache->links));
	return cache;
}

void
profile_cache_free(struct profile_cache *cache)
{
	if (!cache)
		return;
	free(cache->methods);
	free(cache->rows);
	free(cache->links);
	free(cache->row_at);
	free(cache->link_at);
	free(cache);
}

void
profile_from_cache(struct profile *out, const struct profile_cache *cache,
                   const struct calltree *tree, const struct scope *scope)
{
	struct link_table links = {0};
	size_t t;

	profile_start(out, tree, scope);
	for (t = 0; t < cache->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		size_t r = cache->row_at[t], l = cache->link_at[t];

		if (!scope_has(scope, t))
			continue;
		/* The same sums, the links met in the same order. */
		if (l == cache->link_at[t + 1])
			add_calls(out->rows, &links, tree, th->first_call,
			          th->first_call + th->ncalls);
		else
			add_thread_sums(
			        out->rows, &links, cache->methods + r,
			        cache->rows + r, cache->row_at[t + 1] - r,
			        cache->links + l, cache->link_at[t + 1] - l);
	}
	link_table_done(&links);
	out->links = links.links;
	out->nlinks = links.count;
}

void
profile_done(struct profile *profile)
{
	free(profile->rows);
	free(profile->links);
	memset(profile, 0, sizeof(*profile));
}

struct edge_list {
	struct profile_edge *edges;
	size_t count, cap;
	struct util_map index; /* method << 1 | recursive -> edge */
};

static struct profile_edge *
edge_get(struct edge_list *l, uint32_t method, bool recursive)
{
	uint64_t key = (uint64_t)method << 1 | recursive;
	uint32_t *slot = util_map_slot(&l->index, key, CALL_NONE);
	struct profile_edge *e;

	if (*slot == CALL_NONE) {
		UTIL_GROW(l->edges, l->cap, l->count + 1);
		e = &l->edges[l->count];
		memset(e, 0, sizeof(*e));
		e->method = method;
		e->recursive = recursive;
		*slot = (uint32_t)l->count++;
	}
	return &l->edges[*slot];
}

static void
edge_add(struct edge_list *l, const struct calltree *tree, uint32_t method,
         bool recursive, size_t call)
{
	struct profile_edge *e = edge_get(l, method, recursive);
	int k;

	e->calls++;
	for (k = 0; k < CLOCK_COUNT; k++)
		if (tree->has_clock[k])
			e->incl[k] += calltree_duration(tree, call, k);
}

/* Add a link's numbers to the edge of (method, recursive). */
static void
edge_merge(struct edge_list *l, uint32_t method, bool recursive,
           const struct profile_link *link)
{
	struct profile_edge *e = edge_get(l, method, recursive);
	int k;

	e->calls += link->calls;
	for (k = 0; k < CLOCK_COUNT; k++)
		e->incl[k] += link->incl[k];
}

static int
edge_cmp(const void *a, const void *b, void *clock)
{
	const struct profile_edge *x = a, *y = b;
	enum clock_index sort_clock = *(const enum clock_index *)clock;

	if (x->recursive != y->recursive)
		return x->recursive ? 1 : -1;
	if (x->incl[sort_clock] != y->incl[sort_clock])
		return x->incl[sort_clock] > y->incl[sort_clock] ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->method < y->method ? -1 : x->method > y->method;
}

/* Sort the lists and hand them to out. */
static void
edges_finish(struct profile_edges *out, struct edge_list *parents,
             struct edge_list *children, uint32_t m, enum clock_index k)
{
	/* An empty list has a NULL array, which qsort_r may not be given. */
	if (parents->count > 1)
		qsort_r(parents->edges, parents->count, sizeof(*parents->edges),
		        edge_cmp, &k);
	if (children->count > 1)
		qsort_r(children->edges, children->count,
		        sizeof(*children->edges), edge_cmp, &k);
	out->method = m;
	out->parents = parents->edges;
	out->nparents = parents->count;
	out->children = children->edges;
	out->nchildren = children->count;
}

void
profile_edges_compute(struct profile_edges *out, const struct calltree *tree,
                      const struct scope *scope, uint32_t m, enum clock_index k)
{
	const struct tt_calls *c = &tree->calls;
	struct edge_list parents = {0}, children = {0};
	struct calltree_walk walk = {0};
	size_t t, i;

	util_map_init(&parents.index);
	util_map_init(&children.index);
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		if (!scope_has(scope, t) || !th->ncalls)
			continue;
		calltree_walk_start(&walk, tree, th->first_call);
		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			uint32_t p = calltree_walk_parent(&walk, i);

			if (calltree_method(tree, i) == m)
				edge_add(&parents, tree,
				         p == CALL_NONE
				                 ? CALL_NONE
				                 : calltree_method(tree, p),
				         c->flags[i] & CALL_RECURSIVE, i);
			if (p != CALL_NONE && calltree_method(tree, p) == m)
				edge_add(&children, tree,
				         calltree_method(tree, i),
				         c->flags[p] & CALL_RECURSIVE, i);
		}
	}
	calltree_walk_done(&walk);
	util_map_done(&parents.index);
	util_map_done(&children.index);
	/* An empty list has a NULL array, which qsort_r may not be given. */
	if (parents.count > 1)
		qsort_r(parents.edges, parents.count, sizeof(*parents.edges),
		        edge_cmp, &k);
	if (children.count > 1)
		qsort_r(children.edges, children.count, sizeof(*children.edges),
		        edge_cmp, &k);
	out->method = m;
	out->parents = parents.edges;
	out->nparents = parents.count;
	out->children = children.edges;
	out->nchildren = children.count;
}

void
profile_edges_of(struct profile_edges *out, const struct profile *p, uint32_t m,
                 enum clock_index k)
{
	struct edge_list parents = {0}, children = {0};
	size_t i;

	util_map_init(&parents.index);
	util_map_init(&children.index);
	for (i = 0; i < p->nlinks; i++) {
		const struct profile_link *l = &p->links[i];

		if (l->child == m)
			edge_merge(&parents, l->parent, l->child_recursive, l);
		if (l->parent == m)
			edge_merge(&children, l->child, l->parent_recursive, l);
	}
	util_map_done(&parents.index);
	util_map_done(&children.index);
	edges_finish(out, &parents, &children, m, k);
}

void
profile_edges_done(struct profile_edges *edges)
{
	free(edges->parents);
	free(edges->children);
	memset(edges, 0, sizeof(*edges));
}
