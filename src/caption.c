/*
 * caption — --caption's fields and the plugin that draws it; see
 * include/caption.h.
 */
#include "caption.h"

#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "plugin.h"
#include "suggest.h"

/* The field at *p (after its '{'): its name into name; returns the '}' or NULL. */
static const char *field_name(const char *p, char *name, size_t len)
{
	const char *end = strchr(p, '}');

	if (!end || (size_t)(end - p) >= len)
		return NULL;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = 0;
	return end;
}

/* The setting f names `name`, or -1 (none: {frame}, {time}, or no field). */
static long setting(const struct caption_fields *f, const char *name)
{
	for (size_t i = 0; f && i < f->n; i++)
		if (strcmp(f->names[i], name) == 0)
			return (long)i;
	return -1;
}

static int known(const struct caption_fields *f, const char *name)
{
	return strcmp(name, "frame") == 0 || strcmp(name, "time") == 0 || setting(f, name) >= 0;
}

/* " (did you mean {boids}?)": the fields nearest name, or "" (include/suggest.h). */
static size_t near_fields(const struct caption_fields *f, const char *name, char *out, size_t outlen)
{
	const char *fields[256] = { "frame", "time" };
	size_t n = 2;

	for (size_t i = 0; f && i < f->n && n < sizeof(fields) / sizeof(fields[0]); i++)
		fields[n++] = f->names[i];
	return suggest_phrase(out, outlen, "{", "}", name, strlen(name), fields, n, sizeof(fields[0]));
}

int caption_check(const char *text, const struct caption_fields *f, char *err, size_t errlen)
{
	char name[64];

	for (const char *p = text; *p; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			p++;
			continue;
		}
		if (*p == '}') {
			snprintf(err, errlen, "--caption: a lone '}' (write }} for one)");
			return -1;
		}
		if (*p != '{')
			continue;
		const char *end = field_name(p + 1, name, sizeof name);
		if (!end) {
			snprintf(err, errlen, "--caption: a '{' without its '}' (write {{ for one)");
			return -1;
		}
		if (!known(f, name)) {
			char near[160];
			if (near_fields(f, name, near, sizeof near) > 0)
				snprintf(err, errlen, "--caption: no field '{%s}'%s", name, near);
			else
				snprintf(err, errlen, "--caption: no field '{%s}' (fields: {frame}, {time}, and any "
				         "setting such as {model} or {boids}; boids --list-options names them)", name);
			for (char *c = err; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			return -1;
		}
		p = end;
	}
	return 0;
}

/* Appends s to out[*n .. len - 1). */
static void put(char *out, size_t len, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (*n + k >= len)
		k = len - 1 - *n;
	memcpy(out + *n, s, k);
	*n += k;
	out[*n] = 0;
}

void caption_format(const struct config *c, const char *text, long frame, char *out, size_t len)
{
	char name[64], value[512];
	size_t n = 0;

	out[0] = 0;
	for (const char *p = text; *p && n + 1 < len; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			out[n++] = *p++;
			out[n] = 0;
			continue;
		}
		const char *end = *p == '{' ? field_name(p + 1, name, sizeof name) : NULL;
		if (!end) {
			out[n++] = *p;
			out[n] = 0;
			continue;
		}
		const struct caption_fields *f = c->run.caption_fields;
		long i = setting(f, name);
		if (strcmp(name, "frame") == 0)
			snprintf(value, sizeof value, "%ld", frame);
		else if (strcmp(name, "time") == 0)
			snprintf(value, sizeof value, "%.2f", rate_seconds(c->run.fps, frame));
		else if (i >= 0)
			f->value(c, (size_t)i, value, sizeof value);
		else
			value[0] = 0; /* caption_check() refused it */
		put(out, len, &n, value);
		p = end;
	}
	while (n > 0 && ((unsigned char)out[n - 1] & 0xc0) == 0x80 && n + 1 >= len)
		out[--n] = 0; /* cut: no half character */
}

/* Set when the plugin's object is linked in (the test binaries); NULL in boids. */
extern caption_plugin_draw boids_caption_draw __attribute__((weak));
extern caption_plugin_version boids_caption_version __attribute__((weak));

/*
 * The plugin's symbol `name`: linked in (linked), else from the plugin
 * file (include/plugin.h).  NULL with a message naming the file and the
 * loader's reason in err.
 */
static void *caption_symbol(void *linked, const char *name, char *err, size_t errlen)
{
	return linked ? linked : plugin_symbol(CAPTION_PLUGIN_FILE, name, "caption", err, errlen);
}

int caption_load(struct caption *cap, const struct config *c, char *err, size_t errlen)
{
	void *linked, *sym;

	cap->cfg = c;
	cap->size = c->run.caption_size >= 4 ? c->run.caption_size
	                                     : (c->render.height / 24 > 12 ? c->render.height / 24 : 12);
	memcpy(&linked, &(caption_plugin_draw *){ boids_caption_draw }, sizeof linked);
	if (!(sym = caption_symbol(boids_caption_draw ? linked : NULL, CAPTION_PLUGIN_SYMBOL, err, errlen)))
		return -1;
	memcpy(&cap->draw, &sym, sizeof cap->draw); /* POSIX: a data pointer to a function pointer */
	return 0;
}

const char *caption_pango_version(char *err, size_t errlen)
{
	void *linked, *sym;
	caption_plugin_version *get;

	memcpy(&linked, &(caption_plugin_version *){ boids_caption_version }, sizeof linked);
	if (!(sym = caption_symbol(boids_caption_version ? linked : NULL, CAPTION_PLUGIN_VERSION, err, errlen)))
		return NULL;
	memcpy(&get, &sym, sizeof get);
	return get();
}

int caption_draw(const struct caption *cap, unsigned char *pixels, int stride, int w, int h, long frame)
{
	char text[4096];
	cairo_surface_t *s = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, w, h, stride);
	cairo_t *cr = cairo_create(s);

	caption_format(cap->cfg, cap->cfg->run.caption, frame, text, sizeof text);
	int ret = cap->draw(cr, text, cap->size, (enum caption_pos)cap->cfg->run.caption_pos, w, h);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	cairo_surface_destroy(s);
	return ret;
}
