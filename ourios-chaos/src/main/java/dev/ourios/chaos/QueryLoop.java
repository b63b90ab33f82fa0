package dev.ourios.chaos;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.testkit.LandingLedger;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A reader running while children compact, collect and die and the writer lands late files: it counts a random
 * partition again and again and judges every count against the ledger (see {@link LandingLedger#judge}).
 */
final class QueryLoop implements Runnable {
    private final PartitionReads reads;
    private final LandingLedger<PartitionKey, LogRecord> ledger;
    private final Tally tally;
    private final Random random;
    private final AtomicBoolean running;

    QueryLoop(PartitionReads reads, LandingLedger<PartitionKey, LogRecord> ledger, Tally tally, long seed,
            AtomicBoolean running) {
        this.reads = reads;
        this.ledger = ledger;
        this.tally = tally;
        this.random = new Random(seed);
        this.running = running;
    }

    @Override
    public void run() {
        List<PartitionKey> partitions = ledger.partitions();
        while (running.get()) {
            PartitionKey p = partitions.get(random.nextInt(partitions.size()));
            int completedBefore = ledger.completed();
            try {
                List<String> ids = reads.identities(p);
                int startedAfter = ledger.started();
                tally.queryCounts.incrementAndGet();
                tally.record("query count of " + p, ledger.judge(p, ids, completedBefore, startedAfter));
            } catch (Exception e) {
                tally.failedQueries.incrementAndGet();
                tally.violation("query of " + p + " failed: " + e.getMessage());
            }
            try {
                Thread.sleep(random.nextInt(20));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
