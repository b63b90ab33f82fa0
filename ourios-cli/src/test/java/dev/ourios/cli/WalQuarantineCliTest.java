package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Uuid7;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalListener;
import dev.ourios.ingest.wal.WriteAheadLog;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios ingest --tenant} refuses an id over the byte limit (exit 2, one line), and {@code ourios wal
 * quarantine list|replay} show and land a quarantined segment, as real processes.
 */
class WalQuarantineCliTest {
    @TempDir
    Path dir;

    @Test
    void a_tenant_over_the_limit_is_exit_2_with_one_line() throws Exception {
        Path in = dir.resolve("in.jsonl");
        Files.writeString(in, "{\"resourceLogs\":[]}\n");
        var r = CliProcess.run(dir, "ingest", "--store", dir.resolve("s").toString(), "--tenant",
                "\u20ac".repeat(28), in.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(List.of("ourios: --tenant: tenant id is 84 bytes of UTF-8; the limit is 81 bytes"), lines);
        assertTrue(!Files.exists(dir.resolve("s").resolve("data")), "nothing written");
    }

    @Test
    void a_quarantined_segment_is_listed_and_replayed_into_the_store() throws Exception {
        Path walDir = dir.resolve("wal");
        List<SealedSegment> sealed = new CopyOnWriteArrayList<>();
        WriteAheadLog wal = WriteAheadLog.open(walDir, 1L << 20, Duration.ofHours(1), Uuid7.system(), sealed::add,
                WalListener.NONE);
        byte[] request = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder()
                        .setTimeUnixNano(1_785_000_000_000_000_000L)
                        .setBody(AnyValue.newBuilder().setStringValue("held"))))).build().toByteArray();
        wal.append(new WalEntry("acme", request)).get(30, TimeUnit.SECONDS);
        wal.close();
        assertEquals(1, sealed.size());
        // What the server's flusher does with a segment it cannot flush: the same class, the same move.
        new SegmentQuarantine(walDir).moveIn(sealed.get(0).segment(),
                new java.nio.file.FileSystemException("x", null, "Not a directory"));

        var list = CliProcess.run(dir, "wal", "quarantine", "list", "--wal-dir", walDir.toString());
        assertEquals(0, list.exit(), list.err());
        String name = sealed.get(0).segment().path().getFileName().toString();
        assertTrue(list.out().startsWith(name + "  "), list.out());
        assertTrue(list.out().contains("Not a directory"), list.out());

        String store = dir.resolve("store").toString();
        Files.createDirectories(Path.of(store));
        var replay = CliProcess.run(dir, "wal", "quarantine", "replay", "--wal-dir", walDir.toString(),
                "--store", store);
        assertEquals(0, replay.exit(), replay.out() + replay.err());
        assertTrue(replay.out().contains("replayed " + name + ": 1 file(s) published"), replay.out());
        var count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals(0, count.exit(), count.err());
        assertTrue(count.out().strip().startsWith("1"), count.out());
        var empty = CliProcess.run(dir, "wal", "quarantine", "list", "--wal-dir", walDir.toString());
        assertEquals("", empty.out());
    }
}
