#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const uintptr_t a11y_huge_page = 2u << 20;

/// Allocates (and never frees) the rest of a heap's top up to `boundary`, the start of its first range of huge pages,
/// given where the top starts (glibc: a chunk is its size rounded up to 16 with 8 bytes of header, its block 16 bytes in).
/// Otherwise the next ~2 MB of small blocks filled the 4 KB pages before the boundary, one page fault each (~500 of a
/// 5,000-token audit's ~1,600 faults in each arena). The skipped pages are never touched: they cost no memory.
static inline void a11y_malloc_skip_to(uintptr_t boundary, uintptr_t top) {
    if (boundary < top + 64 || boundary - top >= a11y_huge_page) return;
    void *volatile filler = malloc(boundary - top - sizeof(size_t));
    (void)filler;
}

/// Memory for a one-shot audit (a11yctl, and a11y-bench as it times one), BENCHMARKS.md:
/// - two malloc arenas: glibc's default (eight per core) fragmented (peak of a 5,000-token audit 107 MB, 76 MB with
///   one), and with one the main thread and the workers took turns at its lock (elevate-ios 90 -> 82 ms with two);
/// - the main heap grown by 64 MB at once, large blocks kept on it (not in mmaps of their own, unmapped on free and
///   faulted in again by the next), and transparent huge pages asked for over it, so it is faulted in 2 MB at a time
///   instead of 4 KB (a cold audit of a large system otherwise spent ~10% of its CPU in ~8,000 page faults).
/// Best effort: where the kernel has no THP, madvise fails and nothing changes.
static inline void a11y_malloc_for_one_shot_audit(void) {
    const size_t reserve = 64u << 20;
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, (int)reserve);
    mallopt(M_TRIM_THRESHOLD, (int)(reserve * 2));
    mallopt(M_TOP_PAD, (int)reserve);
    uintptr_t before = (uintptr_t)sbrk(0);
    // One block larger than the heap's free top makes malloc extend the heap by the block plus the pad (volatile: a
    // compiler may drop a malloc whose block is never used). A block as large as the pad, so that malloc writes the
    // header after it near the end: the 2 MB ranges between are still untouched when asked to be huge pages below.
    void *volatile block = malloc(reserve - (4u << 20));
    // Later growth 16 MB at a time: the second arena's heap is made writable as it grows, and with glibc's default pad
    // that was an mprotect every few pages (~450 in elevate-ios's audit, each holding the address-space lock that the
    // other thread's page faults wait on); 13 with this. Untouched pages cost no memory.
    mallopt(M_TOP_PAD, 16 << 20);
    uintptr_t after = (uintptr_t)sbrk(0);
    uintptr_t start = (before + a11y_huge_page - 1) & ~(a11y_huge_page - 1);
    if (after > start) madvise((void *)start, after - start, MADV_HUGEPAGE);
    free(block);  // back into the heap's top, which starts at the block again
    a11y_malloc_skip_to(start, (uintptr_t)block - 2 * sizeof(size_t));
}

/// The calling thread's malloc arena on transparent huge pages too, when it is not the main one. glibc gives a second
/// arena a heap of its own, a 64 MB-aligned mapping (HEAP_MAX_SIZE on 64-bit), which the kernel, with THP in its
/// "madvise" mode, backs with 4 KB pages unless asked: ~1,400 of a 5,000-token audit's ~2,000 page faults were there.
/// Called on the threads besides the main one that a11yctl starts first (its command's and the worker pool's first),
/// one of which makes the second arena; on the other, nothing changes.
/// Best effort, as above.
static inline void a11y_malloc_thread_arena_on_huge_pages(void) {
    const uintptr_t heap_size = 64u << 20;
    void *volatile block = malloc(64);
    uintptr_t address = (uintptr_t)block;
    // The main arena's blocks are on the brk heap, below the break: already asked for.
    if (address == 0 || address < (uintptr_t)sbrk(0)) return free(block);
    uintptr_t heap = address & ~(heap_size - 1);
    madvise((void *)heap, heap_size, MADV_HUGEPAGE);
    // The arena's header and first block are in the heap's first 2 MB, already touched as 4 KB pages: in an arena just
    // made (its first block in the first page), the top starts after that block (64 bytes: an 80-byte chunk).
    if (address < heap + 4096) a11y_malloc_skip_to(heap + a11y_huge_page, address - 2 * sizeof(size_t) + 80);
    free(block);
}
