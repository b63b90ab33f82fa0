package dev.ourios.cli;

import dev.ourios.query.Query;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What {@code ourios delete} selects: a tenant, a required window and the {@link RowFilters} of {@code ourios
 * query}; the result is a {@link Query}, whose predicate decides the rows, so both commands select rows the same way.
 */
public final class FilterFlags {
    @Option(names = "--tenant", required = true, description = "Tenant id")
    String tenant;

    @Option(names = "--from", paramLabel = "TIME", required = true, description = "Window start, inclusive (RFC 3339)")
    String from;

    @Option(names = "--to", paramLabel = "TIME", required = true, description = "Window end, exclusive (RFC 3339)")
    String to;

    @Mixin
    RowFilters rows;

    /** The query these flags describe; a bad value is a usage error naming its flag. */
    Query toQuery() {
        TenantArg.require("--tenant", tenant);
        try {
            Query q = Query.tenant(tenant).from(Units.parseTime("--from", from)).to(Units.parseTime("--to", to));
            return rows.narrow(q);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
