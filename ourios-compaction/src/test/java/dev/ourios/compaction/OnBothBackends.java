package dev.ourios.compaction;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class whose scenarios run on local disk and on a real S3 API: one s3proxy for the whole class, started
 * before its first test and stopped after its last; {@link #backends()} is the parameter source of both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OnBothBackends {
    /** The class's scratch directory (the local backend's stores live under it). */
    protected Path dir;
    protected StoreBackend.S3 s3;
    protected StoreBackend.Local local;

    @BeforeAll
    void startBackends(@TempDir Path root) throws Exception {
        dir = root;
        s3 = StoreBackend.S3.start();
        local = new StoreBackend.Local(dir.resolve("local"));
    }

    @AfterAll
    void stopBackends() {
        if (s3 != null) {
            s3.shutdown();
        }
    }

    Stream<StoreBackend> backends() {
        return Stream.of(local, s3);
    }
}
