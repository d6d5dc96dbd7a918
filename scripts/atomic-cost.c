/* What one atomic read-modify-write costs on this machine, against a plain add (BENCHMARKS.md): swift_retain and
 * swift_release are each one such operation (a compare-and-swap loop), so this bounds what reference counting costs
 * per retain or release even when no other core touches the object.
 *     cc -O2 scripts/atomic-cost.c -o /tmp/atomic-cost && /tmp/atomic-cost
 */
#include <stdio.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    static volatile long counter;
    const long n = 50000000;
    double start = seconds();
    for (long i = 0; i < n; i++) counter++;
    printf("plain increment:        %5.2f ns\n", (seconds() - start) / n * 1e9);
    start = seconds();
    for (long i = 0; i < n; i++) __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    printf("atomic add (lock xadd): %5.2f ns\n", (seconds() - start) / n * 1e9);
    start = seconds();
    for (long i = 0; i < n; i++) {
        long expected = counter;
        __atomic_compare_exchange_n(&counter, &expected, expected + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    printf("compare-and-swap:       %5.2f ns\n", (seconds() - start) / n * 1e9);
    return 0;
}
