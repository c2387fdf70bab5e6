/*
 * stencil.c - a 2-D Jacobi sweep over an N x N grid of doubles, STEPS
 * times, and nothing else (no MPI): the computation bench/access.sh runs to
 * measure what the instrumentation of loads and stores costs.  Every rank
 * computes the whole grid; the checksum line is the same for each.
 *
 *   usage: stencil [N [STEPS]]     default 1024 x 1024, 50 steps
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int steps = argc > 2 ? atoi(argv[2]) : 50;
    if (n < 3 || steps < 0) {
        fprintf(stderr, "usage: stencil [N >= 3 [STEPS >= 0]]\n");
        return 2;
    }
    double *a = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (!a || !b)
        return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = b[(size_t)i * n + j] = (i == 0 || j == 0) ? 100.0 : 0.0;
    for (int s = 0; s < steps; s++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++) {
                size_t k = (size_t)i * n + j;
                b[k] = 0.25 * (a[k - 1] + a[k + 1] + a[k - n] + a[k + n]);
            }
        double *t = a;
        a = b;
        b = t;
    }
    double sum = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++)
        sum += a[k];
    printf("stencil: N=%d steps=%d sum=%.6f\n", n, steps, sum);
    free(a);
    free(b);
    return 0;
}
