package dev.ourios.cli;

import dev.ourios.core.PartitionKey;
import dev.ourios.core.TenantCodec;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ourios files}: the live file set of a tenant, one path a line, for other engines (DuckDB, Spark, Trino). */
@Command(name = "files", description = "Print the live file set, one path a line (for DuckDB, Spark, Trino)")
public final class FilesCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--tenant", required = true, description = "Tenant id")
    String tenant;

    @Option(names = "--from", paramLabel = "TIME", description = "Window start (RFC 3339, inclusive)")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Window end (RFC 3339, exclusive)")
    String to;

    @Override
    public Integer call() throws Exception {
        try {
            TenantCodec.encode(tenant);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--tenant: " + e.getMessage());
        }
        Instant f = from == null ? Instant.EPOCH : Units.parseTime("--from", from);
        Instant t = to == null ? Instant.parse("9999-12-31T23:59:59Z") : Units.parseTime("--to", to);
        if (!f.isBefore(t)) {
            throw new UsageException("--from must be before --to");
        }
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            TableReader reader = new TableReader(s, new ManifestCodec());
            PartitionFilter filter = PartitionFilter.all().withTenants(Set.of(tenant)).withWindow(f, t);
            for (PartitionKey p : new TableLayout(s).partitions(filter)) {
                for (ObjectInfo o : reader.snapshot(p).live()) {
                    out.out().println(s.describe(o.key()));
                }
            }
        }
        return 0;
    }
}
