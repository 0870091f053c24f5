/*
 * color: what users type for --background and friends, accepted or refused.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <string.h>

#include "color.h"

static const struct {
	const char *in;
	uint32_t rgb;
} valid[] = {
	{ "#90ee90", 0x90EE90 },
	{ "#90EE90", 0x90EE90 },
	{ "#003366", 0x003366 },
	{ "#000000", 0x000000 },
	{ "#ffffff", 0xFFFFFF },
	{ "#FFF", 0xFFFFFF },
	{ "#abc", 0xAABBCC },
	{ "#09f", 0x0099FF },
	{ "LightGreen", 0x90EE90 },
	{ "lightgreen", 0x90EE90 },
	{ "LIGHTGREEN", 0x90EE90 },
	{ "white", 0xFFFFFF },
	{ "White", 0xFFFFFF },
	{ "black", 0x000000 },
	{ "green", 0x008000 },
	{ "red", 0xFF0000 },
	{ "blue", 0x0000FF },
	{ "yellow", 0xFFFF00 },
	{ "orange", 0xFFA500 },
	{ "navy", 0x000080 },
	{ "gray", 0x808080 },
	{ "grey", 0x808080 },
	{ "silver", 0xC0C0C0 },
	{ "cyan", 0x00FFFF },
	{ "aqua", 0x00FFFF },
	{ "magenta", 0xFF00FF },
	{ "fuchsia", 0xFF00FF },
};

static const char *const invalid[] = {
	"", "#", "#12", "#1234", "#12345", "#1234567", "#GGGGGG", "#ggg", "#12345g",
	"lightgreen2", " white", "white ", "#fff ", " #fff", "light green", "0x90ee90",
	"90ee90", "##fff", "#+12345", "whit", "whitee", "#-12345",
};

Test(color, valid_table)
{
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		uint32_t rgb = 0xDEADBEEF;
		cr_expect_eq(color_parse(valid[i].in, &rgb), 0, "'%s' refused", valid[i].in);
		cr_expect_eq(rgb, valid[i].rgb, "'%s' -> %06x, want %06x", valid[i].in,
		             (unsigned)rgb, (unsigned)valid[i].rgb);
	}
}

Test(color, invalid_table_leaves_value_untouched)
{
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		uint32_t rgb = 0xDEADBEEF;
		cr_expect_eq(color_parse(invalid[i], &rgb), -EINVAL, "'%s' accepted", invalid[i]);
		cr_expect_eq(rgb, 0xDEADBEEF, "'%s' changed the value", invalid[i]);
	}
}

Test(color, format_round_trips)
{
	const uint32_t samples[] = { 0x000000, 0x003366, 0x90EE90, 0xFFFFFF, 0x0A0B0C };
	char buf[8];

	color_format(0x90EE90, buf);
	cr_expect_str_eq(buf, "#90ee90");
	color_format(0x000001, buf);
	cr_expect_str_eq(buf, "#000001");
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		uint32_t back = 0;
		color_format(samples[i], buf);
		cr_expect_eq(strlen(buf), 7);
		cr_expect_eq(color_parse(buf, &back), 0);
		cr_expect_eq(back, samples[i]);
	}
}
