package dev.ourios.server.otlp;

import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;

/** Opens an {@link IngestFixture} for tests in other packages. */
public final class IngestFixtureAccess {
    private IngestFixtureAccess() {
    }

    public static Handle open(Path root) throws IOException {
        return new Handle(new IngestFixture(root, IngestFixture.settings(root), MeterProvider.noop()));
    }

    public static IngestSettings settings(Path root) {
        return IngestFixture.settings(root);
    }

    public static Handle open(Path root, IngestSettings settings) throws IOException {
        return new Handle(new IngestFixture(root, settings, MeterProvider.noop()));
    }

    /** The fixture's test-facing surface. */
    public record Handle(IngestFixture fixture) implements AutoCloseable {
        public String endpoint() {
            return fixture.endpoint();
        }

        public long count(String tenant) {
            return fixture.count(tenant);
        }

        public java.util.List<dev.ourios.core.LogRecord> rows(String tenant) {
            return fixture.rows(tenant);
        }

        public java.net.InetSocketAddress address() {
            return fixture.address;
        }

        public Ingester ingester() {
            return fixture.ingester;
        }

        public dev.ourios.store.ObjectStore store() {
            return fixture.store;
        }

        @Override
        public void close() throws Exception {
            fixture.close();
        }
    }
}
