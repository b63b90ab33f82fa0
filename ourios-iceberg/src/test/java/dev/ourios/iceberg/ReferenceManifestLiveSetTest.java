package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestException;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The view's live set of a partition holding the reference implementation's {@code manifest.json} (STORAGE.md
 * §3.6) is exactly the files it names, as for every other reader; a malformed one stops the sync rather than
 * publish a wrong table.
 */
class ReferenceManifestLiveSetTest {
    private static final PartitionKey P = PartitionKey.ofHour("acme", Instant.parse("2026-01-01T10:00:00Z"));
    private static final String NAMED_1 = "01a232d1-d039-7b38-9353-878bfb9a8ed0.parquet";
    private static final String NAMED_2 = "01a232d1-d039-7b38-9353-878bfb9a8ed1.parquet";
    private static final String ORPHAN = "01a232d1-d039-7b38-9353-878bfb9a8ed2.parquet";

    @TempDir
    Path root;

    private StoreLiveSet liveSet(LocalObjectStore store) {
        return new StoreLiveSet(new TableLayout(store), new TableReader(store, new ManifestCodec()));
    }

    private static void put(LocalObjectStore store, String name, String content) throws Exception {
        store.put(P.dataPrefix() + name, content.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theViewSeesExactlyTheFilesTheReferenceManifestNames() throws Exception {
        LocalObjectStore store = new LocalObjectStore(root);
        for (String f : List.of(NAMED_1, NAMED_2, ORPHAN)) {
            put(store, f, "bytes of " + f);
        }
        put(store, "manifest.json", "{\"generation\":4,\"files\":[\"" + NAMED_2 + "\",\"" + NAMED_1 + "\"]}");
        assertEquals(List.of(P.dataPrefix() + NAMED_1, P.dataPrefix() + NAMED_2),
                List.copyOf(liveSet(store).files().keySet()));
    }

    @Test
    void aMalformedReferenceManifestStopsTheSyncNamingIt() throws Exception {
        LocalObjectStore store = new LocalObjectStore(root);
        put(store, NAMED_1, "bytes");
        put(store, "manifest.json", "{\"generation\":4}");
        ManifestException e = assertThrows(ManifestException.class, () -> liveSet(store).files());
        assertEquals(P.dataPrefix() + "manifest.json", e.manifestKey());
    }
}
