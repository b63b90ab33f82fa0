package dev.ourios.cli;

import dev.ourios.core.Bytes;
import dev.ourios.query.Query;
import dev.ourios.query.search.QuerySyntaxException;
import dev.ourios.query.search.SearchQuery;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The row filters {@code ourios query} and {@code ourios delete} both take (a picocli mixin), with one syntax and
 * one set of checks, so both commands select rows the same way. An option not given is null.
 */
public final class RowFilters {
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

    @Option(names = {"-q", "--search"}, paramLabel = "QUERY", description = "Search query (docs/spec/query.md), "
            + "combined with the other filters by AND")
    String search;

    /** {@code q} narrowed by the filters given, each checked and refused as a usage error naming its flag. */
    Query narrow(Query q) {
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
        if (search != null) {
            q = search(search).applyTo(q);
        }
        return q;
    }

    /** The parsed search, or a usage error naming the column where it fails. */
    static SearchQuery search(String text) {
        try {
            return SearchQuery.parse(text);
        } catch (QuerySyntaxException e) {
            throw new UsageException("-q: " + TableText.escape(e.getMessage()));
        }
    }
}
