package dev.ourios.cli;

import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ingest.IngestWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ourios generate}: lands OpenTelemetry-demo-shaped ingest files. Same seed, same rows. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Write ingest-side files shaped like OpenTelemetry-demo logs")
public final class GenerateCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--tenants", defaultValue = "1", description = "Number of tenants (tenant-0, tenant-1, ...; 'default' when 1)")
    int tenants;

    @Option(names = "--tenant", paramLabel = "NAME", description = "Tenant id (repeatable); overrides --tenants")
    List<String> tenantNames = new ArrayList<>();

    @Option(names = "--start", paramLabel = "TIME", description = "First hour (RFC 3339; default: hours+1 hours before the current hour, so every hour is sealed)")
    String start;

    @Option(names = "--hours", defaultValue = "1", description = "Hours to generate (default ${DEFAULT-VALUE})")
    int hours;

    @Option(names = "--files-per-hour", defaultValue = "8", description = "Ingest files per tenant-hour (default ${DEFAULT-VALUE})")
    int filesPerHour;

    @Option(names = "--rows-per-file", defaultValue = "2000", description = "Rows per file (default ${DEFAULT-VALUE})")
    int rowsPerFile;

    @Option(names = "--services", defaultValue = "15", description = "Services, 1..15 (default ${DEFAULT-VALUE})")
    int services;

    @Option(names = "--seed", defaultValue = "42", description = "Random seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--body-bytes", defaultValue = "0", description = "Pad bodies with compressible text to about N bytes")
    int bodyBytes;

    @Option(names = "--json", description = "Print the summary as JSON")
    boolean json;

    @Override
    public Integer call() throws Exception {
        GeneratorSpec spec = spec();
        Output out = Output.system();
        try (ObjectStore s = store.openForWriting()) {
            Summary summary = run(s, spec, out);
            if (json) {
                out.jsonLine(Map.of("files", summary.files, "rows", summary.rows, "bytes", summary.bytes));
            } else {
                out.out().printf("generated %d files, %d rows, %s into %s%n", summary.files, summary.rows,
                        Units.formatBytes(summary.bytes), store.uri());
            }
        }
        return 0;
    }

    GeneratorSpec spec() {
        List<String> ids = !tenantNames.isEmpty() ? tenantNames : defaultTenants(tenants);
        Instant startHour = start != null ? Units.parseTime("--start", start).truncatedTo(ChronoUnit.HOURS)
                : Instant.now().truncatedTo(ChronoUnit.HOURS).minus(hours + 1L, ChronoUnit.HOURS);
        try {
            return new GeneratorSpec(ids, startHour, hours, filesPerHour, rowsPerFile, services, seed, bodyBytes);
        } catch (IllegalArgumentException e) {
            throw new UsageException("generate: " + e.getMessage());
        }
    }

    static List<String> defaultTenants(int n) {
        if (n < 1) {
            throw new UsageException("--tenants must be at least 1 (got " + n + ")");
        }
        if (n == 1) {
            return List.of("default");
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("tenant-" + i);
        }
        return ids;
    }

    record Summary(long files, long rows, long bytes) {
    }

    static Summary run(ObjectStore store, GeneratorSpec spec, Output out) throws java.io.IOException {
        LogGenerator gen = new LogGenerator(spec);
        IngestWriter writer = new IngestWriter(store);
        long files = 0;
        long rows = 0;
        long bytes = 0;
        long total = (long) spec.tenants().size() * spec.hours() * spec.filesPerHour();
        for (String tenant : spec.tenants()) {
            for (int h = 0; h < spec.hours(); h++) {
                for (int f = 0; f < spec.filesPerHour(); f++) {
                    List<LogRecord> rowsOfFile = gen.file(tenant, h, f);
                    var landed = writer.writeFile(gen.partition(tenant, h), rowsOfFile);
                    files++;
                    rows += landed.rows();
                    bytes += landed.bytes();
                    out.progress("generate", files, total);
                }
            }
        }
        return new Summary(files, rows, bytes);
    }
}
