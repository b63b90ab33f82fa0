package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.sort.RecordFootprint;
import dev.ourios.compaction.sort.RowBufferAccess;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.rows.StringTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The checksum hashed on a helper thread must equal the one hashed in line, whatever the batching (many small rows,
 * rows larger than the in-flight bound), and a failure on the helper must reach the caller, not vanish.
 */
class BackgroundChecksumTest {
    @Test
    void hashes_the_same_rows_to_the_same_value_as_in_line() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("BackgroundChecksumTest seed " + seed);
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>();
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of("t"), 1, 3, 3_000, seed));
        for (int f = 0; f < 3; f++) {
            rows.addAll(gen.file("t", 0, f));
        }
        // Rows heavier than the whole in-flight bound travel alone and must neither deadlock nor be lost.
        for (int i = 0; i < 3; i++) {
            byte[] body = new byte[(int) BackgroundChecksum.IN_FLIGHT_BYTES + rnd.nextInt(1000)];
            rnd.nextBytes(body);
            rows.add(rnd.nextInt(rows.size()), LogRecord.builder("t").timeUnixNano(i).body(body).build());
        }
        RowChecksum inLine = new RowChecksum();
        RowBufferAccess buffer = new RowBufferAccess();
        for (LogRecord r : rows) {
            inLine.add(r);
            buffer.add(r, buffer.rows());
        }
        StringTable table = buffer.view();
        try (BackgroundChecksum records = BackgroundChecksum.start("test-records");
                BackgroundChecksum encoded = BackgroundChecksum.start("test-encoded")) {
            for (LogRecord r : rows) {
                records.add(r, RecordFootprint.estimate(r));
            }
            for (int i = 0; i < buffer.rows(); i++) {
                encoded.add(buffer.page(i), buffer.offset(i), buffer.length(i), table);
            }
            buffer.clear(); // the helper may still be hashing: the snapshot and the pages must outlive the buffer
            assertEquals(rows.size(), records.rows());
            assertEquals(inLine.value(), records.value(), "seed " + seed);
            assertEquals(inLine.value(), encoded.value(), "seed " + seed);
            assertEquals(records.value(), records.value(), "value() is stable once computed");
        }
    }

    @Test
    void a_failure_on_the_helper_reaches_the_caller() {
        try (BackgroundChecksum c = BackgroundChecksum.start("test-failing")) {
            byte[] garbage = {(byte) 0xF0, (byte) 0xFF, (byte) 0xFF, (byte) 0x7F}; // a field length past the end
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                c.add(garbage, 0, garbage.length, StringTable.NONE);
                c.value();
            });
            assertTrue(e.getMessage().contains("checksum thread failed"), e.getMessage());
        }
    }

    @Test
    void closing_before_the_value_stops_the_helper() throws Exception {
        BackgroundChecksum c = BackgroundChecksum.start("test-abandoned");
        c.add(LogRecord.builder("t").timeUnixNano(1).build(), 1024);
        c.close(); // an error path: the rewrite failed before asking for the value
        c.close();
    }
}
