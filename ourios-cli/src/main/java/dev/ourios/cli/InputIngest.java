package dev.ourios.cli;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Retention;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.otlp.OtlpJsonStream;
import dev.ourios.table.ingest.ContentNamedIngestWriter;
import dev.ourios.table.ingest.IngestBatcher;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Streams one input into content-named ingest files: records are decoded a line at a time, batched per partition
 * within the budget, and each batch lands as soon as it is cut; the rest land at the end of the input. Each input
 * is batched on its own, so its files depend on its bytes alone and a re-run of any input (or of the same input
 * with a bad line fixed) finds the files it already landed. A bad line stops the input before anything after the
 * last cut lands.
 */
final class InputIngest {
    private final String tenant;
    private final long budgetBytes;
    private final ContentNamedIngestWriter writer;
    private final IngestReport report;
    private final Retention retention;
    private final Instant now;
    private long lastLine;

    /**
     * @param retention records whose hour is already past the tenant's retention at {@code now} are not landed,
     *                  and counted in the report
     */
    InputIngest(String tenant, long budgetBytes, ContentNamedIngestWriter writer, IngestReport report,
            Retention retention, Instant now) {
        this.retention = retention;
        this.now = now;
        this.tenant = tenant;
        this.budgetBytes = budgetBytes;
        this.writer = writer;
        this.report = report;
    }

    void run(IngestInput input) {
        IngestBatcher batcher = new IngestBatcher(budgetBytes);
        try (Reader r = input.open()) {
            OtlpJsonStream.read(tenant, r, (records, line) -> {
                lastLine = line;
                report.decoded(records.size());
                batcher.add(kept(records)).forEach(land());
            });
        } catch (JsonPathException e) {
            throw new UsageException(input.name() + ": " + e.getMessage() + report.afterFailure(), e);
        } catch (CharacterCodingException e) {
            throw new UsageException(input.name() + ": not UTF-8 text (after line " + lastLine + ")"
                    + report.afterFailure(), e);
        } catch (StoreFailure e) {
            throw new JobFailedException(input.name() + ": " + e.getCause().getMessage() + report.afterFailure(),
                    e.getCause());
        } catch (IllegalArgumentException e) {
            throw new UsageException(input.name() + ": after line " + lastLine + ": " + e.getMessage()
                    + report.afterFailure(), e);
        } catch (IOException e) {
            throw new UsageException(input.name() + ": cannot read: " + e.getMessage() + report.afterFailure(), e);
        }
        try {
            batcher.drain().forEach(land());
        } catch (StoreFailure e) {
            throw new JobFailedException(input.name() + ": " + e.getCause().getMessage() + report.afterFailure(),
                    e.getCause());
        }
    }

    /** The records the tenant's retention still keeps; the others are counted in the report. */
    private List<LogRecord> kept(List<LogRecord> records) {
        if (retention.forTenant(tenant).isEmpty()) {
            return records;
        }
        List<LogRecord> kept = new ArrayList<>(records.size());
        for (LogRecord r : records) {
            if (retention.isExpired(tenant, r.effectiveTime(), now)) {
                report.expired(1, "line " + lastLine + ": record at " + Instant.ofEpochSecond(0, r.effectiveTime())
                        + " is older than the retention of tenant '" + tenant + "' ("
                        + Retention.format(retention.forTenant(tenant).get()) + ")");
            } else {
                kept.add(r);
            }
        }
        return kept;
    }

    private Consumer<IngestBatcher.Batch> land() {
        return b -> {
            try {
                report.landed(writer.land(b.partition(), b.rows()));
            } catch (IOException e) {
                throw new StoreFailure(e);
            }
        };
    }

    /** A store write failed (exit 1), told apart from a bad input (exit 2). */
    private static final class StoreFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoreFailure(IOException cause) {
            super(cause);
        }
    }
}
