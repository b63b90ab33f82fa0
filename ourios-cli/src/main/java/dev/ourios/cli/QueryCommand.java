package dev.ourios.cli;

import dev.ourios.server.telemetry.Telemetry;
import dev.ourios.server.query.RecordJson;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreRequests;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ourios query}: rows of one tenant through the manifests, pruned on footers, with honest counters. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Query one tenant's logs (rows as JSON lines with --json; --stats adds counters)")
public final class QueryCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--tenant", required = true, description = "Tenant id")
    String tenant;

    @Option(names = "--from", paramLabel = "TIME", description = "Window start, inclusive (RFC 3339)")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Window end, exclusive (RFC 3339)")
    String to;

    @Mixin
    RowFilters filters;

    @Option(names = "--limit", paramLabel = "K", description = "At most K rows")
    Long limit;

    @Option(names = "--oldest-first", description = "Oldest rows first (default: newest first)")
    boolean oldestFirst;

    @Option(names = "--stats", description = "Print the counters after the rows")
    boolean stats;

    @Option(names = "--json", description = "Rows as JSON lines")
    boolean json;

    @Option(names = "--count", description = "Print only the number of matching rows (--limit does not apply); "
            + "rows are decided on the query's columns and never decoded whole")
    boolean count;

    @Override
    public Integer call() throws Exception {
        Query q = build();
        Output out = Output.system();
        try (ObjectStore opened = store.open();
                Telemetry telemetry = Telemetry.open(TelemetryEnvironment.read(System.getenv()))) {
            // Counted only when asked for: the counting view measures every call.
            CountingObjectStore counted = stats ? new CountingObjectStore(opened) : null;
            ObjectStore s = stats ? counted : opened;
            QueryEngine engine = new QueryEngine(s, new TableLayout(s), new TableReader(s, new ManifestCodec()),
                    telemetry.meterProvider());
            QueryStats st;
            try {
                UnknownTenants.report(s, store.uri(), java.util.List.of(tenant), out.err());
                st = count ? count(engine, q, out) : rows(engine, q, out);
            } catch (java.io.IOException e) {
                throw new JobFailedException("query failed: " + e.getMessage(), e);
            }
            if (stats) {
                StoreRequests requests = counted.requests();
                if (json) {
                    String line = st.toJson(); // {"stats":{…}}: the requests join the inner object
                    out.out().println(line.substring(0, line.length() - 2) + ",\"requests\":"
                            + Output.json(PartitionJson.requests(requests)) + "}}");
                } else {
                    out.out().printf("partitions %d, files %d, row groups %d (scanned %d, pruned %d), "
                            + "bytes read %s, rows %d, %d ms; requests: %d list, %d head, %d get%n",
                            st.partitions(), st.files(), st.rowGroupsTotal(), st.rowGroupsScanned(),
                            st.rowGroupsPruned(), Units.formatBytes(st.bytesRead()), st.rows(), st.elapsedMs(),
                            requests.list(), requests.head(), requests.get());
                }
            }
        }
        return 0;
    }

    /** Prints the matching rows, one line each (JSON lines with --json). */
    private QueryStats rows(QueryEngine engine, Query q, Output out) throws java.io.IOException {
        return engine.run(q, r -> {
            if (json) {
                out.jsonLine(RecordJson.of(r));
            } else {
                // Escaped: a stored string must not forge rows or send escape sequences to the terminal.
                out.out().printf("%s  %-16s %-5s %s%n", RecordJson.time(r.effectiveTime()),
                        r.serviceName() == null ? "-" : TableText.escape(r.serviceName()),
                        r.severityText() == null ? String.valueOf(r.severityNumber())
                                : TableText.escape(r.severityText()),
                        TableText.escape(line(r)));
            }
        });
    }

    /** Prints the number of matching rows ({@code {"count":N}} with --json). */
    private QueryStats count(QueryEngine engine, Query q, Output out) throws java.io.IOException {
        QueryStats st = engine.count(q);
        out.out().println(json ? "{\"count\":" + st.rows() + "}" : String.valueOf(st.rows()));
        return st;
    }

    private static String line(dev.ourios.core.LogRecord r) {
        if (r.body() != null) {
            return RecordJson.body(r.body());
        }
        StringBuilder sb = new StringBuilder("[template ").append(Long.toUnsignedString(r.templateId())).append(']');
        for (var p : r.params()) {
            sb.append(' ').append(p.value() == null ? "" : RecordJson.body(p.value()));
        }
        return sb.toString();
    }

    Query build() {
        TenantArg.require("--tenant", tenant);
        Query q = Query.tenant(tenant);
        try {
            if (from != null) {
                q = q.from(Units.parseTime("--from", from));
            }
            if (to != null) {
                q = q.to(Units.parseTime("--to", to));
            }
            q = filters.narrow(q);
            if (limit != null) {
                if (limit < 0) {
                    throw new UsageException("--limit must not be negative (got " + limit + ")");
                }
                q = q.limit(limit);
            }
            return q.order(oldestFirst ? Query.Order.OLDEST_FIRST : Query.Order.NEWEST_FIRST);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
