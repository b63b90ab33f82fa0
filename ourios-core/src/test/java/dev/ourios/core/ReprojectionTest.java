package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * {@link LogRecord#reprojected} keeps a row that already carries its derived values and recomputes every other
 * one: a stale service name, a missing or stale effective time.
 */
class ReprojectionTest {
    private static LogRecord.Builder row() {
        return LogRecord.builder("t").timeUnixNano(0).observedTimeUnixNano(5_000L).serviceName("cart");
    }

    @Test
    void a_row_with_its_derived_values_is_kept_as_it_is() {
        LogRecord r = row().build().reprojected("cart");
        assertSame(r, r.reprojected("cart"));
    }

    @Test
    void stale_or_missing_derived_values_are_recomputed() {
        LogRecord current = row().build().reprojected("cart");
        LogRecord renamed = current.reprojected("checkout");
        assertNotSame(current, renamed);
        assertEquals("checkout", renamed.serviceName());
        assertEquals(current.effectiveTime(), renamed.effectiveTimeUnixNano());

        LogRecord unnamed = current.reprojected(null);
        assertEquals(null, unnamed.serviceName());

        for (Long effective : new Long[] {42L, null}) { // stale, and missing (a file written before the column)
            LogRecord r = withEffectiveTime(current, effective);
            LogRecord projected = r.reprojected("cart");
            assertNotSame(r, projected);
            assertEquals(5_000L, projected.effectiveTimeUnixNano());
        }
    }

    private static LogRecord withEffectiveTime(LogRecord r, Long effective) {
        return new LogRecord(r.tenantId(), r.templateId(), r.templateVersion(), r.timeUnixNano(),
                r.observedTimeUnixNano(), effective, r.severityNumber(), r.severityText(), r.scopeName(),
                r.scopeVersion(), r.attributes(), r.droppedAttributesCount(), r.resourceAttributes(), r.traceId(),
                r.spanId(), r.flags(), r.eventName(), r.bodyKind(), r.body(), r.params(), r.separators(),
                r.confidence(), r.lossyFlag(), r.scopeAttributes(), r.resourceSchemaUrl(), r.scopeSchemaUrl(),
                r.serviceName(), r.extras());
    }
}
