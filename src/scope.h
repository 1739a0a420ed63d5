/*
 * scope: which threads a view or command looks at.
 *
 * A scope is a set of thread indexes of one calltree; it owns its array.
 */
#ifndef TRACETUI_SCOPE_H
#define TRACETUI_SCOPE_H

#include "calltree.h"

#include <stdbool.h>
#include <stddef.h>

struct scope {
	bool *on;	 /* on[t]: thread t is in the scope */
	size_t nthreads;
	size_t count;	 /* threads in the scope */
};

/* A scope of every thread of tree. */
void scope_init_all(struct scope *scope, const struct calltree *tree);
/* A scope of no thread of tree. */
void scope_init_none(struct scope *scope, const struct calltree *tree);
/* Put thread t in the scope. */
void scope_add(struct scope *scope, size_t t);
/* True when thread t is in the scope. */
static inline bool
scope_has(const struct scope *scope, size_t t)
{
	return scope->on[t];
}
/* True when every thread is in the scope. */
static inline bool
scope_is_all(const struct scope *scope)
{
	return scope->count == scope->nthreads;
}
/* Release the array. */
void scope_done(struct scope *scope);

/*
 * Add the threads that sel names: "all", a thread name, or a thread id.
 * False when nothing matches.
 */
bool scope_select(struct scope *scope, const struct calltree *tree,
		  const char *sel);

/* Sum over the scope's threads of their traced time on clock k. */
uint64_t scope_total(const struct scope *scope, const struct calltree *tree,
		     enum clock_index k);

#endif
