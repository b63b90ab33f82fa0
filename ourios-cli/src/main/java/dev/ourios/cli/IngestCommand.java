package dev.ourios.cli;

import dev.ourios.core.Retention;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ingest.ContentNamedIngestWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ourios ingest}: streams OTLP/JSON inputs (one {@code {"resourceLogs":[…]}} document per line, as the
 * Collector's file exporter writes, or one pretty-printed document; {@code -} is standard input) into ingest files
 * per tenant-hour, in memory bounded by {@code --batch-bytes} whatever the input's size. Files are named after
 * their content and published create-only, so re-running an input that failed part way lands only what is
 * missing (cli.md, {@code ourios ingest}).
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Land OTLP/JSON log files (or - for stdin) as ingest files per tenant-hour")
public final class IngestCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--tenant", required = true, description = "Tenant id the records belong to")
    String tenant;

    @Option(names = "--batch-bytes", defaultValue = "16MiB",
            description = "Rows buffered before the largest partition's rows land as one file (default ${DEFAULT-VALUE})")
    String batchBytes;

    @Option(names = "--retention", paramLabel = "DURATION", description = "The tenant's retention (e.g. 30d): "
            + "records whose hour is already older are not landed, and counted on stderr; unset = keep everything")
    String retention;

    @Option(names = "--json", description = "Print one JSON line per file landed")
    boolean json;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "OTLP/JSON files; - reads standard input")
    List<Path> files;

    @Override
    public Integer call() throws Exception {
        TenantArg.requireWritable("--tenant", tenant);
        long budget;
        try {
            budget = Units.parseSize("--batch-bytes", batchBytes);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (budget < 1) {
            throw new UsageException("--batch-bytes: must be at least 1 byte");
        }
        Retention kept = Retention.NONE;
        if (retention != null) {
            java.time.Duration d = Units.parseDuration("--retention", retention);
            if (d.isZero()) {
                throw new UsageException("--retention: must be positive (omit it to keep everything)");
            }
            kept = Retention.of(d);
        }
        java.time.Instant now = java.time.Instant.now();
        List<IngestInput> inputs = IngestInput.of(files);
        try (ObjectStore s = store.openForWriting()) {
            IngestReport report = new IngestReport(Output.system(), s, tenant, json);
            var writer = new ContentNamedIngestWriter(s);
            for (IngestInput in : inputs) {
                new InputIngest(tenant, budget, writer, report, kept, now).run(in);
            }
            report.summary();
        }
        return 0;
    }
}
