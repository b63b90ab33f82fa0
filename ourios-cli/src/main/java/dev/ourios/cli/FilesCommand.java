package dev.ourios.cli;

import dev.ourios.compaction.audit.AuditSeries;
import dev.ourios.query.LiveFiles;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ourios files}: the live file set of a tenant, one path a line, for other engines (DuckDB, Spark, Trino). */
@Command(name = "files", mixinStandardHelpOptions = true,
        description = "Print the live file set, one path a line (for DuckDB, Spark, Trino)")
public final class FilesCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--tenant", required = true, description = "Tenant id")
    String tenant;

    @Option(names = "--from", paramLabel = "TIME", description = "Window start (RFC 3339, inclusive)")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Window end (RFC 3339, exclusive)")
    String to;

    @Option(names = "--audit", description = "The live files of the tenant's audit series instead (days overlapping "
            + "the window)")
    boolean audit;

    @Override
    public Integer call() throws Exception {
        TenantArg.require("--tenant", tenant);
        Optional<Instant> f = Optional.ofNullable(from).map(v -> Units.parseTime("--from", v));
        Optional<Instant> t = Optional.ofNullable(to).map(v -> Units.parseTime("--to", v));
        if (f.isPresent() && t.isPresent() && !f.get().isBefore(t.get())) {
            throw new UsageException("--from must be before --to");
        }
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            UnknownTenants.report(s, store.uri(), java.util.List.of(tenant), out.err());
            TableReader reader = new TableReader(s, new ManifestCodec());
            if (audit) {
                for (String key : new AuditSeries(s, reader).liveKeys(tenant, f, t)) {
                    out.out().println(s.describe(key));
                }
                return 0;
            }
            LiveFiles live = new LiveFiles(s, new TableLayout(s), reader);
            for (String path : live.paths(tenant, f, t)) {
                out.out().println(TableText.escape(path));
            }
        }
        return 0;
    }
}
