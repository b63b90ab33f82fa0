package dev.ourios.table.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestException;
import dev.ourios.table.ManifestKeys;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our writers landing into a partition the reference implementation's {@code manifest.json} rules (STORAGE.md
 * §3.6): the partition is taken over first, so the landed file is live and never collected as an orphan, while the
 * reference orphans stay invisible and are collected.
 */
class ReferencePartitionLandingTest {
    private static final Instant HOUR = Instant.parse("2026-11-29T10:00:00Z");

    @TempDir
    Path dir;

    private record Reference(LocalObjectStore store, PartitionKey p, String named, String orphan, LogGenerator gen) {
    }

    /** A partition of two real files, of which {@code manifest.json} (generation 12) names one. */
    private Reference reference() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), HOUR, 1, 4, 50, 3));
        PartitionKey p = gen.partition("acme", 0);
        IngestWriter w = new IngestWriter(store);
        String named = name(p, w.writeFile(p, gen.file("acme", 0, 0)));
        String orphan = name(p, w.writeFile(p, gen.file("acme", 0, 1)));
        store.put(p.dataPrefix() + ManifestKeys.REFERENCE_NAME,
                ("{\"generation\":12,\"files\":[\"" + named + "\"]}").getBytes(StandardCharsets.UTF_8));
        return new Reference(store, p, named, orphan, gen);
    }

    private static String name(PartitionKey p, IngestWriter.LandedFile f) {
        return f.key().substring(p.dataPrefix().length());
    }

    private static PartitionSnapshot snapshot(Reference r) throws Exception {
        return new TableReader(r.store(), new ManifestCodec()).snapshot(r.p());
    }

    private static void assertLandedLiveAndOrphanCollected(Reference r, String landed) throws Exception {
        PartitionSnapshot s = snapshot(r);
        assertFalse(s.ruledByReference());
        assertEquals(13, s.generation());
        assertEquals(new TreeSet<>(List.of(r.named(), landed)), new TreeSet<>(s.liveNames()));
        assertEquals(List.of(r.orphan()), s.retiredPresent().stream().map(ObjectInfo::name).toList());
        assertTrue(s.manifest().orElseThrow().commitRecord().isEmpty(), "a takeover moves no row");

        GcReport gc = new GarbageCollector(r.store(), new TableLayout(r.store()),
                new TableReader(r.store(), new ManifestCodec()), new GcOptions(GcOptions.DEFAULT_GRACE, false),
                Clock.offset(Clock.systemUTC(), Duration.ofHours(1))).run(PartitionFilter.all());
        assertEquals(List.of(), gc.errors());
        Set<String> left = new TreeSet<>(r.store().listObjects(r.p().dataPrefix()).stream().map(ObjectInfo::name)
                .toList());
        assertEquals(new TreeSet<>(List.of(r.named(), landed, ManifestKeys.key(r.p(), 13)
                .substring(r.p().dataPrefix().length()))), left);
    }

    @Test
    void anIngestFileLandedIntoAReferencePartitionIsLiveAndSurvivesGc() throws Exception {
        Reference r = reference();
        String landed = name(r.p(), new IngestWriter(r.store()).writeFile(r.p(), r.gen().file("acme", 0, 2)));
        assertLandedLiveAndOrphanCollected(r, landed);
    }

    @Test
    void aCreateOnlyIngestFileLandedIntoAReferencePartitionIsLiveAndSurvivesGc() throws Exception {
        Reference r = reference();
        IngestWriter.LandedFile f = new IngestWriter(r.store())
                .writeFileIfAbsent(r.p(), UUID.fromString("01a232d1-d039-7b38-9353-878bfb9a8ed0"),
                        r.gen().file("acme", 0, 2)).orElseThrow();
        assertLandedLiveAndOrphanCollected(r, name(r.p(), f));
    }

    @Test
    void aContentNamedFileLandedIntoAReferencePartitionIsLiveAndSurvivesGc() throws Exception {
        Reference r = reference();
        List<LogRecord> rows = r.gen().file("acme", 0, 2);
        ContentNamedIngestWriter.Landing l = new ContentNamedIngestWriter(r.store()).land(r.p(), rows);
        assertTrue(l.created());
        assertLandedLiveAndOrphanCollected(r, name(r.p(), l.file()));
    }

    @Test
    void nothingIsLandedIntoAPartitionWhoseReferenceManifestIsMalformed() throws Exception {
        Reference r = reference();
        String ref = r.p().dataPrefix() + ManifestKeys.REFERENCE_NAME;
        r.store().put(ref, "{\"generation\":12,\"files\":[\"a.parquet\"],}".getBytes(StandardCharsets.UTF_8));
        ManifestException e = assertThrows(ManifestException.class,
                () -> new IngestWriter(r.store()).writeFile(r.p(), r.gen().file("acme", 0, 2)));
        assertEquals(ref, e.manifestKey());
        assertEquals(3, r.store().listObjects(r.p().dataPrefix()).size(), "nothing was landed");
    }
}
