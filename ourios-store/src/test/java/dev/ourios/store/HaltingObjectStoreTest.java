package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.FileNames;
import dev.ourios.store.HaltingObjectStore.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each step halts at the store call that completes it and at no other. The halt here throws {@link Halted} instead
 * of ending the JVM, so the test sees where it came and what the delegate holds at that moment (the real halt is
 * proven in child processes by the compaction's crash tests).
 */
class HaltingObjectStoreTest {
    private static final String OUTPUT = "tenant_id=a/dt=2026-11-01/hour=10/0190aaaa-0000-7000-8000-000000000000"
            + FileNames.COMPACTED;
    private static final String INGESTED = "tenant_id=a/dt=2026-11-01/hour=10/0190aaaa-0000-7000-8000-000000000001"
            + FileNames.PARQUET;
    private static final String MANIFEST = "tenant_id=a/dt=2026-11-01/hour=10/" + FileNames.manifestName(1);

    @TempDir
    Path dir;

    /** Thrown where the real wrapper halts the process. */
    private static final class Halted extends RuntimeException {
        Halted() {
            super("halted");
        }
    }

    private HaltingObjectStore at(Step step) {
        return new HaltingObjectStore(new LocalObjectStore(dir), step, () -> {
            throw new Halted();
        });
    }

    @Test
    void a_label_names_its_step_and_a_typo_fails_listing_the_known_ones() {
        for (Step s : Step.values()) {
            assertEquals(s, Step.of(s.label()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Step.of("mid-rewite"));
        for (Step s : Step.values()) {
            assertTrue(e.getMessage().contains(s.label()), e.getMessage());
        }
    }

    @Test
    void mid_rewrite_halts_part_way_through_a_compacted_output_with_its_bytes_in_the_temp_file() throws IOException {
        HaltingObjectStore store = at(Step.MID_REWRITE);
        AtomicOutput out = store.create(OUTPUT);
        out.write(new byte[1024]);
        byte[] chunk = new byte[1024];
        long written = 1024;
        boolean halted = false;
        while (!halted && written < 4 * HaltingObjectStore.MID_REWRITE_BYTES) {
            try {
                out.write(chunk);
                written += chunk.length;
            } catch (Halted h) {
                halted = true;
                written += chunk.length;
            }
        }
        assertTrue(halted, "halted within the output");
        assertTrue(written >= HaltingObjectStore.MID_REWRITE_BYTES && written < 2 * HaltingObjectStore.MID_REWRITE_BYTES,
                "at the threshold: " + written);
        assertEquals(List.of(written), tempSizes(), "what was written is flushed to the temp file");
        assertFalse(Files.exists(dir.resolve(OUTPUT)), "nothing published");
    }

    @Test
    void mid_rewrite_halts_a_small_output_at_its_publish_and_ignores_other_files() throws IOException {
        HaltingObjectStore store = at(Step.MID_REWRITE);
        store.put(INGESTED, "ingested".getBytes(StandardCharsets.UTF_8)); // not an output: no halt
        AtomicOutput out = store.create(OUTPUT);
        out.write("PAR1".getBytes(StandardCharsets.UTF_8));
        assertThrows(Halted.class, out::commit);
        assertEquals(List.of(4L), tempSizes());
        assertFalse(Files.exists(dir.resolve(OUTPUT)));
        assertTrue(Files.exists(dir.resolve(INGESTED)));
    }

    @Test
    void after_output_published_halts_once_the_output_is_published() throws IOException {
        HaltingObjectStore store = at(Step.AFTER_OUTPUT_PUBLISHED);
        store.put(INGESTED, new byte[64 << 10]);
        AtomicOutput out = store.create(OUTPUT);
        out.write(new byte[4 * (int) HaltingObjectStore.MID_REWRITE_BYTES]); // no mid-rewrite halt
        assertThrows(Halted.class, out::commit);
        assertEquals(4 * HaltingObjectStore.MID_REWRITE_BYTES, Files.size(dir.resolve(OUTPUT)));
        assertEquals(List.of(), tempSizes());
    }

    @Test
    void after_commit_halts_once_a_manifest_is_created_and_not_when_the_create_lost() throws IOException {
        HaltingObjectStore store = at(Step.AFTER_COMMIT);
        assertTrue(store.putIfAbsent(INGESTED, new byte[1]), "not a manifest: no halt");
        store.put(OUTPUT, new byte[1]);
        assertThrows(Halted.class, () -> store.putIfAbsent(MANIFEST, new byte[] {'{', '}'}));
        assertTrue(Files.exists(dir.resolve(MANIFEST)), "the commit happened before the halt");
        assertFalse(store.putIfAbsent(MANIFEST, new byte[] {'{', '}'}), "a lost create commits nothing: no halt");
    }

    @Test
    void mid_gc_halts_after_the_first_delete_and_only_there() throws IOException {
        HaltingObjectStore store = at(Step.MID_GC);
        store.put(INGESTED, new byte[1]);
        store.put(OUTPUT, new byte[1]);
        assertTrue(store.putIfAbsent(MANIFEST, new byte[1]));
        assertThrows(Halted.class, () -> store.delete(INGESTED));
        assertFalse(Files.exists(dir.resolve(INGESTED)), "the delete happened before the halt");
    }

    private List<Long> tempSizes() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> FileNames.isTempFile(p.getFileName().toString())).map(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }
}
