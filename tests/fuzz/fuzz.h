/*
 * fuzz.h - what every fuzz harness of ordex defines and may use.
 *
 * A harness is one function, LLVMFuzzerTestOneInput, built two ways: with
 * libFuzzer for fuzzing (bench/fuzz.sh, clang -fsanitize=fuzzer) and with
 * driver.c for the regression run of ./test, which feeds it every file of
 * its corpus (tests/fuzz/corpus/NAME/).  A property that must hold for any
 * input is checked with FUZZ_CHECK: a violation aborts, which both builds
 * report as a failure with the input that caused it.
 */
#ifndef ORDEX_TESTS_FUZZ_H
#define ORDEX_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond);          \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
