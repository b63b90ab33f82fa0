package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.table.ManifestKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition whose current manifest was written by hand, with a commit record that has no checksum, queries like
 * any other: the manifest's files and the late ingest file beside them, each row once, the retired inputs never.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PartialCommitRecordQueryTest {
    static final Instant START = Instant.parse("2026-08-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aManifestWhoseCommitLacksAChecksumQueriesNormally() throws Exception {
        TestStore ts = new TestStore(dir, 21);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 3, 200, 4));
        PartitionKey p = gen.partition("t", 0);
        List<LogRecord> merged = new ArrayList<>();
        List<String> inputs = new ArrayList<>();
        for (int f = 0; f < 2; f++) {
            List<LogRecord> rows = gen.file("t", 0, f);
            merged.addAll(rows);
            inputs.add(TestStore.name(ts.ingest(p, rows)));
        }
        String out = TestStore.name(ts.compacted(p, merged, WriterOptions.compacted(1 << 20)));
        List<LogRecord> late = gen.file("t", 0, 2);
        ts.ingest(p, late);
        String at = "2026-08-01T02:00:00Z";
        String manifest = "{\"format\":1,\"generation\":1,\"files\":[\"" + out + "\"],\"retired\":["
                + "{\"file\":\"" + inputs.get(0) + "\",\"at\":\"" + at + "\"},"
                + "{\"file\":\"" + inputs.get(1) + "\",\"at\":\"" + at + "\"}],"
                + "\"commit\":{\"at\":\"" + at + "\",\"inputs\":[\"" + inputs.get(0) + "\",\"" + inputs.get(1)
                + "\"],\"output\":\"" + out + "\",\"rows\":" + merged.size() + ",\"written_by\":\"hand\"}}";
        ts.store.put(ManifestKeys.key(p, 1), manifest.getBytes(StandardCharsets.UTF_8));

        QueryResult r = ts.engine().collect(Query.tenant("t"));
        List<LogRecord> expected = new ArrayList<>(merged);
        expected.addAll(late);
        assertEquals(multiset(expected), multiset(r.rows()));
        assertEquals(expected.size(), r.rows().size());
        assertEquals(1, r.stats().partitions());
        assertEquals(2, r.stats().files(), r.stats().toString());
    }

    private static Map<LogRecord, Integer> multiset(List<LogRecord> rows) {
        Map<LogRecord, Integer> out = new HashMap<>();
        rows.forEach(row -> out.merge(row, 1, Integer::sum));
        return out;
    }
}
