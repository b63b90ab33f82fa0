package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store decorator handed to {@link Main#run(java.util.function.UnaryOperator, String...)} wraps the store a real
 * command opens, and the command works through the wrapper; a store refused at opening is never decorated.
 */
class StoreDecoratorCliTest {
    @TempDir
    Path dir;

    /** Records the directory listings a command makes through it. */
    private static final class Recording extends ForwardingObjectStore {
        final List<String> listed = new CopyOnWriteArrayList<>();

        Recording(ObjectStore delegate) {
            super(delegate);
        }

        @Override
        public List<String> listDirectories(String dirPrefix) throws IOException {
            listed.add(dirPrefix);
            return super.listDirectories(dirPrefix);
        }
    }

    @Test
    void the_command_reads_its_store_through_the_decorator() throws IOException {
        Path store = dir.resolve("store");
        new LocalObjectStore(store).put("tenant_id=acme/.keep", new byte[0]);
        List<Recording> wrapped = new CopyOnWriteArrayList<>();
        int exit = Main.run(s -> {
            Recording r = new Recording(s);
            wrapped.add(r);
            return r;
        }, "gc", "--store", store.toString(), "--dry-run");
        assertEquals(0, exit);
        assertEquals(1, wrapped.size(), "one store opened, one wrapped");
        assertFalse(wrapped.get(0).listed.isEmpty(), "gc listed the store through the wrapper");
    }

    @Test
    void a_store_refused_at_opening_is_not_decorated() {
        List<ObjectStore> wrapped = new CopyOnWriteArrayList<>();
        int exit = Main.run(s -> {
            wrapped.add(s);
            return s;
        }, "gc", "--store", dir.resolve("missing").toString());
        assertEquals(2, exit);
        assertTrue(wrapped.isEmpty());
    }
}
