package dev.ourios.bench.soak;

/**
 * One point of the soak's timeline.
 *
 * @param wallSeconds wall time since the run started
 * @param simTime     the plan clock (simulated time) at the sample
 * @param ingest      what had been landed
 * @param store       the store's live sets and backlog
 * @param compactions partitions compacted so far
 * @param template    the template-exact query
 * @param service     the one-service window query
 * @param loadAverage the machine's one-minute load average (other processes compete for the same cores)
 */
public record Sample(double wallSeconds, String simTime, IngestProgress ingest, Survey store, long compactions,
        QueryProbe.Timing template, QueryProbe.Timing service, double loadAverage) {
}
