package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetentionTest {
    private static final PartitionKey HOUR = PartitionKey.ofHour("acme", Instant.parse("2026-11-01T10:00:00Z"));
    private static final Instant HOUR_END = Instant.parse("2026-11-01T11:00:00Z");

    @Test
    void aPartitionExpiresOnceItsWholeHourIsOlderThanTheRetention() {
        Retention r = Retention.of(Duration.ofDays(30));
        Instant boundary = HOUR_END.plus(Duration.ofDays(30));
        assertFalse(r.isExpired(HOUR, boundary.minusNanos(1)), "the hour's last nanosecond is still kept");
        assertTrue(r.isExpired(HOUR, boundary));
        assertTrue(r.isExpired(HOUR, boundary.plusSeconds(3600)));
        // Records follow their partition: the hour's first and last nanosecond expire together.
        assertTrue(r.isExpired("acme", HOUR.hourStartNanos(), boundary));
        assertTrue(r.isExpired("acme", HOUR.hourEndNanos() - 1, boundary));
        assertFalse(r.isExpired("acme", HOUR.hourEndNanos(), boundary), "the next hour is kept");
    }

    @Test
    void aTenantsOwnRetentionOverridesTheDefaultAndNoRetentionKeepsEverything() {
        Retention r = Retention.of(Duration.ofDays(30)).withTenant("acme", Duration.ofDays(400));
        Instant now = HOUR_END.plus(Duration.ofDays(100));
        assertFalse(r.isExpired(HOUR, now), "acme keeps 400 days");
        assertTrue(r.isExpired(PartitionKey.ofHour("beta", HOUR.hourStart()), now), "beta has the default");
        assertFalse(Retention.NONE.isExpired(HOUR, Instant.parse("2999-01-01T00:00:00Z")));
        assertTrue(Retention.NONE.isNone());
        Retention onlyAcme = new Retention(Optional.empty(), Map.of("acme", Duration.ofHours(12)));
        assertTrue(onlyAcme.isExpired(HOUR, now));
        assertFalse(onlyAcme.isExpired(PartitionKey.ofHour("beta", HOUR.hourStart()), now), "beta keeps all");
    }

    @Test
    void aRetentionMustBePositiveAndPrintsAsItIsWritten() {
        assertThrows(IllegalArgumentException.class, () -> Retention.of(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> Retention.NONE.withTenant("a", Duration.ofDays(-1)));
        assertEquals("30d", Retention.format(Duration.ofDays(30)));
        assertEquals("12h", Retention.format(Duration.ofHours(12)));
        assertEquals("90m", Retention.format(Duration.ofMinutes(90)));
    }
}
