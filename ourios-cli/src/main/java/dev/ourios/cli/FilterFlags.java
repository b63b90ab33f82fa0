package dev.ourios.cli;

import dev.ourios.core.Bytes;
import dev.ourios.query.Query;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The row filters of {@code ourios delete}, with the names, syntax and checks of {@code ourios query}'s: the result
 * is a {@link Query}, whose predicate decides the rows, so both commands select rows the same way.
 */
public final class FilterFlags {
    @Option(names = "--tenant", required = true, description = "Tenant id")
    String tenant;

    @Option(names = "--from", paramLabel = "TIME", required = true, description = "Window start, inclusive (RFC 3339)")
    String from;

    @Option(names = "--to", paramLabel = "TIME", required = true, description = "Window end, exclusive (RFC 3339)")
    String to;

    @Option(names = "--service", description = "resource.service.name equals")
    String service;

    @Option(names = "--template-id", paramLabel = "N", description = "template_id equals")
    String templateId;

    @Option(names = "--severity-min", paramLabel = "N", description = "severity_number at least N (1..24)")
    Integer severityMin;

    @Option(names = "--trace-id", paramLabel = "HEX", description = "trace_id equals (32 hex digits)")
    String traceId;

    @Option(names = "--contains", paramLabel = "STR", description = "Body contains STR")
    String contains;

    /** The query these flags describe; a bad value is a usage error naming its flag. */
    Query toQuery() {
        TenantArg.require("--tenant", tenant);
        try {
            Query q = Query.tenant(tenant).from(Units.parseTime("--from", from)).to(Units.parseTime("--to", to));
            return withFilters(q, service, templateId, severityMin, traceId, contains);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * {@code q} narrowed by the row filters both {@code query} and {@code delete} take (null = not given), each
     * checked the one way and refused as a usage error naming its flag.
     */
    static Query withFilters(Query q, String service, String templateId, Integer severityMin, String traceId,
            String contains) {
        if (service != null) {
            q = q.service(service);
        }
        if (templateId != null) {
            try {
                q = q.templateId(Long.parseUnsignedLong(templateId));
            } catch (NumberFormatException e) {
                throw new UsageException("--template-id: '" + templateId + "' is not an unsigned 64-bit integer");
            }
        }
        if (severityMin != null) {
            if (severityMin < 1 || severityMin > 24) {
                throw new UsageException("--severity-min must be 1..24, an OpenTelemetry severity number (got "
                        + severityMin + "; 0 means unspecified and would match every row: omit the flag)");
            }
            q = q.severityMin(severityMin);
        }
        if (traceId != null) {
            if (!traceId.matches("[0-9a-fA-F]{32}")) {
                throw new UsageException("--trace-id: '" + traceId + "' is not 32 hex digits");
            }
            q = q.traceId(Bytes.fromHex(traceId.toLowerCase(Locale.ROOT)));
        }
        if (contains != null) {
            q = q.bodyContains(contains);
        }
        return q;
    }
}
