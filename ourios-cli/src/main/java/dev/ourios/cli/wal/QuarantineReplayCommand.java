package dev.ourios.cli.wal;

import dev.ourios.cli.Output;
import dev.ourios.cli.StoreOptions;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.flush.SegmentFlusher;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.quarantine.QuarantineReplay;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ourios wal quarantine replay}: flushes every quarantined segment into the store, as the server's flusher
 * would, and deletes each one whose records are published. Idempotent: a replay repeated lands no row twice. Exit 0
 * when every segment was replayed, 1 when one still fails (it stays quarantined, its line says why).
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Flush the quarantined WAL segments into the store (once their cause is fixed)")
public final class QuarantineReplayCommand implements Callable<Integer> {
    @Mixin
    WalDirOption wal;

    @Mixin
    StoreOptions store;

    @Override
    public Integer call() throws Exception {
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            SegmentFlusher flusher = new SegmentFlusher(new IngestWriter(s), new TableReader(s, new ManifestCodec()),
                    new OtlpLogsDecoder(), new IngestMetrics(MeterProvider.noop()));
            List<QuarantineReplay.Outcome> outcomes = new QuarantineReplay(wal.quarantine(), flusher).replayAll();
            int failed = 0;
            for (QuarantineReplay.Outcome o : outcomes) {
                String name = o.entry().segment().path().getFileName().toString();
                if (o.replayed()) {
                    out.out().println("replayed " + name + ": " + o.files() + " file(s) published");
                } else {
                    failed++;
                    out.out().println("still quarantined " + name + ": " + o.error());
                }
            }
            out.err().println((outcomes.size() - failed) + " segment(s) replayed, " + failed + " still quarantined");
            return failed == 0 ? 0 : 1;
        }
    }
}
