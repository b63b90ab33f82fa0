package dev.ourios.store.s3;

import dev.ourios.store.ObjectStore;
import dev.ourios.store.ObjectStoreContractTest;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The store contract against a real S3 API (s3proxy); each test gets a fresh prefix in one bucket. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ObjectStoreContractTest extends ObjectStoreContractTest {
    private static final String BUCKET = "contract";

    private S3ProxyServer server;
    private final AtomicInteger nextPrefix = new AtomicInteger();

    @BeforeAll
    void startServer() throws IOException {
        server = S3ProxyServer.start();
        server.createBucket(BUCKET);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected ObjectStore newStore() {
        return new S3ObjectStore(server.config(BUCKET, "tables/t" + nextPrefix.incrementAndGet()));
    }
}
