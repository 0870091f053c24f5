/*
 * fmtnum — "%.17g" and "%lu" without printf; see include/fmtnum.h.  Start
 * at fmtnum_g17(): digits17() finds the 17 digits and the decimal exponent
 * exactly, place() lays them out as %g does.
 */
#include "fmtnum.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes v (< 10^8) as exactly 8 digits, in 32-bit arithmetic. */
static void eight(char *out, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(out, pairs + 2 * (hi / 100), 2);
	memcpy(out + 2, pairs + 2 * (hi % 100), 2);
	memcpy(out + 4, pairs + 2 * (lo / 100), 2);
	memcpy(out + 6, pairs + 2 * (lo % 100), 2);
}

/* Writes q (< 10^17) as exactly 17 digits. */
static void seventeen(char *out, uint64_t q)
{
	uint64_t top = q / 100000000;          /* < 10^9 */
	uint32_t first = (uint32_t)(top / 100000000);

	out[0] = (char)('0' + first);
	eight(out + 1, (uint32_t)(top % 100000000));
	eight(out + 9, (uint32_t)(q % 100000000));
}

size_t fmtnum_ulong(char *out, unsigned long v)
{
	char tmp[24];
	int i = 24;

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(out, tmp + i, (size_t)(24 - i));
	out[24 - i] = 0;
	return (size_t)(24 - i);
}

/*
 * a = m * 2^e2 (a normal double, m with its implicit bit) in [1e-6, 1e16):
 * the 17 significant digits of a, rounded to nearest with ties to even as
 * printf rounds, and the decimal exponent of the rounded value.  Returns
 * 0, or -1 when the exact arithmetic would not fit (never for this range,
 * but checked rather than assumed).
 */
static int digits17(uint64_t m, int e2, double a, uint64_t *digits, int *exp10)
{
	/* 10^-7 .. 10^17: the guess below is checked exactly anyway */
	static const double p10d[25] = {
		1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
		1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17 };
	static const uint64_t p10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL };
	const uint64_t lo = p10[16], hi = p10[17];
	/* floor(log10(2^e)) (78913 / 2^18 is log10(2) to 6 digits, exact for |e| < 1650), then
	 * one more when a reaches the next power: a guess, one off at worst, corrected below */
	int e = e2 + 52;
	int x = e >= 0 ? (e * 78913) >> 18 : -((-e * 78913 + (1 << 18) - 1) >> 18);
	if (x >= -7 && x < 17 && a >= p10d[x + 8])
		x++;

	for (int tries = 0; tries < 4; tries++) {
		int k = 16 - x; /* a * 10^k has 17 digits before the point */
		if (k < 0 || k > 22 || e2 > 0 || -e2 > 120)
			return -1;
		u128 pk = k <= 19 ? (u128)p10[k] : (u128)p10[19] * p10[k - 19];
		u128 n = (u128)m * pk; /* < 2^53 * 10^22 < 2^127: exact */
		int s = -e2;
		u128 q = s ? n >> s : n;
		if (q < lo) {
			x--;
			continue;
		}
		if (q >= hi) {
			x++;
			continue;
		}
		if (s) {
			u128 r = n & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
			if (r > half || (r == half && (q & 1)))
				q++;
		}
		if (q == hi) { /* 99999999999999999.5 became 10^17 */
			q = lo;
			x++;
		}
		*digits = (uint64_t)q;
		*exp10 = x;
		return 0;
	}
	return -1;
}

/* Lays 17 digits with decimal exponent x out as %.17g does; returns the length. */
static size_t place(char *out, const char *d, int x)
{
	char *p = out;
	int last = 16; /* the last significant digit, after trailing zeros go */

	while (last > 0 && d[last] == '0')
		last--;
	if (x < -4 || x >= 17) { /* d.ddd e±XX */
		*p++ = d[0];
		if (last > 0) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)last);
			p += last;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		int ax = x < 0 ? -x : x;
		if (ax >= 100)
			*p++ = (char)('0' + ax / 100);
		memcpy(p, pairs + 2 * (ax % 100), 2);
		p += 2;
	} else if (x >= 0) { /* ddd.ddd: x + 1 digits before the point */
		memcpy(p, d, (size_t)x + 1);
		p += x + 1;
		if (last > x) {
			*p++ = '.';
			memcpy(p, d + x + 1, (size_t)(last - x));
			p += last - x;
		}
	} else { /* 0.000ddd */
		*p++ = '0';
		*p++ = '.';
		for (int i = 0; i < -x - 1; i++)
			*p++ = '0';
		memcpy(p, d, (size_t)last + 1);
		p += last + 1;
	}
	*p = 0;
	return (size_t)(p - out);
}

size_t fmtnum_g17(char *out, double v)
{
	uint64_t bits, digits;
	int x;
	char d[17];

	memcpy(&bits, &v, sizeof(bits));
	int neg = (int)(bits >> 63);
	int be = (int)((bits >> 52) & 0x7ff);
	double a = fabs(v);

	if (a == 0) {
		memcpy(out, neg ? "-0" : "0", neg ? 3 : 2);
		return (size_t)(1 + neg);
	}
	if (!(a >= 1e-6 && a < 1e16) || be == 0 ||
	    digits17((bits & ((1ULL << 52) - 1)) | (1ULL << 52), be - 1075, a, &digits, &x) != 0)
		return (size_t)snprintf(out, FMTNUM_G17_MAX, "%.17g", v);
	seventeen(d, digits);
	if (neg)
		*out = '-';
	return (size_t)neg + place(out + neg, d, x);
}
