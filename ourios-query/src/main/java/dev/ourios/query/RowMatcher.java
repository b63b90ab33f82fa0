package dev.ourios.query;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;
import java.util.Arrays;

/**
 * The exact row predicate. Parquet pruning only skips data that cannot match; every row that is decoded is still
 * decided here, so results never depend on which statistics, dictionaries or blooms a file happens to have.
 *
 * <p>Service: the promoted {@code resource.service.name} column; for rows from files older than that column the
 * value is derived the way the writer promotes it (first string {@code service.name} in resource_attributes).
 */
final class RowMatcher {
    private static final String SERVICE_KEY = "service.name";

    private final Query query;
    private final long from;
    private final long to;
    private final byte[] needle;

    RowMatcher(Query query) {
        this.query = query;
        this.from = query.fromNanos();
        this.to = query.toNanos();
        this.needle = query.needle().orElse(null);
    }

    boolean matches(LogRecord r) {
        long t = RowTime.of(r);
        if (t < from || t >= to) {
            return false;
        }
        if (query.severityMin().isPresent() && r.severityNumber() < query.severityMin().getAsInt()) {
            return false;
        }
        if (query.templateId().isPresent() && r.templateId() != query.templateId().getAsLong()) {
            return false;
        }
        if (query.traceId().isPresent() && !Arrays.equals(query.traceId().get(), r.traceId())) {
            return false;
        }
        if (query.service().isPresent() && !query.service().get().equals(service(r))) {
            return false;
        }
        if (needle != null) {
            byte[] line = LineText.of(r);
            return line != null && LineText.contains(line, needle);
        }
        return true;
    }

    private static String service(LogRecord r) {
        if (r.serviceName() != null) {
            return r.serviceName();
        }
        return AttributesJson.firstString(r.resourceAttributes(), SERVICE_KEY).orElse(null);
    }
}
