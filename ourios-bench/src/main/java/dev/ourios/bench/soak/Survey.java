package dev.ourios.bench.soak;

/**
 * The store at one moment.
 *
 * @param partitions  partition directories present
 * @param sealed      of those, hours the plan clock says are sealed
 * @param backlog     sealed partitions the policy would compact now (candidates not yet compacted)
 * @param liveFiles   files in the live sets (what a query reads)
 * @param liveBytes   their bytes
 * @param storedFiles every object in the partition listings (live, retired not yet collected, orphans, manifests)
 * @param storedBytes their bytes
 */
public record Survey(long partitions, long sealed, long backlog, long liveFiles, long liveBytes, long storedFiles,
        long storedBytes) {
}
