package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.query.Query;
import dev.ourios.testkit.SparkChild;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What the opt-in Spark tests hold Spark's reads against: seeded queries, their filters as Spark SQL, our engine's
 * rows in the form module ourios-spark's {@code RowFingerprint} prints what Spark read, and the checks that the two
 * agree. Published in this module's test-jar for the CLI's Spark test on S3.
 */
public final class SparkAgreement {
    private SparkAgreement() {
    }

    /**
     * The Spark reader of an opt-in Spark test: skips the test unless {@code -Dourios.spark=true}, and fails it when
     * the flag is set but module ourios-spark is not built ({@code modules}: the -pl list that builds it).
     */
    public static SparkChild sparkOrSkip(String modules) throws java.io.IOException {
        assumeTrue(Boolean.getBoolean("ourios.spark"), "opt-in: -Dourios.spark=true");
        return SparkChild.fromSystemProperties("1g").orElseThrow(() -> new AssertionError(
                "-Dourios.spark=true but the Spark reader is not built: run with -pl " + modules + " -am"));
    }

    /** The test's seed: {@code -Dourios.seed} when given, printed either way so a failure can be repeated. */
    public static long seed(String test) {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println(test + " seed=" + seed + " (-Dourios.seed=" + seed + " to repeat)");
        return seed;
    }

    /** One seeded query, named for the Spark job and the failure messages. */
    public record Case(String name, Query query) {
    }

    /**
     * The tenant; one hour from {@code hour}; a service in ten minutes of that hour; a minimum severity; a trace id.
     * The service and trace id are of a row of {@code tenantRows} that has both, picked by {@code rnd}.
     */
    public static List<Case> cases(Random rnd, String tenant, List<LogRecord> tenantRows, Instant hour) {
        LogRecord pick = tenantRows.stream().filter(r -> r.serviceName() != null && r.traceId() != null)
                .skip(rnd.nextInt(200)).findFirst().orElseThrow();
        Instant from = hour.plusSeconds(rnd.nextInt(3000));
        return List.of(
                new Case("tenant", Query.tenant(tenant)),
                new Case("one hour", Query.tenant(tenant).window(hour, hour.plusSeconds(3600))),
                new Case("service and ten minutes", Query.tenant(tenant).service(pick.serviceName())
                        .window(from, from.plusSeconds(600))),
                new Case("severity", Query.tenant(tenant).severityMin(List.of(9, 13, 17).get(rnd.nextInt(3)))),
                new Case("trace id", Query.tenant(tenant).traceId(pick.traceId())));
    }

    /**
     * Spark's read of {@code c} returned our engine's rows ({@code ours}, fingerprinted) with every value equal, read
     * exactly the {@code planned} files of the live set (fewer than the tenant's {@code tenantFiles} when the query
     * has a window) and pushed the query's filter into the Parquet reader.
     */
    public static void assertAgrees(Case c, SparkChild.Result r, List<String> ours, int planned, int tenantFiles) {
        String msg = c.name() + " (" + c.query() + ")";
        assertTrue(r != null && r.refusal().isEmpty(), msg + ": " + r);
        assertEquals(ours.size(), r.rows(), msg + ": rows");
        assertEquals(ours.stream().sorted().toList(), r.fingerprints().stream().sorted().toList(), msg + ": values");
        assertEquals(planned, r.filesRead(), msg + ": files read");
        if (c.query().from().isPresent()) {
            assertTrue(planned < tenantFiles, msg + ": the window prunes partitions (" + planned + " of "
                    + tenantFiles + " files)");
        }
        assertTrue(r.pushedFilters().contains(pushedColumn(c.query())), msg + ": pushed " + r.pushedFilters());
        System.out.println(msg + ": " + r.rows() + " rows, " + r.filesRead() + " of " + tenantFiles
                + " files, pushed " + r.pushedFilters());
    }

    /**
     * Spark read case {@code c} through the Iceberg view (its long form): the same rows and values as our engine,
     * from at most the {@code planned} files of the window's partitions (Iceberg's {@code resultDataFiles}; its file
     * bounds may prune more), and with a window fewer than the table's {@code tableFiles}: pruning shows.
     */
    public static void assertViewAgrees(Case c, SparkChild.Result r, List<String> ours, int planned, int tableFiles) {
        String msg = "view: " + c.name() + " (" + c.query() + ")";
        assertTrue(r != null && r.refusal().isEmpty(), msg + ": " + r);
        assertEquals(ours.stream().sorted().toList(), r.fingerprints().stream().sorted().toList(), msg + ": values");
        assertTrue(r.filesRead() >= (ours.isEmpty() ? 0 : 1) && r.filesRead() <= planned,
                msg + ": files read " + r.filesRead() + " of " + planned + " planned");
        if (c.query().from().isPresent()) {
            assertTrue(r.filesRead() < tableFiles, msg + ": the window prunes (" + r.filesRead() + " of " + tableFiles
                    + " files)");
        }
        System.out.println(msg + ": " + r.rows() + " rows, " + r.filesRead() + " of " + tableFiles + " files");
    }

    /** Spark read the Iceberg view (in its long form) and returned exactly {@code expected}'s rows. */
    public static void assertReadsExactly(SparkChild.Result view, List<String> expected) {
        assertTrue(view != null, "no result for the Iceberg view");
        assertTrue(view.refusal().isEmpty(), () -> "Spark refused the Iceberg view: " + view.refusal().get());
        assertEquals(expected.stream().sorted().toList(), view.fingerprints().stream().sorted().toList(),
                "the Iceberg view through Spark");
    }

    /** The query's filters in Spark SQL over the files' columns (times are nanosecond integers in Spark). */
    public static String where(Query q) {
        List<String> and = new ArrayList<>();
        and.add("tenant_id = '" + q.tenant() + "'");
        q.from().ifPresent(f -> and.add("effective_time_unix_nano >= " + q.fromNanos()));
        q.to().ifPresent(t -> and.add("effective_time_unix_nano < " + q.toNanos()));
        q.service().ifPresent(s -> and.add("`resource.service.name` = '" + s + "'"));
        q.severityMin().ifPresent(n -> and.add("severity_number >= " + n));
        q.traceId().ifPresent(id -> and.add("trace_id = unhex('" + Bytes.hex(id) + "')"));
        return String.join(" AND ", and);
    }

    /** A column whose filter the scan must push into the Parquet reader for {@code q}. */
    static String pushedColumn(Query q) {
        if (q.traceId().isPresent()) {
            return "trace_id";
        }
        if (q.severityMin().isPresent()) {
            return "severity_number";
        }
        return q.from().isPresent() ? "effective_time_unix_nano" : "tenant_id";
    }

    /** The row as module ourios-spark's RowFingerprint prints what Spark read. */
    public static String fingerprint(LogRecord r) {
        StringBuilder b = new StringBuilder();
        field(b, r.tenantId());
        field(b, Integer.toUnsignedLong(r.templateVersion()));
        field(b, r.timeUnixNano());
        field(b, r.observedTimeUnixNano());
        field(b, r.severityNumber());
        field(b, r.severityText());
        field(b, r.scopeName());
        field(b, r.scopeVersion());
        field(b, r.attributes());
        field(b, Integer.toUnsignedLong(r.droppedAttributesCount()));
        field(b, r.resourceAttributes());
        field(b, Bytes.hex(r.traceId()));
        field(b, Bytes.hex(r.spanId()));
        field(b, Integer.toUnsignedLong(r.flags()));
        field(b, r.eventName());
        field(b, r.bodyKind());
        field(b, Bytes.hex(r.body()));
        StringBuilder params = new StringBuilder();
        r.params().forEach(p -> params.append(p.typeTag()).append(':').append(String.valueOf(Bytes.hex(p.value())))
                .append(','));
        field(b, params);
        StringBuilder separators = new StringBuilder();
        r.separators().forEach(s -> separators.append(String.valueOf(Bytes.hex(s))).append(','));
        field(b, separators);
        field(b, r.confidence());
        field(b, r.lossyFlag());
        field(b, r.scopeAttributes());
        field(b, r.resourceSchemaUrl());
        field(b, r.scopeSchemaUrl());
        b.append(r.serviceName());
        return b.toString();
    }

    private static void field(StringBuilder b, Object value) {
        b.append(value).append('|');
    }
}
