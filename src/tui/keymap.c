/*
 * keymap: a key is looked up by parsing the key names of REQUEST_LIST
 * (a few dozen short strings: microseconds per key press); a key named by
 * two requests belongs to the first.
 */
#include "config.h"

#include "tui/keymap.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int key;
} named_keys[] = {
        {"Up", TKEY_UP},       {"Down", TKEY_DOWN},
        {"Left", TKEY_LEFT},   {"Right", TKEY_RIGHT},
        {"PgUp", TKEY_PGUP},   {"PgDn", TKEY_PGDN},
        {"Home", TKEY_HOME},   {"End", TKEY_END},
        {"Enter", TKEY_ENTER}, {"Esc", TKEY_ESC},
        {"Tab", TKEY_TAB},     {"S-Tab", TKEY_BTAB},
        {"Space", ' '},        {"Backspace", TKEY_BACKSPACE},
};

int
keymap_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(named_keys) / sizeof(named_keys[0]); i++)
		if (strcmp(name, named_keys[i].name) == 0)
			return named_keys[i].key;
	if (name[0] == 'C' && name[1] == '-' && name[2] && !name[3])
		return (name[2] | 0x20) - 'a' + 1;
	if (name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
		int n = atoi(name + 1);

		if (n >= 1 && n <= 12)
			return TKEY_F1 + n - 1;
	}
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	return TKEY_NONE;
}

enum request
keymap_lookup(int key)
{
	size_t i;

	for (i = 0; i < REQ_COUNT - 1; i++) {
		const char *p = request_table[i].keys;

		while (*p) {
			char name[16];
			size_t n = strcspn(p, " ");

			if (n < sizeof(name)) {
				memcpy(name, p, n);
				name[n] = '\0';
				if (keymap_parse(name) == key)
					return request_table[i].request;
			}
			p += n;
			while (*p == ' ')
				p++;
		}
	}
	return REQ_NONE;
}
