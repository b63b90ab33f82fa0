package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The expiry's and the deletion's commit records: written after the compaction's fields, read back complete, and
 * refused when they contradict their kind; a record of a kind this build does not know is tolerated as incomplete.
 */
class CommitKindCodecTest {
    private static final String KEY = "data/tenant_id=acme/year=2026/month=11/day=29/hour=10/manifest.00000000000000000002.json";
    private static final String OUT = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String IN1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.parquet";
    private static final Instant AT = Instant.parse("2026-11-29T11:17:03Z");
    private final ManifestCodec codec = new ManifestCodec();

    @Test
    void anExpiryHasNoFilesNoOutputAndRecordsTheRowsRemoved() throws Exception {
        CommitRecord c = CommitRecord.expiry(AT, List.of(IN1), 300, 4096, "retention 30d");
        Manifest m = Manifest.of(2, List.of(), List.of(new Retired(IN1, AT)), c);
        String json = new String(codec.encode(KEY, m), StandardCharsets.UTF_8);
        assertEquals("{\"format\":1,\"generation\":2,\"files\":[],\"retired\":[{\"file\":\"" + IN1
                + "\",\"at\":\"2026-11-29T11:17:03Z\"}],\"commit\":{\"at\":\"2026-11-29T11:17:03Z\",\"inputs\":[\""
                + IN1 + "\"],\"rows\":0,\"bytes_in\":4096,\"bytes_out\":0,\"kind\":\"expire\",\"rows_removed\":300,"
                + "\"reason\":\"retention 30d\"}}", json);
        Manifest back = codec.decode(KEY, json.getBytes(StandardCharsets.UTF_8));
        assertEquals(Optional.of(c), back.commit().complete());
        assertEquals(Optional.of(CommitKind.EXPIRE), back.commit().commitKind());
    }

    @Test
    void aDeletionRecordsItsOutputItsChecksumAndItsFilter() throws Exception {
        CommitRecord c = new CommitRecord(CommitKind.DELETE, AT, List.of(IN1), OUT, 290, 10, 4096, 4000, "290:ab",
                "{\"tenant\":\"acme\"}");
        Manifest m = Manifest.of(2, List.of(OUT), List.of(new Retired(IN1, AT)), c);
        Manifest back = codec.decode(KEY, codec.encode(KEY, m));
        assertEquals(Optional.of(c), back.commit().complete());
        CommitRecord none = new CommitRecord(CommitKind.DELETE, AT, List.of(IN1), null, 0, 300, 4096, 0, null, "{}");
        Manifest empty = Manifest.of(2, List.of(), List.of(new Retired(IN1, AT)), none);
        assertEquals(Optional.of(none), codec.decode(KEY, codec.encode(KEY, empty)).commit().complete());
    }

    @Test
    void recordsThatContradictTheirKindAreRefusedAndUnknownKindsTolerated() throws Exception {
        assertThrows(IllegalArgumentException.class,
                () -> new CommitRecord(CommitKind.EXPIRE, AT, List.of(IN1), OUT, 0, 1, 1, 1, "1:ab", null));
        assertThrows(IllegalArgumentException.class,
                () -> new CommitRecord(CommitKind.COMPACT, AT, List.of(IN1), OUT, 1, 1, 1, 1, "1:ab", null));
        assertThrows(IllegalArgumentException.class,
                () -> new CommitRecord(CommitKind.DELETE, AT, List.of(IN1), OUT, 1, 1, 1, 1, null, null));
        String newer = "{\"format\":1,\"generation\":2,\"files\":[],\"commit\":{\"at\":\"2026-11-29T11:17:03Z\","
                + "\"inputs\":[],\"rows\":0,\"bytes_in\":0,\"bytes_out\":0,\"kind\":\"archive\",\"rows_removed\":0}}";
        Manifest m = codec.decode(KEY, newer.getBytes(StandardCharsets.UTF_8));
        assertTrue(m.commit().complete().isEmpty(), "a kind this build does not know is no record of ours");
        assertTrue(m.commit().commitKind().isEmpty());
    }
}
