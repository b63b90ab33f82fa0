package dev.ourios.table.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A batch's file is named after its bytes; landing the same batch again changes nothing. */
class ContentNamedIngestWriterTest {
    private static final long T = 1_764_432_000_000_000_000L;

    @TempDir
    Path dir;

    private static List<LogRecord> rows(String body) {
        return List.of(LogRecord.builder("acme").timeUnixNano(T + 1).bodyKind(0)
                .body(body.getBytes(StandardCharsets.UTF_8)).build(),
                LogRecord.builder("acme").timeUnixNano(T + 2).bodyKind(2).build());
    }

    @Test
    void sameRowsSameNameAndTheSecondLandingIsANoOp() throws Exception {
        var store = new LocalObjectStore(dir);
        var w = new ContentNamedIngestWriter(store);
        PartitionKey p = rows("a").get(0).partitionKey();
        var first = w.land(p, rows("a"));
        assertTrue(first.created());
        String name = first.file().key().substring(p.dataPrefix().length());
        assertTrue(FileNames.isIngestFile(name), name + " is a canonical ingest-file name");
        assertEquals(p.hourStart().toEpochMilli(), Long.parseLong(name.replace("-", "").substring(0, 12), 16),
                "the UUIDv7 time part is the hour start");
        Path file = dir.resolve(first.file().key());
        var modified = Files.getLastModifiedTime(file);
        Thread.sleep(20);

        var again = new ContentNamedIngestWriter(store).land(p, rows("a"));
        assertFalse(again.created());
        assertEquals(first.file(), again.file());
        assertEquals(modified, Files.getLastModifiedTime(file), "the existing file is not rewritten");
        assertEquals(1, Files.list(file.getParent()).filter(f -> f.toString().endsWith(".parquet")).count());

        var other = w.land(p, rows("b"));
        assertTrue(other.created());
        assertNotEquals(first.file().key(), other.file().key());
    }
}
