/*
 * heapwalk: the least work any reader of a heap dump must do: map the
 * file and walk every record and sub-record once (read/heap-hprof.c's
 * walk, its sink counting objects and summing their offsets).  `make
 * bench` compares `tracetui info` against this.
 *
 *   heapwalk FILE   prints the object count and a checksum
 */
#include "config.h"

#include "read/heap-hprof.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct count {
	uint64_t objects, sum;
};

static void
on_object(void *ctx, unsigned tag, uint64_t offset)
{
	struct count *c = ctx;

	c->objects++;
	c->sum += offset ^ tag;
}

int
main(int argc, char **argv)
{
	struct count c = {0, 0};
	struct heap_sink sink = {0};
	struct heap_hprof_header h;
	struct trace_error err = {0};
	struct stat st;
	void *data;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0 ||
	    fstat(fd, &st) < 0 || !st.st_size)
		return 2;
	data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		return 2;
	sink.ctx = &c;
	sink.object = on_object;
	heap_hprof_read(data, (size_t)st.st_size, &sink, &h, &err);
	printf("%llu objects, checksum %llu\n", (unsigned long long)c.objects,
	       (unsigned long long)c.sum);
	return 0;
}
