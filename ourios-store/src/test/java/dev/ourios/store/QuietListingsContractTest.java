package dev.ourios.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract through kept listings (directories the contract changes are listed again: they are busy). */
class QuietListingsContractTest extends ObjectStoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected ObjectStore newStore() {
        return QuietListings.over(new LocalObjectStore(dir));
    }
}
