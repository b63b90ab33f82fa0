package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestCodecTest {
    private static final String KEY7 = "data/tenant_id=acme/year=2026/month=11/day=29/hour=10/manifest.00000000000000000007.json";
    private static final String OUT = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String IN1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.parquet";
    private static final String IN2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a22.parquet";
    private final ManifestCodec codec = new ManifestCodec();

    private static Manifest full() {
        Instant at = Instant.parse("2026-11-29T11:17:03Z");
        return Manifest.of(7, List.of(OUT), List.of(new Retired(IN1, at), new Retired(IN2, at)),
                new CommitRecord(at, List.of(IN2, IN1), OUT, 123456, 2000, 1500, "ab12"));
    }

    @Test
    void encodesCompactJsonInTheSpecifiedFieldOrder() throws Exception {
        String json = new String(codec.encode(KEY7, full()), StandardCharsets.UTF_8);
        assertEquals("{\"format\":1,\"generation\":7,\"files\":[\"" + OUT + "\"],"
                + "\"retired\":[{\"file\":\"" + IN1 + "\",\"at\":\"2026-11-29T11:17:03Z\"},"
                + "{\"file\":\"" + IN2 + "\",\"at\":\"2026-11-29T11:17:03Z\"}],"
                + "\"commit\":{\"at\":\"2026-11-29T11:17:03Z\",\"inputs\":[\"" + IN1 + "\",\"" + IN2 + "\"],"
                + "\"output\":\"" + OUT + "\",\"rows\":123456,\"bytes_in\":2000,\"bytes_out\":1500,"
                + "\"checksum\":\"ab12\"}}", json);
    }

    @Test
    void roundTripsAndIsDeterministic() throws Exception {
        byte[] a = codec.encode(KEY7, full());
        Manifest back = codec.decode(KEY7, a);
        assertEquals(full(), back);
        assertArrayEquals(a, codec.encode(KEY7, back));
    }

    @Test
    void retiredDefaultsEmptyCommitMayBeAbsentUnknownFieldsTolerated() throws Exception {
        Manifest m = codec.decode(KEY7, ("{\"generation\":7,\"format\":1,\"files\":[\"" + OUT + "\"],"
                + "\"written_by\":{\"tool\":\"hand\"},\"extra\":[1,2]}").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(OUT), m.files());
        assertEquals(List.of(), m.retired());
        assertNull(m.commit());
    }

    @Test
    void rejectsInvalidManifestsNamingTheKeyAndTheProblem() {
        String f = "\"format\":1,\"generation\":7,";
        String[][] cases = {
            {"{\"format\":1,", "malformed JSON"},
            {"[]", "not a JSON object"},
            {"{" + f + "\"files\":[\"a.parquet\"]} {}", "malformed JSON"},
            {"{" + f + "\"files\":[\"a.parquet\"]} 7", "malformed JSON"},
            {"{" + f + "\"files\":[\"a.parquet\"]} x", "malformed JSON"},
            {"", "not a JSON object"},
            {"  ", "not a JSON object"},
            {"{\"format\":1,\"generation\":9e99999999999,\"files\":[]}", "out of range"},
            {"{\"format\":1,\"generation\":1e3,\"files\":[]}", "must be an integer"},
            {"{\"generation\":7,\"files\":[]}", "'format' is missing"},
            {"{\"format\":1,\"files\":[]}", "'generation' is missing"},
            {"{\"format\":1,\"generation\":7}", "'files' is missing"},
            {"{\"format\":2,\"generation\":7,\"files\":[]}", "unsupported format"},
            {"{\"format\":1,\"generation\":7.5,\"files\":[]}", "must be an integer"},
            {"{\"format\":1,\"generation\":\"7\",\"files\":[]}", "must be an integer"},
            {"{" + f + "\"files\":[], \"files\":[]}", "malformed JSON"},
            {"{\"format\":1,\"generation\":8,\"files\":[]}", "differs from the generation in its name"},
            {"{" + f + "\"files\":[\"a.parquet\",\"a.parquet\"]}", "more than once in files"},
            {"{" + f + "\"files\":[\"a.parquet\"],\"retired\":[{\"file\":\"a.parquet\",\"at\":\"2026-11-29T10:00:00Z\"}]}",
                "in both files and retired"},
            {"{" + f + "\"files\":[],\"retired\":[{\"file\":\"b.parquet\",\"at\":\"2026-11-29T10:00:00Z\"},"
                + "{\"file\":\"b.parquet\",\"at\":\"2026-11-29T10:00:00Z\"}]}", "more than once in retired"},
            {"{" + f + "\"files\":[\"../x.parquet\"]}", "not a single path component"},
            {"{" + f + "\"files\":[\"a\\\\x.parquet\"]}", "not a single path component"},
            {"{" + f + "\"files\":[\"..\"]}", "is not a file name"},
            {"{" + f + "\"files\":[\"\"]}", "empty file name"},
            {"{" + f + "\"files\":[\"a\\u0000.parquet\"]}", "NUL"},
            {"{" + f + "\"files\":[\"a.json\"]}", "does not end in .parquet"},
            {"{" + f + "\"files\":[\"a.PARQUET\"]}", "does not end in .parquet"},
            {"{" + f + "\"files\":[7]}", "must be strings"},
            {"{" + f + "\"files\":[],\"retired\":[{\"file\":\"b.parquet\"}]}", "'retired[].at' is missing"},
            {"{" + f + "\"files\":[],\"retired\":[{\"file\":\"b.parquet\",\"at\":\"yesterday\"}]}", "ISO-8601"},
            {"{" + f + "\"files\":[],\"commit\":{\"at\":\"2026-11-29T10:00:00Z\",\"inputs\":[\"/etc/x.parquet\"],"
                + "\"output\":\"o.parquet\",\"rows\":1,\"bytes_in\":1,\"bytes_out\":1,\"checksum\":\"c\"}}",
                "commit.inputs"},
        };
        for (String[] c : cases) {
            ManifestException e = assertThrows(ManifestException.class,
                    () -> codec.decode(KEY7, c[0].getBytes(StandardCharsets.UTF_8)), c[0]);
            assertTrue(e.getMessage().contains(KEY7), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
            assertEquals(KEY7, e.manifestKey());
        }
    }

    @Test
    void rejectsGenerationZeroAndNonCanonicalObjectNames() {
        String key0 = "data/t/manifest.00000000000000000000.json";
        assertThrows(ManifestException.class, () -> codec.decode(key0,
                "{\"format\":1,\"generation\":0,\"files\":[]}".getBytes(StandardCharsets.UTF_8)));
        ManifestException e = assertThrows(ManifestException.class, () -> codec.decode("data/t/manifest.7.json",
                "{\"format\":1,\"generation\":7,\"files\":[]}".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("not a canonical manifest name"), e.getMessage());
    }

    @Test
    void validatesBeforeWriting() {
        Manifest dup = Manifest.of(7, List.of(OUT), List.of(new Retired(OUT, Instant.EPOCH)), null);
        ManifestException e = assertThrows(ManifestException.class, () -> codec.encode(KEY7, dup));
        assertTrue(e.getMessage().contains("in both files and retired"), e.getMessage());
        Manifest wrongGen = Manifest.of(6, List.of(OUT), List.of(), null);
        assertThrows(ManifestException.class, () -> codec.encode(KEY7, wrongGen));
    }
}
