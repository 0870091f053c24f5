/*
 * colormap — --color-by's colour maps from their OKLab formulas; see
 * include/colormap.h.
 */
#include "colormap.h"

#include <math.h>

/* Linear light in [0, 1] to an 8-bit sRGB value (IEC 61966-2-1). */
static uint32_t encode(double c)
{
	if (!(c > 0))
		return 0;
	if (c >= 1)
		return 255;
	double e = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
	return (uint32_t)lround(255 * e);
}

uint32_t colormap_oklab(double L, double a, double b)
{
	double l = L + 0.3963377774 * a + 0.2158037573 * b;
	double m = L - 0.1055613458 * a - 0.0638541728 * b;
	double s = L - 0.0894841775 * a - 1.2914855480 * b;

	l = l * l * l;
	m = m * m * m;
	s = s * s * s;
	double r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
	double g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
	double bl = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
	return encode(r) << 16 | encode(g) << 8 | encode(bl);
}

uint32_t colormap_heading(double angle)
{
	const double L = 0.75, C = 0.125;

	if (!isfinite(angle))
		angle = 0;
	return colormap_oklab(L, C * cos(angle), C * sin(angle));
}

uint32_t colormap_speed(double t)
{
	if (!(t > 0))
		t = 0; /* NaN too */
	if (t > 1)
		t = 1;
	double L = 0.32 + 0.61 * t, h = (290 - 190 * t) * M_PI / 180, C = 0.13 - 0.05 * sin(M_PI * t);
	return colormap_oklab(L, C * cos(h), C * sin(h));
}

uint32_t colormap_netlogo_shade(uint32_t rgb, int shade)
{
	double step = 10.0 * shade / 50.48 + 0.012;
	uint32_t out = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double c = (double)((rgb >> sh) & 0xFF);
		c += trunc((step < 0 ? c : 255 - c) * step);
		out |= (uint32_t)(c < 0 ? 0 : c > 255 ? 255 : c) << sh;
	}
	return out;
}
