package dev.ourios.compaction.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.ourios.compaction.TestStores;
import dev.ourios.compaction.sort.RowBufferAccess;
import dev.ourios.core.LogRecord;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.rows.RowCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The compactor hashes the rows it reads as records and the rows it writes as encoded bytes; both must give the
 * same checksum for the same rows, or every commit would be refused (or, worse, a loss could hide).
 */
class RowChecksumTest {
    @Test
    void encoded_rows_hash_exactly_like_their_records() {
        long seed = new Random().nextLong();
        System.out.println("RowChecksumTest seed " + seed);
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>();
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of("t"), 1, 2, 500, seed));
        for (int f = 0; f < 2; f++) {
            rows.addAll(gen.file("t", 0, f));
        }
        for (int i = 0; i < 200; i++) {
            LogRecord.Builder b = LogRecord.builder("t").timeUnixNano(rnd.nextLong()).serviceName("s" + i % 3)
                    .extra("attr.route", "/r" + rnd.nextInt(3)).extra("resource.host.name", "h")
                    .extra("x.bytes", new byte[] {(byte) i}).extra("x.int", rnd.nextInt())
                    .extra("x.long", rnd.nextLong()).extra("x.float", rnd.nextFloat())
                    .extra("x.double", rnd.nextDouble()).extra("x.bool", rnd.nextBoolean());
            if (rnd.nextBoolean()) {
                b.extra("x.null", null).observedTimeUnixNano(rnd.nextLong());
            }
            rows.add(b.build());
        }
        rows.add(RowBufferAccess.edge("svc", 5));
        rows.add(RowBufferAccess.edge(null, 0));

        RowChecksum records = new RowChecksum();
        RowChecksum referenced = new RowChecksum();
        RowChecksum inlined = new RowChecksum();
        RowBufferAccess buffer = new RowBufferAccess();
        RowCodec.Output out = new RowCodec.Output(64);
        for (LogRecord r : rows) {
            records.add(r);
            buffer.add(r, buffer.rows());
        }
        for (int i = 0; i < buffer.rows(); i++) {
            referenced.add(buffer.page(i), buffer.offset(i), buffer);
            out.reset();
            RowCodec.inline(buffer.page(i), buffer.offset(i), buffer, out);
            inlined.add(out.array(), 0, null);
        }
        assertEquals(records.value(), referenced.value(), "seed " + seed);
        assertEquals(records.value(), inlined.value(), "seed " + seed);

        // And it still sees a changed value through the encoded path.
        RowChecksum altered = new RowChecksum();
        for (int i = 0; i < buffer.rows(); i++) {
            LogRecord r = buffer.get(i);
            if (i == rows.size() / 2) {
                r = LogRecord.builder(r.tenantId()).timeUnixNano(r.timeUnixNano() + 1).build();
            }
            out.reset();
            RowCodec.encode(r, i, buffer, out);
            altered.add(out.array(), 0, buffer);
        }
        assertNotEquals(records.value(), altered.value(), "seed " + seed);
    }
}
