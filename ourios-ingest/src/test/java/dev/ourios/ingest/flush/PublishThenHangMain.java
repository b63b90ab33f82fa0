package dev.ourios.ingest.flush;

import dev.ourios.core.Uuid7;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalListener;
import dev.ourios.ingest.wal.WriteAheadLog;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The child of {@link ReplayAfterCollectionTest}: lands two WAL segments into a store the way the ingester does,
 * the first flushed and deleted, the second flushed but not deleted, then prints {@code PUBLISHED} and blocks until
 * it is killed. Its state at that line is the ingester's between publishing a flush and deleting the segment.
 *
 * <p>Arguments: WAL directory, store directory, first hour (epoch ms), records per segment. Each segment holds
 * records {@code <segment>-<i>} spread over two hours.
 */
public final class PublishThenHangMain {
    private static final long HOUR_NANOS = 3_600_000_000_000L;

    private PublishThenHangMain() {
    }

    public static void main(String[] args) throws Exception {
        Path walDir = Path.of(args[0]);
        long hourNanos = Long.parseLong(args[2]) * 1_000_000L;
        int perSegment = Integer.parseInt(args[3]);
        try (LocalObjectStore store = new LocalObjectStore(Path.of(args[1]))) {
            SegmentFlusher flusher = new SegmentFlusher(new IngestWriter(store),
                    new TableReader(store, new ManifestCodec()), new OtlpLogsDecoder(), FlushListener.NONE);
            for (String name : List.of("s1", "s2")) {
                List<SealedSegment> sealed = new CopyOnWriteArrayList<>();
                WriteAheadLog wal = WriteAheadLog.open(walDir, 1L << 30, Duration.ofHours(1), Uuid7.system(),
                        sealed::add, WalListener.NONE);
                for (int i = 0; i < perSegment; i++) {
                    LogRecord r = LogRecord.newBuilder().setTimeUnixNano(hourNanos + (i % 2) * HOUR_NANOS + i)
                            .setBody(AnyValue.newBuilder().setStringValue(name + "-" + i)).build();
                    ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(
                            ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build();
                    wal.append(new WalEntry(ReplayAfterCollectionTest.TENANT, req.toByteArray()))
                            .get(30, TimeUnit.SECONDS);
                }
                wal.close();
                SealedSegment s = sealed.get(sealed.size() - 1);
                flusher.flush(s, false);
                if (name.equals("s1")) {
                    Files.delete(s.segment().path());
                } else {
                    System.out.println("PUBLISHED " + s.segment().path().getFileName());
                    System.out.flush();
                }
            }
        }
        new CountDownLatch(1).await(); // killed here, between the publish and the segment's deletion
    }
}
