/*
 * request: the table built from REQUEST_LIST.
 */
#include "config.h"

#include "tui/request.h"

#include <string.h>

const struct request_info request_table[REQ_COUNT - 1] = {
#define REQUEST_INFO(id, group, keys, help) {REQ_##id, #id, group, keys, help},
        REQUEST_LIST(REQUEST_INFO)
#undef REQUEST_INFO
};

enum request
request_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < REQ_COUNT - 1; i++)
		if (strcmp(request_table[i].name, name) == 0)
			return request_table[i].request;
	return REQ_NONE;
}
