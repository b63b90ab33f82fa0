package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Which hour of a day a key of the day's tree listing sits directly in (TableReader#hourSnapshots groups by it), and
 * which hour directory names the partition walk takes (TableLayout#hourOf): canonical ones alone, as
 * PartitionKey#parseHourPath decides.
 */
class TreeKeyHourTest {
    private static final String DAY = "data/tenant_id=a/year=2026/month=03/day=01/";

    private static int hourOf(String tail) {
        return TableReader.hourOfTreeKey(DAY + tail, DAY.length());
    }

    @Test
    void anObjectDirectlyInACanonicalHourHasItsHour() {
        assertEquals(0, hourOf("hour=00/manifest.00000000000000000001.json"));
        assertEquals(7, hourOf("hour=07/x"));
        assertEquals(23, hourOf("hour=23/.0190-a.parquet.tmp-1f"));
    }

    @Test
    void everyOtherKeyHasNone() {
        assertEquals(-1, hourOf("rollup/manifest.00000000000000000001.json"), "the day partition's");
        assertEquals(-1, hourOf("hour=07/deeper/x"), "not directly in the hour");
        assertEquals(-1, hourOf("hour=07/"), "no name");
        assertEquals(-1, hourOf("hour=7/x"), "not canonical");
        assertEquals(-1, hourOf("hour=24/x"));
        assertEquals(-1, hourOf("hour=30/x"));
        assertEquals(-1, hourOf("hour=0a/x"));
        assertEquals(-1, hourOf("hour=007/x"));
        assertEquals(-1, hourOf("hours=07/x"));
        assertEquals(-1, hourOf("top.json"));
    }

    @Test
    void theWalkTakesExactlyTheHourDirectoriesTheHourPathParserTakes() {
        java.util.List<String> names = new java.util.ArrayList<>(java.util.List.of("hour=7", "hour=007", "hour=24",
                "hour=99", "hour=0a", "hour=\u0661\u0662", "hours=01", "Hour=01", "hour=-1", "hour=+1", "rollup", ""));
        for (int h = 0; h < 100; h++) {
            names.add(String.format("hour=%02d", h));
        }
        for (String name : names) {
            assertEquals(dev.ourios.core.PartitionKey.parseHourPath("t", "year=2024", "month=02", "day=29", name),
                    TableLayout.hourOf("t", 2024, 2, 29, name), name);
        }
    }
}
