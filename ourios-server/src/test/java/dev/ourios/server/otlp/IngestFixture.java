package dev.ourios.server.otlp;

import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.core.LogRecord;
import dev.ourios.server.otlp.OtlpHttpReceiver;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A receiver in this JVM on a free port, over a local store, with a query engine to read back what landed. */
final class IngestFixture implements AutoCloseable {
    final ObjectStore store;
    final Ingester ingester;
    final OtlpHttpReceiver receiver;
    final InetSocketAddress address;
    final QueryEngine engine;

    IngestFixture(Path root, IngestSettings settings, MeterProvider meters) throws IOException {
        store = new LocalObjectStore(root.resolve("store"));
        ingester = Ingester.open(settings, store, new IngestMetrics(meters));
        receiver = new OtlpHttpReceiver(ingester);
        address = receiver.start();
        engine = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()), meters);
    }

    static IngestSettings settings(Path root) {
        return IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), root.resolve("wal"))
                .withFlush(16L << 20, Duration.ofMillis(200));
    }

    String endpoint() {
        return "http://127.0.0.1:" + address.getPort() + "/v1/logs";
    }

    List<LogRecord> rows(String tenant) {
        try {
            return engine.collect(Query.tenant(tenant)).rows();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long count(String tenant) {
        try {
            return engine.count(Query.tenant(tenant)).rows();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws Exception {
        receiver.stop(Duration.ofSeconds(5));
        ingester.drain(Duration.ofSeconds(30));
        store.close();
    }
}
