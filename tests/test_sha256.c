/*
 * sha256: FIPS 180-4's own examples, and every length around the padding's
 * block boundaries against coreutils' sha256sum.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "sha256.h"

/* the files of every_length_as_sha256sum_says go, pass or fail */
TestSuite(sha256, .fini = tc_cleanup);

static void hex(const unsigned char d[32], char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void expect_digest(const void *data, size_t len, const char *want)
{
	unsigned char d[32];
	char got[65];

	sha256(data, len, d);
	hex(d, got);
	cr_expect_str_eq(got, want, "sha256 of %zu bytes", len);
}

Test(sha256, fips_examples)
{
	expect_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	expect_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	expect_digest(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* 0..200 bytes (one and two padding blocks, 55/56/63/64 included) and a
 * megabyte, each against sha256sum reading the same bytes from a file. */
Test(sha256, every_length_as_sha256sum_says)
{
	size_t big = 1 << 20;
	unsigned char *buf = malloc(big);
	cr_assert(buf);
	srand(31);
	for (size_t i = 0; i < big; i++)
		buf[i] = (unsigned char)rand();
	cr_assert_eq(chdir(tc_tmpdir()), 0);
	size_t lens[202];
	int n = 0;
	for (size_t len = 0; len <= 200; len++)
		lens[n++] = len;
	lens[n++] = big;
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof name, "b%03d", i);
		FILE *f = fopen(name, "wb");
		cr_assert(f);
		cr_assert_eq(fwrite(buf, 1, lens[i], f), lens[i]);
		cr_assert_eq(fclose(f), 0);
	}
	cr_assert_eq(tc_sh("sha256sum b* > sums"), 0);
	FILE *sums = fopen("sums", "r");
	cr_assert(sums);
	for (int i = 0; i < n; i++) {
		char want[65], name[32];
		cr_assert_eq(fscanf(sums, "%64s %31s", want, name), 2);
		expect_digest(buf, lens[atoi(name + 1)], want);
	}
	fclose(sums);
	free(buf);
}
