/*
 * color — parsing colours as users type them; see include/color.h.
 *
 * color_parse() accepts exactly three forms and nothing around them (no
 * spaces, no trailing junk): "#RRGGBB", "#RGB" and a CSS colour name from
 * the table below, matched case-insensitively.
 */
#include "color.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

/* CSS Color Module Level 4 names, the common subset, sorted by name. */
static const struct {
	const char *name;
	uint32_t rgb;
} names[] = {
	{ "aqua",        0x00FFFF },
	{ "beige",       0xF5F5DC },
	{ "black",       0x000000 },
	{ "blue",        0x0000FF },
	{ "brown",       0xA52A2A },
	{ "coral",       0xFF7F50 },
	{ "crimson",     0xDC143C },
	{ "cyan",        0x00FFFF },
	{ "darkblue",    0x00008B },
	{ "darkgray",    0xA9A9A9 },
	{ "darkgreen",   0x006400 },
	{ "darkgrey",    0xA9A9A9 },
	{ "darkred",     0x8B0000 },
	{ "fuchsia",     0xFF00FF },
	{ "gold",        0xFFD700 },
	{ "gray",        0x808080 },
	{ "green",       0x008000 },
	{ "grey",        0x808080 },
	{ "indigo",      0x4B0082 },
	{ "khaki",       0xF0E68C },
	{ "lightblue",   0xADD8E6 },
	{ "lightgray",   0xD3D3D3 },
	{ "lightgreen",  0x90EE90 }, /* the original's boids */
	{ "lightgrey",   0xD3D3D3 },
	{ "lime",        0x00FF00 },
	{ "magenta",     0xFF00FF },
	{ "maroon",      0x800000 },
	{ "midnightblue", 0x191970 },
	{ "navy",        0x000080 },
	{ "olive",       0x808000 },
	{ "orange",      0xFFA500 },
	{ "pink",        0xFFC0CB },
	{ "purple",      0x800080 },
	{ "red",         0xFF0000 },
	{ "salmon",      0xFA8072 },
	{ "silver",      0xC0C0C0 },
	{ "skyblue",     0x87CEEB },
	{ "steelblue",   0x4682B4 },
	{ "teal",        0x008080 },
	{ "tomato",      0xFF6347 },
	{ "turquoise",   0x40E0D0 },
	{ "violet",      0xEE82EE },
	{ "white",       0xFFFFFF }, /* the original's predators */
	{ "yellow",      0xFFFF00 },
};

/* ASCII-only, so the user's locale cannot change what a name means. */
static int name_equal(const char *s, const char *name)
{
	for (; *s && *name; s++, name++) {
		char c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != *name)
			return 0;
	}
	return *s == *name;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses the digits after '#': 6 of them, or 3 each doubled. */
static int parse_hex(const char *s, uint32_t *rgb)
{
	uint32_t v = 0;
	size_t n = 0;

	for (; s[n]; n++) {
		int d = hexval(s[n]);
		if (d < 0 || n >= 6)
			return -EINVAL;
		v = v << 4 | (uint32_t)d;
	}
	if (n == 3)
		v = (v & 0xF00) * 0x1100 | (v & 0x0F0) * 0x110 | (v & 0x00F) * 0x11;
	else if (n != 6)
		return -EINVAL;
	*rgb = v;
	return 0;
}

int color_parse(const char *s, uint32_t *rgb)
{
	if (!s)
		return -EINVAL;
	if (s[0] == '#')
		return parse_hex(s + 1, rgb);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name_equal(s, names[i].name)) {
			*rgb = names[i].rgb;
			return 0;
		}
	return -EINVAL;
}

size_t color_suggest(const char *s, char *out, size_t outlen)
{
	char low[SUGGEST_MAX_LEN + 1];
	size_t len = strlen(s);

	if (len > SUGGEST_MAX_LEN)
		len = SUGGEST_MAX_LEN + 1; /* near nothing */
	for (size_t i = 0; i < len && i < SUGGEST_MAX_LEN; i++)
		low[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
	return suggest_phrase(out, outlen, "", "", low, len, &names[0].name, sizeof(names) / sizeof(names[0]),
	                      sizeof(names[0]));
}

void color_format(uint32_t rgb, char buf[8])
{
	snprintf(buf, 8, "#%06x", (unsigned)(rgb & 0xFFFFFF));
}
