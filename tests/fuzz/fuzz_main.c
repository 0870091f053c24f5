/*
 * fuzz_main — the libFuzzer entry point for one target of targets.h, chosen
 * when compiling: clang -fsanitize=fuzzer -DFUZZ_TARGET=fuzz_cli ...
 * (mk/fuzz.mk builds one binary per target).
 */
#include <stddef.h>
#include <stdint.h>

#include "targets.h"

#ifndef FUZZ_TARGET
#error "define FUZZ_TARGET, e.g. -DFUZZ_TARGET=fuzz_cli"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_TARGET(data, size);
}
