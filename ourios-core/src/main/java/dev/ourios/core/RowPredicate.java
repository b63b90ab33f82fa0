package dev.ourios.core;

import dev.ourios.core.json.AttributesJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The exact predicate of a {@link RowSelection}'s conditions. Readers prune only what cannot match; every row that is
 * decoded is still decided here, so results never depend on which statistics, dictionaries or blooms a file
 * happens to have, and a deletion decides rows exactly as a query does.
 *
 * <p>Time: {@link RowTime}. Service: the promoted {@code resource.service.name} column; for rows from files older
 * than that column the value is derived the way the writer promotes it (first string {@code service.name} in
 * resource_attributes). Body substring: searched in the row's line ({@link LineText}).
 */
public final class RowPredicate {
    private static final String SERVICE_KEY = "service.name";

    private final RowSelection filter;
    private final long from;
    private final long to;
    private final byte[] needle;

    public RowPredicate(RowSelection filter) {
        this.filter = filter;
        this.from = filter.fromNanos();
        this.to = filter.toNanos();
        this.needle = filter.bodyContains().map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
    }

    public boolean matches(LogRecord r) {
        return matchesExceptText(r) && matchesWholeRow(r);
    }

    /**
     * The conditions on the whole row alone, the body substring and then the row condition (true without them):
     * what is left once a prefilter has kept a row.
     */
    public boolean matchesWholeRow(LogRecord r) {
        return matchesText(r) && (filter.condition().isEmpty() || filter.condition().get().test(r));
    }

    /** Whether {@link #matchesExceptText} decides every row: no condition needs the row decoded whole. */
    public boolean decidedByColumns() {
        return needle == null && filter.condition().isEmpty();
    }

    /** The body substring condition alone (true without one): what is left once a prefilter has kept a row. */
    public boolean matchesText(LogRecord r) {
        if (needle == null) {
            return true;
        }
        byte[] line = LineText.of(r);
        return line != null && LineText.contains(line, needle);
    }

    /** Every condition but the body substring. */
    public boolean matchesExceptText(LogRecord r) {
        long t = RowTime.of(r);
        if (t < from || t >= to) {
            return false;
        }
        if (filter.severityMin().isPresent() && r.severityNumber() < filter.severityMin().getAsInt()) {
            return false;
        }
        if (filter.templateId().isPresent() && r.templateId() != filter.templateId().getAsLong()) {
            return false;
        }
        if (filter.traceId().isPresent() && !Arrays.equals(filter.traceId().get(), r.traceId())) {
            return false;
        }
        return filter.service().isEmpty() || filter.service().get().equals(service(r));
    }

    private static String service(LogRecord r) {
        if (r.serviceName() != null) {
            return r.serviceName();
        }
        return AttributesJson.firstString(r.resourceAttributes(), SERVICE_KEY).orElse(null);
    }
}
