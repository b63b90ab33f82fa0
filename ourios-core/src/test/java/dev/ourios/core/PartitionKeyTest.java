package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PartitionKeyTest {
    private static final long NS = 1_000_000_000L;

    @Test
    void hourPathAndLabelAreTheFormattedFields() {
        long seed = System.nanoTime();
        System.out.println("PartitionKeyTest format seed " + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            int year = switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextInt(10_000);
                case 1 -> -rnd.nextInt(100_000);
                case 2 -> 10_000 + rnd.nextInt(900_000);
                default -> 1970 + rnd.nextInt(100);
            };
            PartitionKey k = new PartitionKey("t", year, 1 + rnd.nextInt(12), 1 + rnd.nextInt(28), rnd.nextInt(24));
            assertEquals(String.format("year=%04d/month=%02d/day=%02d/hour=%02d", k.year(), k.month(), k.day(),
                    k.hour()), k.hourPath(), "seed " + seed);
            assertEquals(String.format("%04d-%02d-%02dT%02d", k.year(), k.month(), k.day(), k.hour()), k.hourLabel(),
                    "seed " + seed);
        }
    }

    @Test
    void rowsHoldExactlyTheRowsWhosePartitionItIs() {
        long seed = System.nanoTime();
        System.out.println("PartitionKeyTest seed " + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            long hour = Math.floorDiv(rnd.nextLong(), 3600 * NS) / 4 * 3600 * NS; // any hour, not only near now
            PartitionKey k = PartitionKey.of(rnd.nextBoolean() ? "a" : "b", hour);
            // Around the hour's edges (one nanosecond either side) and anywhere within a day of it.
            long[] offsets = {-1, 0, 1, 3600 * NS - 1, 3600 * NS, rnd.nextLong(48 * 3600 * NS) - 24 * 3600 * NS};
            for (long offset : offsets) {
                String tenant = rnd.nextInt(4) == 0 ? "b" : "a";
                long time = hour + offset;
                assertEquals(PartitionKey.of(tenant, time).equals(k), k.rows().holds(tenant, time),
                        "seed " + seed + ": " + k + " vs tenant " + tenant + " time " + time);
            }
        }
    }

    @Test
    void pathsAndLabels() {
        PartitionKey k = new PartitionKey("acme/eu", 2026, 4, 7, 9);
        assertEquals("year=2026/month=04/day=07/hour=09", k.hourPath());
        assertEquals("2026-04-07T09", k.hourLabel());
        assertEquals("tenant_id=acme%2Feu/year=2026/month=04/day=07/hour=09", k.path());
        assertEquals("data/tenant_id=acme%2Feu/year=2026/month=04/day=07/hour=09/", k.dataPrefix());
        assertEquals(Instant.parse("2026-04-07T09:00:00Z"), k.hourStart());
        assertEquals(k.hourStartNanos() + 3600 * NS, k.hourEndNanos());
        assertEquals(k, PartitionKey.parseLabel("acme/eu", "2026-04-07T09"));
    }

    @Test
    void parsesOnlyCanonicalHourPaths() {
        assertEquals(Optional.of(new PartitionKey("t", 2026, 4, 7, 9)),
                PartitionKey.parseHourPath("t", "year=2026", "month=04", "day=07", "hour=09"));
        assertTrue(PartitionKey.parseHourPath("t", "year=2026", "month=4", "day=07", "hour=09").isEmpty());
        assertTrue(PartitionKey.parseHourPath("t", "year=26", "month=04", "day=07", "hour=09").isEmpty());
        assertTrue(PartitionKey.parseHourPath("t", "year=2026", "month=13", "day=07", "hour=09").isEmpty());
        assertTrue(PartitionKey.parseHourPath("t", "year=2026", "month=02", "day=30", "hour=09").isEmpty());
        assertTrue(PartitionKey.parseHourPath("t", "year=2026", "month=04", "day=07", "hour=24").isEmpty());
        assertTrue(PartitionKey.parseHourPath("t", "year=2026", "month=04", "day=07", "hour=09x").isEmpty());
        assertTrue(PartitionKey.parseHourPath("t", "yr=2026", "month=04", "day=07", "hour=09").isEmpty());
    }

    @Test
    void rejectsBadLabelsAndEmptyTenant() {
        assertThrows(IllegalArgumentException.class, () -> PartitionKey.parseLabel("t", "2026-04-07 09"));
        assertThrows(IllegalArgumentException.class, () -> PartitionKey.parseLabel("t", "2026-4-07T09"));
        assertThrows(RuntimeException.class, () -> PartitionKey.parseLabel("t", "2026-04-07T25"));
        assertThrows(IllegalArgumentException.class, () -> new PartitionKey("", 2026, 1, 1, 0));
    }

    @Test
    void effectiveTimeRule() {
        long t = Instant.parse("2026-04-07T09:59:59.999999999Z").getEpochSecond() * NS + 999_999_999L;
        long o = Instant.parse("2026-04-07T10:00:00Z").getEpochSecond() * NS;
        assertEquals(t, LogRecord.effectiveTime(t, o), "time wins when non-zero");
        assertEquals(o, LogRecord.effectiveTime(0, o), "time 0 falls back to observed");
        assertEquals(0, LogRecord.effectiveTime(0, 0L));
        assertEquals(0, LogRecord.effectiveTime(0, null));

        LogRecord onlyObserved = LogRecord.builder("t").observedTimeUnixNano(o).build();
        assertEquals(new PartitionKey("t", 2026, 4, 7, 10), onlyObserved.partitionKey());
        assertEquals(o, onlyObserved.effectiveTimeUnixNano());
        LogRecord both = LogRecord.builder("t").timeUnixNano(t).observedTimeUnixNano(o).build();
        assertEquals(new PartitionKey("t", 2026, 4, 7, 9), both.partitionKey());
        LogRecord neither = LogRecord.builder("t").build();
        assertEquals(new PartitionKey("t", 1970, 1, 1, 0), neither.partitionKey());
        assertEquals("year=1970/month=01/day=01/hour=00", neither.partitionKey().hourPath());
    }

    @Test
    void negativeNanosFloorToThePreviousHour() {
        assertEquals(new PartitionKey("t", 1969, 12, 31, 23), PartitionKey.of("t", -1));
        assertEquals(new PartitionKey("t", 1969, 12, 31, 23), PartitionKey.of("t", -3600 * NS));
        assertEquals(new PartitionKey("t", 1969, 12, 31, 22), PartitionKey.of("t", -3600 * NS - 1));
        assertEquals(new PartitionKey("t", 1970, 1, 1, 0), PartitionKey.of("t", 3600 * NS - 1));
        assertEquals(new PartitionKey("t", 1970, 1, 1, 1), PartitionKey.of("t", 3600 * NS));
        assertEquals(new PartitionKey("t", 2262, 4, 11, 23), PartitionKey.of("t", Long.MAX_VALUE));
    }

    @Test
    void ordersByTenantThenTime() {
        PartitionKey a9 = new PartitionKey("a", 2026, 1, 1, 9);
        PartitionKey a10 = new PartitionKey("a", 2026, 1, 1, 10);
        PartitionKey b0 = new PartitionKey("b", 2020, 1, 1, 0);
        assertTrue(a9.compareTo(a10) < 0);
        assertTrue(a10.compareTo(b0) < 0);
        assertEquals(0, a9.compareTo(new PartitionKey("a", 2026, 1, 1, 9)));
    }

    /** Order and equality by the fields: tenant, then the hour's start; equal keys hash alike. Seeded. */
    @Test
    void orderAndEqualityAreTenantThenTime() {
        long seed = System.nanoTime();
        java.util.Random r = new java.util.Random(seed);
        for (int i = 0; i < 20_000; i++) {
            PartitionKey a = randomKey(r);
            PartitionKey b = r.nextInt(4) == 0 ? new PartitionKey(a.tenantId(), a.year(), a.month(), a.day(),
                    a.hour()) : randomKey(r);
            int byTenant = a.tenantId().compareTo(b.tenantId());
            int want = Integer.signum(byTenant != 0 ? byTenant : a.hourStart().compareTo(b.hourStart()));
            String ctx = "seed=" + seed + " " + a + " vs " + b;
            assertEquals(want, Integer.signum(a.compareTo(b)), ctx);
            assertEquals(want == 0, a.equals(b), ctx);
            if (want == 0) {
                assertEquals(a.hashCode(), b.hashCode(), ctx);
            }
        }
    }

    private static PartitionKey randomKey(java.util.Random r) {
        java.time.LocalDateTime t = java.time.LocalDateTime.of(1970 + r.nextInt(3), 1, 1, 0, 0)
                .plusHours(r.nextInt(3 * 366 * 24));
        return new PartitionKey(r.nextBoolean() ? "a" : "b", t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
                t.getHour());
    }
}
