package dev.ourios.chaos;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.LandingLedger;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/** Lands late ingest files into partitions that compactors are working on, recording each in the ledger. */
final class LateWriter {
    private final IngestWriter writer;
    private final LandingLedger<PartitionKey, LogRecord> ledger;
    private final Tally tally;
    private final GeneratorSpec spec;

    LateWriter(IngestWriter writer, LandingLedger<PartitionKey, LogRecord> ledger, Tally tally, GeneratorSpec spec) {
        this.writer = writer;
        this.ledger = ledger;
        this.tally = tally;
        this.spec = spec;
    }

    /** Lands {@code count} files of 1..rowsPerFile rows into random partitions, pausing up to 100 ms between. */
    void land(int count, Random random) throws IOException, InterruptedException {
        List<PartitionKey> partitions = ledger.partitions();
        for (int i = 0; i < count; i++) {
            PartitionKey p = partitions.get(random.nextInt(partitions.size()));
            int hour = (int) Duration.between(spec.startHour(), p.hourStart()).toHours();
            List<LogRecord> rows = new LogGenerator(spec.withSeed(random.nextLong())).file(p.tenantId(), hour, 0);
            List<LogRecord> claimed = ledger.claim(p, rows.subList(0, 1 + random.nextInt(rows.size())));
            if (claimed.isEmpty()) {
                continue;
            }
            int id = ledger.beginLate(p, claimed);
            writer.writeFile(p, claimed);
            ledger.completeLate(id);
            tally.lateFiles.incrementAndGet();
            tally.lateRows.addAndGet(claimed.size());
            Thread.sleep(random.nextInt(100));
        }
    }
}
