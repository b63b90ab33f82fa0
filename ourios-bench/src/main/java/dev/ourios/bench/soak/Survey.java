package dev.ourios.bench.soak;

/**
 * The store at one moment.
 *
 * @param partitions  hour partition directories present
 * @param sealed      of those, hours the plan clock says are sealed
 * @param backlog     sealed partitions the policy would compact now (candidates not yet compacted)
 * @param liveFiles   files in the live sets (what a query reads)
 * @param liveBytes   their bytes
 * @param storedFiles every object in the partition listings (live, retired not yet collected, orphans, manifests)
 * @param storedBytes their bytes
 * @param days        day partitions with a manifest (the rollup's); their files count in the live and stored files
 * @param dayFiles    of the live files, those of day partitions
 * @param coveredHours hour partitions validly covered by their day partition
 */
public record Survey(long partitions, long sealed, long backlog, long liveFiles, long liveBytes, long storedFiles,
        long storedBytes, long days, long dayFiles, long coveredHours) {
}
