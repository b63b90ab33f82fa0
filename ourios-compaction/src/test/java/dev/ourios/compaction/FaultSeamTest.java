package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.FaultSeam.CrashPoint;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seam arms nothing unless asked, and a mistyped crash label fails loudly. (Reaching an armed point halts the
 * JVM, so that part is proven in child processes by {@link Rfc0009CrashTest}.)
 */
class FaultSeamTest {
    @TempDir
    Path dir;

    @Test
    void unset_or_empty_property_injects_nothing() {
        assertSame(FaultSeam.NONE, FaultSeam.forLabel(null));
        assertSame(FaultSeam.NONE, FaultSeam.forLabel(""));
        assertTrue(FaultSeam.NONE.rowFault().isEmpty());
        for (CrashPoint p : CrashPoint.values()) {
            FaultSeam.NONE.reach(p); // would halt if armed
        }
    }

    @Test
    void a_label_that_names_no_point_fails_and_lists_the_known_ones() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FaultSeam.forLabel("mid-rewite"));
        for (CrashPoint p : CrashPoint.values()) {
            assertTrue(e.getMessage().contains(p.label()), e.getMessage());
        }
        assertTrue(e.getMessage().contains(FaultSeam.CRASH_PROPERTY), e.getMessage());
    }

    @Test
    void only_mid_gc_wraps_the_store_gc_deletes_through() {
        LocalObjectStore store = new LocalObjectStore(dir);
        for (CrashPoint p : CrashPoint.values()) {
            FaultSeam seam = FaultSeam.forLabel(p.label());
            if (p == CrashPoint.MID_GC) {
                assertNotSame(store, seam.gcStore(store));
            } else {
                assertSame(store, seam.gcStore(store), p.label());
            }
        }
        assertSame(store, FaultSeam.NONE.gcStore(store));
    }

    @Test
    void a_row_fault_is_carried_and_arms_no_crash_point() {
        FaultSeam seam = FaultSeam.altering((i, r) -> List.of());
        assertTrue(seam.rowFault().isPresent());
        LocalObjectStore store = new LocalObjectStore(dir);
        assertSame(store, seam.gcStore(store));
    }
}
