package dev.ourios.bench.soak;

/**
 * What the writer has landed so far.
 *
 * @param files             ingest files landed (on-time and late)
 * @param rows              rows landed
 * @param bytes             bytes of the ingest files
 * @param lateFiles         late files landed (into an hour already sealed)
 * @param lateIntoCompacted late files that found their hour already compacted (manifest generation >= 1)
 * @param maxLagSeconds     the most any file landed after its due time (wall seconds): the writer keeping pace
 */
public record IngestProgress(long files, long rows, long bytes, long lateFiles, long lateIntoCompacted,
        double maxLagSeconds) {
}
