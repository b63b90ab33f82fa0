package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.TenantCodec;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.AtomicOutput;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenant isolation, as a property over random hostile tenant ids ({@code /}, {@code ..}, {@code %}, NUL, emoji,
 * look-alike encodings, prefixes of one another): ingest, a tenant-scoped sweep, GC, query and the live-file listing
 * of one tenant touch (list, read, write, delete) only keys under that tenant's {@code data/tenant_id=<enc>/} and
 * {@code audit/tenant_id=<enc>/}; every file on disk lies under the store root in a canonically encoded tenant
 * directory; and a tenant's query returns exactly its own rows.
 */
class TenantIsolationPropertyTest {
    private static final String[] PIECES = {"/", "..", ".", "%", "%2F", "%41", "%%", "\u0000", "\uD83D\uDE00", "a",
        "A", "-", "_", "~", " ", "\\", "\u00E9", "\n", "tenant_id=", "data", "audit", "year=2026", "*", "?", ":"};

    @TempDir
    Path dir;

    @Test
    void no_command_reads_or_writes_outside_its_tenant_prefix_whatever_the_tenant_id() throws Exception {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        int trials = Integer.getInteger("ourios.isolation.trials", 3);
        System.out.println("tenant isolation: seed " + seed + ", " + trials + " trials");
        Random rnd = new Random(seed);
        for (int trial = 0; trial < trials; trial++) {
            List<String> tenants = hostileTenants(rnd, 5);
            // A tenant that is a prefix of another: segment-wise listings must keep them apart.
            tenants.add(tenants.get(0) + "x");
            String ctx = "seed " + seed + " trial " + trial + " tenants " + printable(tenants);
            runTrial(dir.resolve("t" + trial), tenants, rnd.nextLong(), ctx);
        }
    }

    private void runTrial(Path root, List<String> tenants, long seed, String ctx) throws Exception {
        LocalObjectStore real = new LocalObjectStore(root.resolve("store"));
        GeneratorSpec spec = TestStores.spec(tenants, 2, 2, 20, seed);
        LogGenerator gen = new LogGenerator(spec);
        for (String t : tenants) {
            String enc = TenantCodec.encode(t);
            Set<String> allowed = Set.of(PartitionKey.DATA_ROOT + "tenant_id=" + enc + "/",
                    PartitionKey.AUDIT_ROOT + "tenant_id=" + enc + "/");
            KeyRecordingStore store = new KeyRecordingStore(real);
            IngestWriter w = new IngestWriter(store);
            for (int h = 0; h < spec.hours(); h++) {
                for (int f = 0; f < spec.filesPerHour(); f++) {
                    w.writeFile(gen.partition(t, h), gen.file(t, h, f));
                }
            }
            PartitionFilter only = PartitionFilter.all().withTenants(Set.of(t));
            SweepReport report = TestStores.runner(store, root.resolve("scratch")).sweep(only, r -> { });
            assertEquals(spec.hours(), report.count(PartitionResult.Result.COMMITTED), ctx + ": " + report);
            TableReader reader = new TableReader(store, new ManifestCodec());
            new GarbageCollector(store, new TableLayout(store), reader, new GcOptions(Duration.ZERO, false),
                    Clock.offset(Clock.systemUTC(), Duration.ofHours(1))).run(only);
            List<LogRecord> rows = new QueryEngine(store, new TableLayout(store), reader, MeterProvider.noop())
                    .collect(Query.tenant(t)).rows();
            assertEquals(spec.hours() * spec.filesPerHour() * spec.rowsPerFile(), rows.size(), ctx);
            assertTrue(rows.stream().allMatch(r -> r.tenantId().equals(t)), ctx + ": another tenant's row for " + t);
            List<LiveFiles.LiveFile> live = new LiveFiles(store, new TableLayout(store), reader)
                    .list(t, Optional.empty(), Optional.empty());
            assertEquals(spec.hours(), live.size(), ctx);
            for (String key : store.keys()) {
                assertTrue(allowed.stream().anyMatch(key::startsWith), ctx + ": work on tenant "
                        + printable(List.of(t)) + " touched '" + printable(List.of(key)) + "'");
            }
        }
        // Every file on disk is inside the root, in a canonical tenant directory of a tenant we wrote.
        Path storeRoot = real.root().toRealPath();
        try (Stream<Path> s = Files.walk(storeRoot)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                assertTrue(f.toRealPath().startsWith(storeRoot), ctx + ": " + f + " escapes the root");
                Path rel = storeRoot.relativize(f);
                String top = rel.getName(0).toString();
                String seg = rel.getName(1).toString();
                assertTrue(top.equals("data") || top.equals("audit"), ctx + ": " + rel);
                assertTrue(seg.startsWith("tenant_id="), ctx + ": " + rel);
                Optional<String> decoded = TenantCodec.decode(seg.substring("tenant_id=".length()));
                assertTrue(decoded.isPresent() && tenants.contains(decoded.get()), ctx + ": " + rel);
            }
        }
        assertEquals(new LinkedHashSet<>(tenants).stream().sorted().toList(), new TableLayout(real).tenants(), ctx);
    }

    private static List<String> hostileTenants(Random rnd, int n) {
        Set<String> out = new LinkedHashSet<>();
        while (out.size() < n) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
                sb.append(PIECES[rnd.nextInt(PIECES.length)]);
            }
            out.add(sb.toString());
        }
        return new ArrayList<>(out);
    }

    private static String printable(List<String> s) {
        return s.stream().map(x -> x.replace("\u0000", "\\0").replace("\n", "\\n")).toList().toString();
    }

    /** Passes everything through to the real store and records every key or prefix it was asked about. */
    static final class KeyRecordingStore implements ObjectStore {
        private final ObjectStore delegate;
        private final Set<String> keys = Collections.synchronizedSet(new LinkedHashSet<>());

        KeyRecordingStore(ObjectStore delegate) {
            this.delegate = delegate;
        }

        List<String> keys() {
            synchronized (keys) {
                return List.copyOf(keys);
            }
        }

        @Override
        public List<String> listDirectories(String dirPrefix) throws IOException {
            keys.add(dirPrefix);
            return delegate.listDirectories(dirPrefix);
        }

        @Override
        public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
            keys.add(dirPrefix);
            return delegate.listObjects(dirPrefix);
        }

        @Override
        public Optional<ObjectInfo> stat(String key) throws IOException {
            keys.add(key);
            return delegate.stat(key);
        }

        @Override
        public RandomAccessInput openRandomAccess(String key) throws IOException {
            keys.add(key);
            return delegate.openRandomAccess(key);
        }

        @Override
        public InputStream openStream(String key) throws IOException {
            keys.add(key);
            return delegate.openStream(key);
        }

        @Override
        public byte[] readAllBytes(String key) throws IOException {
            keys.add(key);
            return delegate.readAllBytes(key);
        }

        @Override
        public AtomicOutput create(String key) throws IOException {
            keys.add(key);
            return delegate.create(key);
        }

        @Override
        public boolean putIfAbsent(String key, byte[] content) throws IOException {
            keys.add(key);
            return delegate.putIfAbsent(key, content);
        }

        @Override
        public void delete(String key) throws IOException {
            keys.add(key);
            delegate.delete(key);
        }

        @Override
        public String describe(String key) {
            return delegate.describe(key);
        }
    }
}
