package dev.ourios.ingest.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Uuid7;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalListener;
import dev.ourios.ingest.wal.WriteAheadLog;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replayed flush lands nothing twice: flushing the same sealed segment again (what recovery does after a crash
 * between publishing and deleting the segment) computes the same names and every create-only publish is a no-op.
 */
class SegmentFlusherTest {
    private static final long HOUR = 3_600_000_000_000L;
    private static final long T0 = 1_785_000_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void flushing_a_segment_twice_lands_each_partition_once() throws Exception {
        List<SealedSegment> sealed = new CopyOnWriteArrayList<>();
        WriteAheadLog wal = WriteAheadLog.open(dir.resolve("wal"), 1L << 30, Duration.ofHours(1), Uuid7.system(),
                sealed::add, WalListener.NONE);
        for (int i = 0; i < 30; i++) {
            LogRecord r = LogRecord.newBuilder().setTimeUnixNano(T0 + (i % 3) * HOUR + i)
                    .setBody(AnyValue.newBuilder().setStringValue("r" + i)).build();
            ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs
                    .newBuilder().addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build();
            wal.append(new WalEntry(i % 2 == 0 ? "a" : "b", req.toByteArray())).get(30, TimeUnit.SECONDS);
        }
        wal.close();
        assertEquals(1, sealed.size());

        try (LocalObjectStore store = new LocalObjectStore(dir.resolve("store"))) {
            SegmentFlusher flusher = new SegmentFlusher(new IngestWriter(store),
                    new TableReader(store, new ManifestCodec()), new OtlpLogsDecoder(), FlushListener.NONE);
            var first = flusher.flush(sealed.get(0), false);
            assertEquals(6, first.size(), "2 tenants x 3 hours");
            var again = flusher.flush(sealed.get(0), false);
            assertTrue(again.isEmpty(), "every file already there: " + again);
            QueryEngine q = new QueryEngine(store, new TableLayout(store), new TableReader(store,
                    new ManifestCodec()), MeterProvider.noop());
            assertEquals(15, q.count(Query.tenant("a")).rows());
            assertEquals(15, q.count(Query.tenant("b")).rows());
        }
    }
}
