package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * STORAGE.md §3's tolerance: {@code format}, {@code generation} and {@code files} are required; {@code commit}, and
 * every field of it, may be missing from a manifest written by another tool or by hand. What is present is still
 * typed strictly, and what this build writes is always complete.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ManifestCodecToleranceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY7 =
            "data/tenant_id=acme/year=2026/month=11/day=29/hour=10/manifest.00000000000000000007.json";
    private static final String OUT = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String IN1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.parquet";
    private static final String IN2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a22.parquet";
    private static final Instant AT = Instant.parse("2026-11-29T11:17:03Z");
    private static final List<String> COMMIT_FIELDS =
            List.of("at", "inputs", "output", "rows", "bytes_in", "bytes_out", "checksum");

    private final ManifestCodec codec = new ManifestCodec();

    private static Manifest full() {
        return Manifest.of(7, List.of(OUT), List.of(new Retired(IN1, AT), new Retired(IN2, AT)),
                new CommitRecord(AT, List.of(IN1, IN2), OUT, 123456, 2000, 1500, "123456:00ab"));
    }

    /** The manifest this build writes, as a JSON tree a test can take fields out of. */
    private ObjectNode fullTree() throws Exception {
        return (ObjectNode) JSON.readTree(codec.encode(KEY7, full()));
    }

    private Manifest decode(ObjectNode tree) throws Exception {
        return codec.decode(KEY7, JSON.writeValueAsBytes(tree));
    }

    /** A commit field's value as read, by its JSON name; empty when the record lacks it. */
    private static Optional<Object> field(RecordedCommit c, String name) {
        Function<OptionalLong, Optional<Object>> boxed =
                l -> l.isPresent() ? Optional.of(l.getAsLong()) : Optional.empty();
        return switch (name) {
            case "at" -> c.at().map(v -> v);
            case "inputs" -> c.inputs().map(v -> v);
            case "output" -> c.output().map(v -> v);
            case "rows" -> boxed.apply(c.rows());
            case "bytes_in" -> boxed.apply(c.bytesIn());
            case "bytes_out" -> boxed.apply(c.bytesOut());
            case "checksum" -> c.checksum().map(v -> v);
            default -> throw new IllegalArgumentException(name);
        };
    }

    @Test
    void aCommitLackingAnyOneFieldIsReadWithTheOthersIntact() throws Exception {
        RecordedCommit written = full().commit();
        for (String missing : COMMIT_FIELDS) {
            ObjectNode tree = fullTree();
            ((ObjectNode) tree.get("commit")).remove(missing);
            Manifest m = decode(tree);
            assertEquals(full().files(), m.files(), missing);
            assertEquals(full().retired(), m.retired(), missing);
            RecordedCommit c = m.commit();
            assertNotNull(c, missing);
            for (String f : COMMIT_FIELDS) {
                assertEquals(f.equals(missing) ? Optional.empty() : field(written, f), field(c, f),
                        "without commit." + missing + ", commit." + f);
            }
            assertEquals(Optional.empty(), c.complete(), "a record without commit." + missing + " is not complete");
        }
    }

    @Test
    void aCommitThatIsAbsentNullOrEmptyIsRead() throws Exception {
        ObjectNode absent = fullTree();
        absent.remove("commit");
        assertNull(decode(absent).commit());
        assertEquals(Optional.empty(), decode(absent).commitRecord());

        ObjectNode nullCommit = fullTree();
        nullCommit.putNull("commit");
        assertNull(decode(nullCommit).commit());

        ObjectNode empty = fullTree();
        empty.putObject("commit");
        RecordedCommit c = decode(empty).commit();
        for (String f : COMMIT_FIELDS) {
            assertEquals(Optional.empty(), field(c, f), f);
        }
        assertEquals(full().files(), decode(empty).files());
    }

    @Test
    void aNullCommitFieldCountsAsAbsent() throws Exception {
        ObjectNode tree = fullTree();
        ((ObjectNode) tree.get("commit")).putNull("checksum");
        assertEquals(Optional.empty(), decode(tree).commit().checksum());
    }

    @Test
    void aCompleteRecordReadBackIsTheOneWritten() throws Exception {
        Manifest back = codec.decode(KEY7, codec.encode(KEY7, full()));
        assertEquals(full(), back);
        assertEquals(Optional.of(new CommitRecord(AT, List.of(IN1, IN2), OUT, 123456, 2000, 1500, "123456:00ab")),
                back.commit().complete());
    }

    @Test
    void presentCommitFieldsAreStillTypedStrictly() {
        String head = "{\"format\":1,\"generation\":7,\"files\":[],\"commit\":";
        String[][] cases = {
            {"{\"checksum\":7}", "'commit.checksum' must be a string"},
            {"{\"output\":[\"a.parquet\"]}", "'commit.output' must be a string"},
            {"{\"output\":\"../a.parquet\"}", "commit.output: '../a.parquet' is not a single path component"},
            {"{\"output\":\"a.json\"}", "commit.output: 'a.json' does not end in .parquet"},
            {"{\"rows\":\"12\"}", "'commit.rows' must be an integer"},
            {"{\"rows\":1.5}", "'commit.rows' must be an integer"},
            {"{\"bytes_in\":-1}", "'commit.bytes_in' must not be negative"},
            {"{\"bytes_out\":true}", "'commit.bytes_out' must be an integer"},
            {"{\"at\":\"yesterday\"}", "'commit.at' is not an ISO-8601 UTC instant"},
            {"{\"at\":17}", "'commit.at' must be a string"},
            {"{\"inputs\":\"a.parquet\"}", "'commit.inputs' must be an array of file names"},
            {"{\"inputs\":[1]}", "'commit.inputs' entries must be strings"},
            {"{\"inputs\":[\"a.parquet\",\"a.parquet\"]}", "more than once in commit.inputs"},
            {"[]", "commit must be an object"},
            {"\"none\"", "commit must be an object"},
        };
        for (String[] c : cases) {
            String json = head + c[0] + "}";
            ManifestException e = assertThrows(ManifestException.class,
                    () -> codec.decode(KEY7, json.getBytes(StandardCharsets.UTF_8)), json);
            assertEquals(KEY7, e.manifestKey());
            assertTrue(e.getMessage().startsWith("manifest " + KEY7 + ": "), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), json + " -> " + e.getMessage());
        }
    }

    @Test
    void aManifestMissingARequiredFieldIsRefusedNamingTheManifestAndTheField() throws Exception {
        for (String required : List.of("format", "generation", "files")) {
            ObjectNode tree = fullTree();
            tree.remove(required);
            ManifestException e = assertThrows(ManifestException.class, () -> decode(tree), required);
            assertEquals("manifest " + KEY7 + ": required field '" + required + "' is missing", e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        }
    }

    @Test
    void theWriterWritesEveryCommitFieldAndRefusesAnIncompleteRecord() throws Exception {
        ObjectNode written = fullTree();
        List<String> names = new ArrayList<>();
        written.get("commit").fieldNames().forEachRemaining(names::add);
        assertEquals(COMMIT_FIELDS, names);

        RecordedCommit partial = new RecordedCommit(Optional.of(AT), Optional.of(List.of(IN1, IN2)),
                Optional.of(OUT), OptionalLong.of(1), OptionalLong.of(1), OptionalLong.of(1), Optional.empty());
        Manifest m = new Manifest(Manifest.FORMAT, 7, List.of(OUT), List.of(), partial);
        ManifestException e = assertThrows(ManifestException.class, () -> codec.encode(KEY7, m));
        assertTrue(e.getMessage().contains(KEY7) && e.getMessage().contains("commit record is incomplete"),
                e.getMessage());
    }

    /**
     * Seeded: any subset of commit fields taken out, in any order of the remaining JSON keys, with unknown fields
     * beside them, reads as exactly the remaining fields; taking out a required field instead is refused naming it.
     */
    @Test
    void anySubsetOfCommitFieldsIsReadAndRequiredFieldsStayRequired() throws Exception {
        long seed = System.nanoTime();
        System.out.println("ManifestCodecToleranceTest seed " + seed);
        Random rnd = new Random(seed);
        RecordedCommit written = full().commit();
        byte[] fullBytes = codec.encode(KEY7, full());
        for (int round = 0; round < 500; round++) {
            ObjectNode tree = fullTree();
            ObjectNode commit = (ObjectNode) tree.get("commit");
            List<String> kept = new ArrayList<>(COMMIT_FIELDS);
            List<String> dropped = new ArrayList<>();
            for (String f : COMMIT_FIELDS) {
                if (rnd.nextBoolean()) {
                    commit.remove(f);
                    kept.remove(f);
                    dropped.add(f);
                }
            }
            ObjectNode shuffled = JSON.createObjectNode();
            List<String> keys = new ArrayList<>(kept);
            Collections.shuffle(keys, rnd);
            keys.forEach(k -> shuffled.set(k, commit.get(k)));
            if (rnd.nextInt(4) == 0) {
                shuffled.put("written_by", "hand-" + rnd.nextInt(100));
            }
            tree.set("commit", shuffled);
            String requiredDropped = rnd.nextInt(5) == 0 ? List.of("format", "generation", "files").get(rnd.nextInt(3))
                    : null;
            String ctx = "seed " + seed + " round " + round + " dropped " + dropped + " required " + requiredDropped;
            if (requiredDropped != null) {
                tree.remove(requiredDropped);
                ManifestException e = assertThrows(ManifestException.class, () -> decode(tree), ctx);
                assertTrue(e.getMessage().contains(KEY7) && e.getMessage().contains("'" + requiredDropped + "'"),
                        ctx + ": " + e.getMessage());
                continue;
            }
            Manifest m = decode(tree);
            assertEquals(full().files(), m.files(), ctx);
            assertEquals(full().retired(), m.retired(), ctx);
            for (String f : COMMIT_FIELDS) {
                assertEquals(dropped.contains(f) ? Optional.empty() : field(written, f), field(m.commit(), f),
                        ctx + ": commit." + f);
            }
            assertEquals(dropped.isEmpty(), m.commit().complete().isPresent(), ctx);
            if (dropped.isEmpty()) {
                assertArrayEquals(fullBytes, codec.encode(KEY7, m), ctx + ": a complete record re-encodes the same");
            }
        }
    }
}
