package dev.ourios.bench.ingest;

import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.server.otlp.OtlpHttpReceiver;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code serve} runs for OTLP/HTTP, with its default settings: the receiver on a free loopback port, the
 * ingester's WAL (fsynced group commit) under {@code root/wal} and its flush into a local store under
 * {@code root/store}.
 */
public final class Receiver implements AutoCloseable {
    private final LocalObjectStore store;
    private final Ingester ingester;
    private final OtlpHttpReceiver receiver;
    private final URI endpoint;
    private boolean drained;

    private Receiver(LocalObjectStore store, Ingester ingester, OtlpHttpReceiver receiver, URI endpoint) {
        this.store = store;
        this.ingester = ingester;
        this.receiver = receiver;
        this.endpoint = endpoint;
    }

    /** Opens on {@code root/store}; a suite may put files there first (a partition to compact). */
    public static Receiver open(Path root) throws IOException {
        LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
        IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), root.resolve("wal"));
        Ingester ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()));
        OtlpHttpReceiver receiver = new OtlpHttpReceiver(ingester);
        InetSocketAddress at = receiver.start();
        return new Receiver(store, ingester, receiver, URI.create("http://127.0.0.1:" + at.getPort() + "/v1/logs"));
    }

    public URI endpoint() {
        return endpoint;
    }

    public LocalObjectStore store() {
        return store;
    }

    public long walSyncs() {
        return ingester.walSyncs();
    }

    /** Stops as SIGTERM does (answer what was accepted, flush every WAL record); the seconds that took. */
    public double drain() throws InterruptedException, IOException {
        long t0 = System.nanoTime();
        receiver.stop(Duration.ofSeconds(5));
        drained = true;
        if (!ingester.drain(Duration.ofMinutes(5))) {
            throw new IOException("the ingester did not flush every WAL record within 5 minutes");
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Rows of {@code tenant} in published files: every acknowledged record, once, after {@link #drain}. */
    public long rows(String tenant) throws IOException {
        QueryEngine engine = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
        return engine.count(Query.tenant(tenant)).rows();
    }

    @Override
    public void close() throws Exception {
        if (!drained) {
            drain();
        }
        store.close();
    }
}
