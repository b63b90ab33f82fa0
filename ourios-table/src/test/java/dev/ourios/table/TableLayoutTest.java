package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableLayoutTest {
    @TempDir
    Path root;
    TestPartitions t;
    RecordingStore store;
    TableLayout layout;

    @BeforeEach
    void setUp() {
        t = new TestPartitions(root, 5);
        store = new RecordingStore(t.store);
        layout = new TableLayout(store);
    }

    private PartitionKey add(String tenant, int y, int m, int d, int h) {
        PartitionKey p = new PartitionKey(tenant, y, m, d, h);
        t.put(p, t.ingestName(), Instant.EPOCH);
        return p;
    }

    private void mkdir(String rel) throws IOException {
        Files.createDirectories(root.resolve(rel));
    }

    @Test
    void tenantsAreSegmentWiseCanonicalAndSortedById() throws Exception {
        PartitionKey a = add("a", 2026, 11, 29, 10);
        PartitionKey ab = add("ab", 2026, 11, 29, 10);
        PartitionKey spaced = add("team b/ü", 2026, 11, 29, 10);
        PartitionKey upper = add("Z", 2026, 11, 29, 10);
        mkdir("data/tenant_id=a%2f/year=2026"); // lower-case hex: not canonical
        mkdir("data/tenant_id=%41/year=2026"); // escaped unreserved byte: not canonical
        mkdir("data/tenant_id=/year=2026");
        mkdir("data/customer=a/year=2026");
        assertEquals(List.of("Z", "a", "ab", "team b/ü"), layout.tenants());
        assertEquals(List.of(upper, a, ab, spaced), layout.partitions(PartitionFilter.all()));
        assertEquals(List.of(a), layout.partitions(PartitionFilter.all().withTenants(Set.of("a"))));
        assertEquals(List.of(), layout.partitions(PartitionFilter.all().withTenants(Set.of("nobody"))));
    }

    @Test
    void nonCanonicalCalendarDirectoriesAreIgnored() throws Exception {
        PartitionKey good = add("t", 2026, 4, 9, 7);
        for (String bad : List.of("year=26", "year=2026/month=4", "year=2026/month=13", "year=2026/month=04/day=9",
                "year=2026/month=04/day=31", "year=2026/month=04/day=09/hour=7", "year=2026/month=04/day=09/hour=24",
                "year=2026/month=04/day=09/hour=07x", "year=2026/month=04/day=09/minute=07")) {
            mkdir("data/tenant_id=t/" + bad);
            Files.writeString(Files.createDirectories(root.resolve("data/tenant_id=t/" + bad)).resolve("x.parquet"), "x");
        }
        assertEquals(List.of(good), layout.partitions(PartitionFilter.all()));
    }

    @Test
    void timeWindowSelectsOverlappingHoursAndPrunesWithoutListingBelow() throws Exception {
        add("t", 2025, 12, 31, 23);
        PartitionKey h10 = add("t", 2026, 11, 29, 10);
        PartitionKey h11 = add("t", 2026, 11, 29, 11);
        add("t", 2026, 11, 29, 12);
        add("t", 2026, 10, 29, 11);
        add("t", 2027, 1, 1, 0);
        PartitionFilter window = PartitionFilter.all().withWindow(Instant.parse("2026-11-29T10:30:00Z"),
                Instant.parse("2026-11-29T12:00:00Z"));
        store.listed.clear();
        assertEquals(List.of(h10, h11), layout.partitions(window));
        for (String prefix : store.listed) {
            assertFalse(prefix.contains("year=2025/") || prefix.contains("year=2027/")
                    || prefix.contains("month=10/"), "listed below a pruned directory: " + prefix);
        }
        assertThrows(IllegalArgumentException.class,
                () -> PartitionFilter.all().withWindow(Instant.EPOCH, Instant.EPOCH));
    }

    /** A real store that records which directories were listed. */
    static final class RecordingStore extends ForwardingObjectStore {
        final List<String> listed = new ArrayList<>();

        RecordingStore(LocalObjectStore delegate) {
            super(delegate);
        }

        @Override
        public List<String> listDirectories(String dirPrefix) throws IOException {
            listed.add(dirPrefix);
            return delegate.listDirectories(dirPrefix);
        }

        @Override
        public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
            listed.add(dirPrefix);
            return delegate.listObjects(dirPrefix);
        }
    }
}
