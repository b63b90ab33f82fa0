package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.P;
import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReferenceTakeover}: every outcome of the takeover a writer makes before landing (STORAGE.md §3.6). */
class ReferenceTakeoverTest {
    private static final String REF = P.dataPrefix() + ManifestKeys.REFERENCE_NAME;

    @TempDir
    Path root;
    TestPartitions t;
    String named;
    String orphan;

    @BeforeEach
    void setUp() throws IOException {
        t = new TestPartitions(root, 11);
        named = t.ingestName();
        orphan = t.ingestName();
        t.put(named);
        t.put(orphan);
        t.store.put(REF, ("{\"generation\":9,\"files\":[\"" + named + "\"]}").getBytes(StandardCharsets.UTF_8));
    }

    private static ReferenceTakeover takeover(ObjectStore store) {
        return new ReferenceTakeover(store, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void withoutManifestJsonNothingIsCommitted() throws Exception {
        t.store.delete(REF);
        assertFalse(takeover(t.store).ensureOurs(P));
        assertEquals(0, t.reader.snapshot(P).generation());
    }

    @Test
    void theTakeoverKeepsTheLiveSetAndRetiresTheOrphans() throws Exception {
        assertTrue(takeover(t.store).ensureOurs(P));
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(10, s.generation());
        assertEquals(List.of(named), names(s.live()));
        assertEquals(List.of(orphan), names(s.retiredPresent()));
        assertFalse(takeover(t.store).ensureOurs(P), "once ours rule, nothing more is committed");
        assertEquals(10, t.reader.snapshot(P).generation());
    }

    @Test
    void aLostRaceIsAsGoodAsAWin() throws Exception {
        // Another writer takes the partition over between our snapshot and our create.
        ObjectStore racing = new ForwardingObjectStore(t.store) {
            private boolean raced;

            @Override
            public boolean putIfAbsent(String key, byte[] content) throws IOException {
                if (!raced && ManifestKeys.generationOf(key) == 10) {
                    raced = true;
                    assertTrue(takeover(t.store).ensureOurs(P));
                }
                return delegate.putIfAbsent(key, content);
            }
        };
        assertFalse(takeover(racing).ensureOurs(P));
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(10, s.generation());
        assertEquals(List.of(named), names(s.live()));
    }

    @Test
    void anUnknownOutcomeIsAnErrorAndNothingIsCommitted() throws Exception {
        ObjectStore failing = new ForwardingObjectStore(t.store) {
            @Override
            public boolean putIfAbsent(String key, byte[] content) throws IOException {
                throw new IOException("connection reset");
            }
        };
        IOException e = assertThrows(IOException.class, () -> takeover(failing).ensureOurs(P));
        assertTrue(e.getMessage().contains("could not take") && e.getMessage().contains("UNKNOWN")
                && e.getMessage().contains("connection reset"), e.getMessage());
        assertTrue(t.reader.snapshot(P).ruledByReference());
    }

    @Test
    void aNamedFileThatIsMissingRefusesTheTakeover() throws Exception {
        t.store.delete(P.dataPrefix() + named);
        MissingFileException e = assertThrows(MissingFileException.class, () -> takeover(t.store).ensureOurs(P));
        assertEquals(REF, e.manifestKey());
        assertEquals(new TreeSet<>(List.of(orphan, ManifestKeys.REFERENCE_NAME)),
                new TreeSet<>(names(t.store.listObjects(P.dataPrefix()))));
    }
}
