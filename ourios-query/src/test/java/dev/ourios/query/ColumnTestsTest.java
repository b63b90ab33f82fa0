package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.read.ColumnTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowMatcher#columnTests} are necessary conditions: a row the matcher accepts passes every one of them, read
 * from its columns the way a reader reads them (a null value as null, never the value the matcher derives from other
 * columns), for seeded random rows and queries over small domains, so that rows match, nearly match and miss. When
 * they {@link RowMatcher#columnTestsDecide decide}, they are sufficient too on rows with a value in each tested column.
 */
class ColumnTestsTest {
    private static final Instant HOUR = Instant.parse("2026-03-10T08:00:00Z");
    private static final long HOUR_NANOS = HOUR.getEpochSecond() * 1_000_000_000L;
    /** Services of rows: strings as a reader decodes them (valid UTF-8 or U+FFFD). */
    private static final String[] SERVICES = {"checkout", "cart", "caf\u00e9", "\uFFFD", "?x"};
    /** Services of queries: those of rows, and one with a lone surrogate, whose UTF-8 is that of "?x". */
    private static final String[] QUERY_SERVICES = {"checkout", "cart", "caf\u00e9", "\uFFFD", "?x", "\uD800x"};
    private static final byte[][] TRACES = {bytes(1), bytes(2), bytes(3)};

    @Test
    void everyRowTheMatcherAcceptsPassesEveryColumnTestAndDecidingTestsAcceptNoOther() {
        long seed = System.nanoTime();
        System.out.println("ColumnTestsTest seed " + seed);
        Random rnd = new Random(seed);
        long accepted = 0;
        long rejectedByTests = 0;
        long decided = 0;
        for (int q = 0; q < 400; q++) {
            Query query = randomQuery(rnd);
            RowMatcher matcher = new RowMatcher(query);
            List<ColumnTest> tests = matcher.columnTests();
            boolean decide = matcher.columnTestsDecide();
            for (int i = 0; i < 200; i++) {
                LogRecord r = randomRow(rnd);
                boolean passes = tests.stream().allMatch(t -> passes(t, r));
                if (matcher.matchesExceptText(r)) {
                    accepted++;
                    assertTrue(passes, "seed " + seed + ": " + query + " accepts " + r + " but a column test of "
                            + tests + " rejects it");
                } else if (!passes) {
                    rejectedByTests++;
                }
                if (decide && passes && tests.stream().allMatch(t -> hasValue(t, r))) {
                    decided++;
                    assertTrue(matcher.matchesExceptText(r), "seed " + seed + ": " + query + " rejects " + r
                            + " though it passes every test of " + tests + " on values, and they decide");
                }
            }
        }
        assertTrue(accepted > 100, "seed " + seed + ": too few accepted rows to mean anything: " + accepted);
        assertTrue(rejectedByTests > 1000, "seed " + seed + ": the tests rejected only " + rejectedByTests);
        assertTrue(decided > 100, "seed " + seed + ": too few rows decided on values: " + decided);
    }

    @Test
    void testsDecideUnlessAServiceFailsTheRoundTripThroughUtf8() {
        assertTrue(new RowMatcher(Query.tenant("acme").service("caf\u00e9")).columnTestsDecide());
        assertTrue(new RowMatcher(Query.tenant("acme")).columnTestsDecide());
        org.junit.jupiter.api.Assertions.assertFalse(new RowMatcher(Query.tenant("acme").service("\uFFFD"))
                .columnTestsDecide());
        org.junit.jupiter.api.Assertions.assertFalse(new RowMatcher(Query.tenant("acme").service("\uD800x"))
                .columnTestsDecide());
    }

    /** Whether the row holds a value in the test's column (template and severity always do: null reads as 0). */
    private static boolean hasValue(ColumnTest t, LogRecord r) {
        return switch (t.column()) {
            case Columns.TRACE_ID -> r.traceId() != null;
            case Columns.SERVICE_NAME -> r.serviceName() != null;
            case Columns.EFFECTIVE_TIME -> r.effectiveTimeUnixNano() != null;
            default -> true;
        };
    }

    /** The test decided on the value a reader reads from the test's column. */
    private static boolean passes(ColumnTest t, LogRecord r) {
        if (t instanceof ColumnTest.BytesEqual b) {
            byte[] v = switch (t.column()) {
                case Columns.TRACE_ID -> r.traceId();
                case Columns.SERVICE_NAME -> r.serviceName() == null ? null
                        : r.serviceName().getBytes(StandardCharsets.UTF_8);
                default -> throw new IllegalArgumentException("unexpected test column " + t.column());
            };
            return v == null ? b.nullPasses() : Arrays.equals(v, b.value());
        }
        ColumnTest.LongRange l = (ColumnTest.LongRange) t;
        Long v = switch (t.column()) {
            case Columns.TEMPLATE_ID -> r.templateId();
            case Columns.SEVERITY_NUMBER -> (long) r.severityNumber();
            case Columns.EFFECTIVE_TIME -> r.effectiveTimeUnixNano();
            default -> throw new IllegalArgumentException("unexpected test column " + t.column());
        };
        return v == null ? l.nullPasses() : v >= l.min() && v <= l.max();
    }

    private static Query randomQuery(Random rnd) {
        Query q = Query.tenant("acme");
        if (rnd.nextBoolean()) {
            Instant from = HOUR.plusSeconds(rnd.nextInt(40));
            q = switch (rnd.nextInt(3)) {
                case 0 -> q.window(from, from.plusSeconds(1 + rnd.nextInt(20)));
                case 1 -> q.from(from);
                default -> q.to(from);
            };
        }
        if (rnd.nextBoolean()) {
            q = q.service(QUERY_SERVICES[rnd.nextInt(QUERY_SERVICES.length)]);
        }
        if (rnd.nextBoolean()) {
            q = q.templateId(rnd.nextInt(3));
        }
        if (rnd.nextBoolean()) {
            q = q.severityMin(rnd.nextInt(30) - 3);
        }
        if (rnd.nextBoolean()) {
            q = q.traceId(TRACES[rnd.nextInt(TRACES.length)]);
        }
        return q;
    }

    private static LogRecord randomRow(Random rnd) {
        long time = rnd.nextInt(5) == 0 ? 0 : HOUR_NANOS + rnd.nextInt(50) * 1_000_000_000L;
        Long observed = rnd.nextBoolean() ? null : HOUR_NANOS + rnd.nextInt(50) * 1_000_000_000L;
        String resourceService = SERVICES[rnd.nextInt(SERVICES.length)];
        String service = rnd.nextInt(3) == 0 ? null : SERVICES[rnd.nextInt(SERVICES.length)];
        LogRecord r = LogRecord.builder("acme")
                .timeUnixNano(time)
                .observedTimeUnixNano(observed)
                .templateId(rnd.nextInt(3))
                .severityNumber(rnd.nextInt(26))
                .traceId(rnd.nextInt(4) == 0 ? null : TRACES[rnd.nextInt(TRACES.length)])
                .resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"" + resourceService
                        + "\"}}]")
                .serviceName(service)
                .build();
        if (rnd.nextInt(4) != 0) {
            return r;
        }
        // A row of a file written before the effective-time column: null, recomputed by the matcher.
        return new LogRecord(r.tenantId(), r.templateId(), r.templateVersion(), r.timeUnixNano(),
                r.observedTimeUnixNano(), null, r.severityNumber(), r.severityText(), r.scopeName(),
                r.scopeVersion(), r.attributes(), r.droppedAttributesCount(), r.resourceAttributes(), r.traceId(),
                r.spanId(), r.flags(), r.eventName(), r.bodyKind(), r.body(), r.params(), r.separators(),
                r.confidence(), r.lossyFlag(), r.scopeAttributes(), r.resourceSchemaUrl(), r.scopeSchemaUrl(),
                r.serviceName(), r.extras());
    }

    private static byte[] bytes(int fill) {
        byte[] b = new byte[16];
        Arrays.fill(b, (byte) fill);
        return b;
    }
}
