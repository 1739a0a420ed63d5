/*
 * floor: the least work any reader of a V1 one-file trace must do: map
 * the file, find the end of the key, and touch every field of every
 * record once.  `make bench` compares tracetui's load against this.
 *
 *   floor FILE          prints the record count and a checksum
 *   floor --fresh BYTES writes BYTES of newly allocated memory once: what
 *                       any model of that size costs in page faults
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	const unsigned char *p, *data, *end;
	unsigned size, offset;
	uint64_t sum = 0, n = 0;
	struct stat st;
	int fd;

	if (argc == 3 && strcmp(argv[1], "--fresh") == 0) {
		size_t bytes = strtoull(argv[2], NULL, 10), i;
		volatile unsigned char *m = malloc(bytes ? bytes : 1);

		if (!m)
			return 2;
		for (i = 0; i < bytes; i += 4096)
			m[i] = 1;
		printf("%zu bytes written\n", bytes);
		return 0;
	}
	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0 ||
	    fstat(fd, &st) < 0) {
		fprintf(stderr, "usage: floor FILE\n");
		return 2;
	}
	data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		return 2;
	end = data + st.st_size;
	p = memmem(data, (size_t)st.st_size, "\n*end\n", 6);
	if (!p)
		return 2;
	p += 6;
	offset = (unsigned)(p[6] | p[7] << 8);
	size = p[4] >= 3 ? (unsigned)(p[16] | p[17] << 8) : p[4] == 2 ? 10 : 9;
	for (p += offset; p + size <= end; p += size, n++)
		sum += (uint64_t)(p[0] | p[1] << 8) ^
		       (uint64_t)(p[2] | p[3] << 8 | p[4] << 16 |
		                  (uint32_t)p[5] << 24) ^
		       (uint64_t)(p[6] | p[7] << 8 | p[8] << 16 |
		                  (uint32_t)p[9] << 24) ^
		       (uint64_t)(p[10] | p[11] << 8 | p[12] << 16 |
		                  (uint32_t)p[13] << 24);
	printf("%llu records, checksum %llx\n", (unsigned long long)n,
	       (unsigned long long)sum);
	return 0;
}
