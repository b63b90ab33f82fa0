package dev.ourios.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract through a throttled view whose buckets are far above what the tests move. */
class ThrottledObjectStoreContractTest extends ObjectStoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected ObjectStore newStore() {
        return IoThrottle.of(new IoRates(1L << 40, 1L << 40)).view(new LocalObjectStore(dir));
    }
}
