#if canImport(Glibc)
/// glibc's `mallopt`, declared in `malloc.h`, which the Glibc module does not include.
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// How the process's allocator treats large buffers (glibc only).
///
/// glibc maps buffers past 128 KiB and unmaps them when freed, but raises that threshold to the
/// size of each mapped buffer freed, up to 32 MiB: after the import's first arenas and spill
/// buffers are freed, the next ones come from the threads' heaps, whose freed memory stays
/// resident. Fixing the threshold keeps every large buffer returned when freed: the plain
/// million's import peaked at 80 MB instead of 89 MB (measured with `MALLOC_MMAP_THRESHOLD_`,
/// Benchmarks/measurements/import-memory-20261126.md). Buffers freed and allocated again then
/// fault their pages in again, so the import keeps its large ones (the word index's builder does).
///
/// The CLI sets it for its own process; the library leaves its host's allocator alone.
enum LargeAllocations {
    static func alwaysReturned() {
        #if canImport(Glibc)
        // M_MMAP_THRESHOLD, a macro Swift does not import (malloc.h: -3).
        let mmapThreshold: Int32 = -3
        _ = mallopt(mmapThreshold, 128 << 10)
        #endif
    }
}
