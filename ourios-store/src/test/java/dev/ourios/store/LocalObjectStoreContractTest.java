package dev.ourios.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on a local directory. */
class LocalObjectStoreContractTest extends ObjectStoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected ObjectStore newStore() {
        return new LocalObjectStore(dir);
    }
}
