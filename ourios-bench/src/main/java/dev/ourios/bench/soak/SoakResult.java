package dev.ourios.bench.soak;

import dev.ourios.bench.Machine;
import java.util.List;

/**
 * Everything a soak measured.
 *
 * @param command        the launcher command that reproduces the run
 * @param machine        where it ran
 * @param shape          the data shape in words
 * @param rowsPerFile    rows per ingest file
 * @param ingestSeconds  wall seconds from the start to the last file landed
 * @param scheduledRate  rows the schedule asked for per wall second (the first hour has no late files)
 * @param achievedRate   rows landed per wall second
 * @param sustained      the writer kept pace: achieved >= 98 % of scheduled, and no file landed later than the
 *                       grace period (in wall time) after its due time
 * @param ingest         the writer's final counters
 * @param drainSeconds   wall seconds from the last file landed to a zero backlog with every hour sealed (-1: not
 *                       reached within the drain timeout)
 * @param compaction     the daemon's tallies, including the final sweep
 * @param backlogMax     the largest backlog sampled
 * @param finalStore     the store after the final sweep
 * @param templateId     the template-exact query's template
 * @param service        the window query's service
 * @param templateP50Ms  median latency of the template-exact query over the samples
 * @param templateP95Ms  95th percentile (nearest rank)
 * @param serviceP50Ms   median latency of the one-service window query
 * @param serviceP95Ms   95th percentile (nearest rank)
 * @param queryErrors    queries that failed during the run
 * @param audit          landed rows vs live rows
 * @param checks         the invariants
 * @param samples        the timeline
 * @param smallFileBytes the compactor's small-file bound, the H4 line
 * @param tenantFiles    per tenant, the files of its whole days and the rows rewritten (H4)
 */
public record SoakResult(String command, Machine machine, String shape, int rowsPerFile, double ingestSeconds,
        double scheduledRate, double achievedRate, boolean sustained, IngestProgress ingest, double drainSeconds,
        CompactionTally compaction, long backlogMax, Survey finalStore, String templateId, String service,
        double templateP50Ms, double templateP95Ms, double serviceP50Ms, double serviceP95Ms, long queryErrors,
        RowAudit.Result audit, List<Check> checks, List<Sample> samples, long smallFileBytes,
        List<TenantFiles.Share> tenantFiles) {

    public SoakResult {
        checks = List.copyOf(checks);
        samples = List.copyOf(samples);
        tenantFiles = List.copyOf(tenantFiles);
    }

    public boolean passed() {
        return checks.stream().allMatch(Check::ok);
    }
}
