package dev.ourios.compaction.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.ObjectInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A share record (storage.md §4.14): its name, its JSON both ways, the plan id, and what is refused. */
class ShareRecordTest {
    private static final PartitionKey HOUR = PartitionKey.ofHour("acme", Instant.parse("2026-11-01T10:00:00Z"));

    @Test
    void a_record_reads_back_as_written_and_its_name_carries_plan_and_group() {
        String uuid = Uuid7.system().next().toString();
        ShareRecord r = new ShareRecord("0123456789abcdef", 1, 2, 5, 1000, 420, "420:" + "ab".repeat(16),
                List.of(new ShareRecord.Output(uuid + ".compacted.parquet", 420, 9000, 3)));
        assertEquals(r, ShareRecord.parse(r.toJson()));
        String name = r.name(Uuid7.system().next().toString());
        assertTrue(FileNames.isShareRecord(name), name);
        assertEquals("0123456789abcdef", ShareRecord.planOfName(name));
        assertEquals(1, ShareRecord.groupOfName(name));
        assertEquals(null, ShareRecord.planOfName(uuid + ".compacted.parquet"));
    }

    @Test
    void only_the_canonical_name_is_a_share_record() {
        String uuid = Uuid7.system().next().toString();
        assertTrue(FileNames.isShareRecord("share.0123456789abcdef.0." + uuid + ".json"));
        assertTrue(FileNames.isShareRecord("share.0123456789abcdef.63." + uuid + ".json"));
        for (String bad : List.of("share.0123456789ABCDEF.0." + uuid + ".json", "share.0123456789abcde.0." + uuid
                + ".json", "share.0123456789abcdef.01." + uuid + ".json", "share.0123456789abcdef.0.x.json",
                "share.0123456789abcdef.0." + uuid + ".json.tmp", "share.0123456789abcdef." + uuid + ".json",
                "manifest.00000000000000000001.json", "share..json", "share.json")) {
            assertFalse(FileNames.isShareRecord(bad), bad);
        }
    }

    @Test
    void the_plan_id_changes_with_every_input_and_setting_and_with_nothing_else() {
        List<ObjectInfo> in = List.of(new ObjectInfo(HOUR.dataPrefix() + "a.parquet", 10, Instant.EPOCH),
                new ObjectInfo(HOUR.dataPrefix() + "b.parquet", 20, Instant.EPOCH));
        CompactionPlan plan = new CompactionPlan(HOUR, 3, in, 1 << 20, 64 << 20, 64, 4 << 20);
        String id = ShareRecord.planId(plan, 2);
        assertTrue(id.matches("[0-9a-f]{16}"), id);
        List<ObjectInfo> later = List.of(new ObjectInfo(in.get(0).key(), 10, Instant.now()), in.get(1));
        assertEquals(id, ShareRecord.planId(new CompactionPlan(HOUR, 3, later, 1 << 20, 256 << 20, 8, 4 << 20), 2),
                "modification times, sort budget and fan-in do not change the output");
        List<String> others = List.of(ShareRecord.planId(plan, 3),
                ShareRecord.planId(new CompactionPlan(HOUR, 4, in, 1 << 20, 64 << 20, 64, 4 << 20), 2),
                ShareRecord.planId(new CompactionPlan(HOUR, 3, in, 2 << 20, 64 << 20, 64, 4 << 20), 2),
                ShareRecord.planId(new CompactionPlan(HOUR, 3, in, 1 << 20, 64 << 20, 64, 8 << 20), 2),
                ShareRecord.planId(new CompactionPlan(HOUR, 3, List.of(in.get(0),
                        new ObjectInfo(in.get(1).key(), 21, Instant.EPOCH)), 1 << 20, 64 << 20, 64, 4 << 20), 2),
                ShareRecord.planId(new CompactionPlan(PartitionKey.ofHour("acme2", HOUR.hourStart()), 3, in,
                        1 << 20, 64 << 20, 64, 4 << 20), 2));
        for (String other : others) {
            assertNotEquals(id, other);
        }
    }

    @Test
    void anything_but_a_well_formed_record_is_refused_with_one_bounded_message() {
        String good = new String(new ShareRecord("0123456789abcdef", 0, 2, 2, 10, 4, "4:" + "0".repeat(32),
                List.of(new ShareRecord.Output(Uuid7.system().next() + ".compacted.parquet", 4, 100, 1))).toJson(),
                StandardCharsets.UTF_8);
        long seed = System.nanoTime();
        System.out.println("ShareRecordTest seed " + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        int refused = 0;
        for (int round = 0; round < 5_000; round++) {
            StringBuilder b = new StringBuilder(good);
            int edits = 1 + rnd.nextInt(4);
            for (int e = 0; e < edits && b.length() > 0; e++) {
                int at = rnd.nextInt(b.length());
                switch (rnd.nextInt(3)) {
                    case 0 -> b.deleteCharAt(at);
                    case 1 -> b.insert(at, "{}[]\",:-09ax".charAt(rnd.nextInt(12)));
                    default -> b.setCharAt(at, (char) (32 + rnd.nextInt(95)));
                }
            }
            try {
                ShareRecord.parse(b.toString().getBytes(StandardCharsets.UTF_8));
            } catch (IllegalArgumentException | ArithmeticException e) {
                refused++;
                assertTrue(e.getMessage() == null || e.getMessage().length() < 600,
                        "bounded: " + e.getMessage() + ", seed " + seed);
            }
        }
        assertTrue(refused > 1_000, refused + " of 5,000 mangled records refused, seed " + seed);
        List<String> bad = new ArrayList<>(List.of("", "[]", "{\"format\":2}", "null",
                good.replace("\"group\":0", "\"group\":2"), good.replace("\"rows_kept\":4", "\"rows_kept\":11"),
                good.replace(".compacted.parquet", ".parquet"), good.replace("\"rows_read\":10", "\"rows_read\":1.5")));
        for (String json : bad) {
            assertThrows(IllegalArgumentException.class,
                    () -> ShareRecord.parse(json.getBytes(StandardCharsets.UTF_8)), json);
        }
    }
}
