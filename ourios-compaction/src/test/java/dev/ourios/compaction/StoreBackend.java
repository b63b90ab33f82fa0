package dev.ourios.compaction;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a store-level compaction test runs: local disk or a real S3 API (s3proxy child process). Each call of
 * {@link #newStore()} is a fresh, empty store (a new directory, or a new prefix of one bucket).
 */
interface StoreBackend {
    ObjectStore newStore() throws IOException;

    /** Not AutoCloseable on purpose: JUnit closes AutoCloseable arguments after each parameterized test. */
    void shutdown();

    /** Fresh directories under one root. */
    final class Local implements StoreBackend {
        private final Path root;
        private final AtomicInteger next = new AtomicInteger();

        Local(Path root) {
            this.root = root;
        }

        @Override
        public ObjectStore newStore() {
            return new LocalObjectStore(root.resolve("store-" + next.incrementAndGet()));
        }

        @Override
        public void shutdown() {
        }

        @Override
        public String toString() {
            return "local";
        }
    }

    /** Fresh prefixes of one bucket on an s3proxy this backend starts and stops. */
    final class S3 implements StoreBackend {
        static final String BUCKET = "compaction";

        private final S3ProxyServer server;
        private final AtomicInteger next = new AtomicInteger();

        private S3(S3ProxyServer server) {
            this.server = server;
        }

        static S3 start() throws IOException {
            S3ProxyServer server = S3ProxyServer.start();
            server.createBucket(BUCKET);
            return new S3(server);
        }

        @Override
        public S3ObjectStore newStore() {
            return new S3ObjectStore(server.config(BUCKET, "t" + next.incrementAndGet()));
        }

        S3ProxyServer server() {
            return server;
        }

        @Override
        public void shutdown() {
            server.close();
        }

        @Override
        public String toString() {
            return "s3";
        }
    }
}
