package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The day manifest's {@code covers} (STORAGE.md §3.1, §4.15): fixed bytes, round trip, rules. */
class CoverCodecTest {
    private static final DayPartition DAY = new DayPartition("acme", LocalDate.of(2026, 11, 29));
    private static final String DAY_KEY = DAY.prefix() + "manifest.00000000000000000003.json";
    private static final String HOUR_KEY =
            "data/tenant_id=acme/year=2026/month=11/day=29/hour=10/manifest.00000000000000000003.json";
    private static final String OUT = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String PREV = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c.compacted.parquet";
    private static final String H7 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.compacted.parquet";
    private static final String L7 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a22.parquet";
    private static final Instant AT = Instant.parse("2026-11-30T01:00:00Z");
    private final ManifestCodec codec = new ManifestCodec();

    private static Manifest day() {
        return Manifest.ofDay(3, List.of(OUT), List.of(new Retired(PREV, AT)),
                new CommitRecord(CommitKind.ROLLUP, AT, List.of(H7, L7, PREV), OUT, 50, 0, 900, 800, "50:ab", null),
                List.of(), List.of(new Cover(0, 0, 20, List.of(L7)), new Cover(7, 4, 30, List.of(H7, L7))));
    }

    @Test
    void writesCoversAfterMainBeforeCommitInAFixedOrder() throws Exception {
        String json = new String(codec.encode(DAY_KEY, day()), StandardCharsets.UTF_8);
        assertEquals("{\"format\":1,\"generation\":3,\"files\":[\"" + OUT + "\"],"
                + "\"retired\":[{\"file\":\"" + PREV + "\",\"at\":\"2026-11-30T01:00:00Z\"}],"
                + "\"covers\":[{\"hour\":\"00\",\"generation\":0,\"rows\":20,\"names\":[\"" + L7 + "\"]},"
                + "{\"hour\":\"07\",\"generation\":4,\"rows\":30,\"names\":[\"" + H7 + "\",\"" + L7 + "\"]}],"
                + "\"commit\":{\"at\":\"2026-11-30T01:00:00Z\",\"inputs\":[\"" + H7 + "\",\"" + L7 + "\",\"" + PREV
                + "\"],\"output\":\"" + OUT + "\",\"rows\":50,\"bytes_in\":900,\"bytes_out\":800,"
                + "\"checksum\":\"50:ab\",\"kind\":\"rollup\",\"rows_removed\":0}}", json);
    }

    @Test
    void roundTripsByteForByte() throws Exception {
        byte[] a = codec.encode(DAY_KEY, day());
        Manifest back = codec.decode(DAY_KEY, a);
        assertEquals(day(), back);
        assertEquals(30, back.cover(7).orElseThrow().rows());
        assertTrue(back.cover(8).isEmpty());
        assertArrayEquals(a, codec.encode(DAY_KEY, back));
    }

    @Test
    void aManifestWithoutCoversHasTheBytesItAlwaysHad() throws Exception {
        Manifest hour = Manifest.of(3, List.of(OUT), List.of(), new CommitRecord(AT, List.of(L7), OUT, 5, 1, 1, "5:x"));
        String json = new String(codec.encode(HOUR_KEY, hour), StandardCharsets.UTF_8);
        assertFalse(json.contains("covers"), json);
        assertEquals(hour, codec.decode(HOUR_KEY, json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void refusesCoversOutsideADayPartition() {
        Manifest covering = new Manifest(1, 3, List.of(OUT), List.of(), null, List.of(),
                List.of(new Cover(7, 4, 30, List.of(H7))));
        ManifestException e = assertThrows(ManifestException.class, () -> codec.encode(HOUR_KEY, covering));
        assertTrue(e.getMessage().contains("only allowed in a day partition"), e.getMessage());
        String json = "{\"format\":1,\"generation\":3,\"files\":[],\"covers\":[{\"hour\":\"07\",\"generation\":4,"
                + "\"rows\":1,\"names\":[]}]}";
        assertThrows(ManifestException.class, () -> codec.decode(HOUR_KEY, json.getBytes(StandardCharsets.UTF_8)));
    }

    /** A cover's rows per service: written after its names, the rows without a service first, read back equal. */
    @Test
    void writesAndReadsServicesAfterTheNames() throws Exception {
        Cover counted = new Cover(7, 4, 30, List.of(H7), java.util.Optional.of(List.of(ServiceRows.of(null, 3),
                ServiceRows.of("cart", 7), ServiceRows.of("checkout", 20))));
        Cover empty = new Cover(9, 1, 0, List.of(), java.util.Optional.of(List.of()));
        Manifest m = Manifest.ofDay(3, List.of(OUT), List.of(), null, List.of(), List.of(counted, empty));
        String json = new String(codec.encode(DAY_KEY, m), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"covers\":[{\"hour\":\"07\",\"generation\":4,\"rows\":30,\"names\":[\"" + H7
                + "\"],\"services\":[{\"rows\":3},{\"service\":\"cart\",\"rows\":7},"
                + "{\"service\":\"checkout\",\"rows\":20}]},{\"hour\":\"09\",\"generation\":1,\"rows\":0,"
                + "\"names\":[],\"services\":[]}]"), json);
        Manifest back = codec.decode(DAY_KEY, json.getBytes(StandardCharsets.UTF_8));
        assertEquals(m, back);
        Cover c = back.cover(7).orElseThrow();
        assertEquals(java.util.OptionalLong.of(20), c.rowsOf("checkout"));
        assertEquals(java.util.OptionalLong.of(0), c.rowsOf("frontend"), "a service without an entry has no rows");
        assertTrue(day().cover(7).orElseThrow().rowsOf("cart").isEmpty(), "a cover without services does not know");
    }

    /** Services are sorted by UTF-8 bytes, unsigned: by code point, not by UTF-16 units (U+FF5E before U+1F600). */
    @Test
    void servicesAreOrderedByTheirUtf8Bytes() throws Exception {
        String high = "\uFF5E";
        String astral = new String(Character.toChars(0x1F600));
        assertTrue(high.compareTo(astral) > 0, "UTF-16 order would put the astral one first");
        Cover c = new Cover(7, 4, 2, List.of(), java.util.Optional.of(List.of(ServiceRows.of(high, 1),
                ServiceRows.of(astral, 1))));
        Manifest m = Manifest.ofDay(3, List.of(OUT), List.of(), null, List.of(), List.of(c));
        assertEquals(m, codec.decode(DAY_KEY, codec.encode(DAY_KEY, m)));
        Cover swapped = new Cover(7, 4, 2, List.of(), java.util.Optional.of(List.of(ServiceRows.of(astral, 1),
                ServiceRows.of(high, 1))));
        assertThrows(ManifestException.class, () -> codec.encode(DAY_KEY, Manifest.ofDay(3, List.of(OUT), List.of(),
                null, List.of(), List.of(swapped))));
    }

    @Test
    void refusesBrokenServicesNamingTheHourAndTheProblem() {
        String head = "{\"format\":1,\"generation\":3,\"files\":[],\"covers\":[{\"hour\":\"07\",\"generation\":4,"
                + "\"rows\":10,\"names\":[],\"services\":";
        String[][] cases = {
            {"{}", "'covers[].services' must be an array"},
            {"[1]", "services entries must be objects"},
            {"[{\"service\":\"a\"}]", "services[].rows' is missing"},
            {"[{\"service\":7,\"rows\":10}]", "must be a string"},
            {"[{\"service\":\"a\",\"rows\":-1}]", "must not be negative"},
            {"[{\"service\":\"a\",\"rows\":4}]", "services add up to 4 rows, the cover has 10"},
            {"[{\"service\":\"a\",\"rows\":4},{\"service\":\"b\",\"rows\":7}]", "add up to 11 rows"},
            {"[{\"service\":\"b\",\"rows\":4},{\"service\":\"a\",\"rows\":6}]", "'a' is out of order"},
            {"[{\"service\":\"a\",\"rows\":4},{\"rows\":6}]", "without a service is out of order"},
            {"[{\"service\":\"a\",\"rows\":4},{\"service\":\"a\",\"rows\":6}]", "more than once in services"},
            {"[{\"rows\":4},{\"rows\":6}]", "more than once in services"},
            {"[{\"service\":\"a\",\"rows\":10},{\"service\":\"b\",\"rows\":0}]", "an entry counts at least one"},
            {"[]", "services add up to 0 rows, the cover has 10"},
        };
        for (String[] c : cases) {
            byte[] json = (head + c[0] + "}]}").getBytes(StandardCharsets.UTF_8);
            ManifestException e = assertThrows(ManifestException.class, () -> codec.decode(DAY_KEY, json), c[0]);
            assertTrue(e.getMessage().startsWith("manifest " + DAY_KEY + ": "), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
        }
    }

    @Test
    void refusesBrokenCoversNamingTheManifestAndTheProblem() {
        String head = "{\"format\":1,\"generation\":3,\"files\":[],\"covers\":";
        String[][] cases = {
            {"{}", "'covers' must be an array"},
            {"[1]", "covers entries must be objects"},
            {"[{\"hour\":\"7\",\"generation\":4,\"rows\":1,\"names\":[]}]", "two digits 00 to 23"},
            {"[{\"hour\":\"24\",\"generation\":4,\"rows\":1,\"names\":[]}]", "two digits 00 to 23"},
            {"[{\"hour\":\"07\",\"rows\":1,\"names\":[]}]", "covers[].generation' is missing"},
            {"[{\"hour\":\"07\",\"generation\":-1,\"rows\":1,\"names\":[]}]", "must not be negative"},
            {"[{\"hour\":\"07\",\"generation\":4,\"rows\":1,\"names\":[\"a/b.parquet\"]}]", "single path component"},
            {"[{\"hour\":\"07\",\"generation\":4,\"rows\":1,\"names\":[\"" + L7 + "\",\"" + L7 + "\"]}]",
                "more than once"},
            {"[{\"hour\":\"07\",\"generation\":4,\"rows\":1,\"names\":[]},"
                + "{\"hour\":\"07\",\"generation\":5,\"rows\":1,\"names\":[]}]", "not after the hour before it"},
            {"[{\"hour\":\"09\",\"generation\":4,\"rows\":1,\"names\":[]},"
                + "{\"hour\":\"07\",\"generation\":5,\"rows\":1,\"names\":[]}]", "not after the hour before it"},
        };
        for (String[] c : cases) {
            byte[] json = (head + c[0] + "}").getBytes(StandardCharsets.UTF_8);
            ManifestException e = assertThrows(ManifestException.class, () -> codec.decode(DAY_KEY, json), c[0]);
            assertTrue(e.getMessage().startsWith("manifest " + DAY_KEY + ": "), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
        }
    }
}
