package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kept listings against fresh ones over a real directory. A directory is made quiet by setting its modification
 * time into the past, each time to a later instant than the last, as the passing of the quiet period would; a file
 * written in place (its size changed without an entry changing) is how a test sees that a listing was kept.
 */
class QuietListingsTest {
    private static final Duration QUIET = Duration.ofSeconds(5);

    @TempDir
    Path root;

    private LocalObjectStore local;
    private QuietListings store;
    /** Strictly increasing past instants: a directory aged twice never carries the same time twice. */
    private Instant nextAge;

    @BeforeEach
    void open() {
        local = new LocalObjectStore(root);
        store = new QuietListings(local, 1_000, QUIET, Clock.systemUTC());
        nextAge = Instant.now().minus(Duration.ofHours(1));
    }

    @Test
    void aQuietDirectorysListingIsKeptUntilAnEntryChanges() throws IOException {
        local.put("d/a.parquet", new byte[3]);
        age("d");
        assertEquals(List.of(3L), sizes(store.listObjects("d/")));
        writeInPlace("d/a.parquet", 7); // no entry changed: the kept listing still says 3
        assertEquals(List.of(3L), sizes(store.listObjects("d/")));
        assertEquals(List.of(7L), sizes(local.listObjects("d/")));

        local.put("d/b.parquet", new byte[1]); // an entry added: listed again at once
        assertEquals(List.of("d/a.parquet", "d/b.parquet"), keys(store.listObjects("d/")));
        assertEquals(List.of(7L, 1L), sizes(store.listObjects("d/")));
    }

    @Test
    void aRemovedOrRenamedEntryIsSeenAtOnceAfterTheListingWasKept() throws IOException {
        local.put("d/a.parquet", new byte[1]);
        local.put("d/b.parquet", new byte[2]);
        age("d");
        assertEquals(2, store.listObjects("d/").size());
        local.delete("d/a.parquet");
        assertEquals(List.of("d/b.parquet"), keys(store.listObjects("d/")));
        age("d");
        assertEquals(List.of("d/b.parquet"), keys(store.listObjects("d/")));
        Files.move(root.resolve("d/b.parquet"), root.resolve("d/c.parquet"));
        assertEquals(List.of("d/c.parquet"), keys(store.listObjects("d/")));
    }

    @Test
    void aDirectoryChangedWithinTheQuietPeriodIsListedEveryTime() throws IOException {
        local.put("d/a.parquet", new byte[3]); // modified now: not quiet
        assertEquals(List.of(3L), sizes(store.listObjects("d/")));
        writeInPlace("d/a.parquet", 5);
        assertEquals(List.of(5L), sizes(store.listObjects("d/")), "a listing of a busy directory is never kept");
    }

    @Test
    void directoryListingsAreKeptAndRenewedAlike() throws IOException {
        Files.createDirectories(root.resolve("t/hour=01"));
        age("t");
        assertEquals(List.of("hour=01"), store.listDirectories("t/"));
        Files.createDirectories(root.resolve("t/hour=02"));
        assertEquals(List.of("hour=01", "hour=02"), store.listDirectories("t/"));
        Files.delete(root.resolve("t/hour=01"));
        age("t");
        assertEquals(List.of("hour=02"), store.listDirectories("t/"));
        assertEquals(List.of("hour=02"), store.listDirectories("t/"));
    }

    @Test
    void aTreeIsComposedOfKeptListingsAndFindsANewDirectory() throws IOException {
        local.put("day/hour=01/a.parquet", new byte[3]);
        local.put("day/rollup/b.parquet", new byte[4]);
        age("day/hour=01");
        age("day/rollup");
        age("day");
        assertEquals(local.listTree("day/"), store.listTree("day/"));
        writeInPlace("day/rollup/b.parquet", 9); // kept: the tree still says 4
        assertEquals(List.of(3L, 4L), sizes(store.listTree("day/")));
        local.put("day/hour=02/c.parquet", new byte[1]); // a new directory under a quiet one
        assertEquals(List.of("day/hour=01/a.parquet", "day/hour=02/c.parquet", "day/rollup/b.parquet"),
                keys(store.listTree("day/")));
        assertEquals(List.of(), store.listTree("nowhere/"));
    }

    @Test
    void aMissingDirectoryListsEmptyAndAListingIsTheCallersOwn() throws IOException {
        assertEquals(List.of(), store.listObjects("nowhere/"));
        assertEquals(List.of(), store.listDirectories("nowhere/"));
        local.put("d/a.parquet", new byte[1]);
        age("d");
        store.listObjects("d/").clear(); // a caller that changes its list changes nothing kept
        assertEquals(List.of("d/a.parquet"), keys(store.listObjects("d/")));
        assertEquals(List.of("d/a.parquet"), keys(store.listObjects("d/")));
    }

    @Test
    void keptEntriesStayWithinTheBound() throws IOException {
        QuietListings small = new QuietListings(local, 10, QUIET, Clock.systemUTC());
        for (int d = 0; d < 8; d++) {
            for (int f = 0; f < 3; f++) {
                local.put("d" + d + "/f" + f + ".parquet", new byte[1]);
            }
            age("d" + d);
            assertEquals(3, small.listObjects("d" + d + "/").size());
            assertTrue(small.keptEntries() <= 10, "kept " + small.keptEntries());
        }
        assertTrue(small.keptEntries() > 0);
    }

    @Test
    void aClockBehindTheDirectoryKeepsNothing() throws IOException {
        QuietListings behind = new QuietListings(local, 1_000, QUIET,
                Clock.fixed(Instant.now().minus(Duration.ofDays(2)), ZoneOffset.UTC));
        local.put("d/a.parquet", new byte[3]);
        age("d");
        assertEquals(List.of(3L), sizes(behind.listObjects("d/")));
        writeInPlace("d/a.parquet", 4);
        assertEquals(List.of(4L), sizes(behind.listObjects("d/")));
    }

    /**
     * Random creates, deletes, renames and agings of a few directories, listed through both stores after every
     * step: the kept listings always name the same objects, of the same sizes, as a fresh listing.
     */
    @Test
    void keptListingsAlwaysEqualFreshOnesUnderRandomChanges() throws IOException {
        long seed = new Random().nextLong();
        System.out.println("keptListingsAlwaysEqualFreshOnesUnderRandomChanges seed=" + seed);
        Random r = new Random(seed);
        List<String> dirs = List.of("p/hour=00/", "p/hour=01/", "p/hour=02/");
        for (int step = 0; step < 600; step++) {
            String d = dirs.get(r.nextInt(dirs.size()));
            List<ObjectInfo> present = local.listObjects(d);
            switch (r.nextInt(5)) {
                case 0, 1 -> local.put(d + "f" + step + ".parquet", new byte[r.nextInt(20)]);
                case 2 -> {
                    if (!present.isEmpty()) {
                        local.delete(present.get(r.nextInt(present.size())).key());
                    }
                }
                case 3 -> {
                    if (!present.isEmpty()) { // a move as a writer makes one: the new name published, the old deleted
                        ObjectInfo from = present.get(r.nextInt(present.size()));
                        local.put(d + "m" + step + ".parquet", new byte[(int) from.size()]);
                        local.delete(from.key());
                    }
                }
                default -> {
                    for (String aged : r.nextBoolean() ? List.of(d) : List.of(d, "p/")) {
                        if (Files.isDirectory(root.resolve(aged))) {
                            age(aged);
                        }
                    }
                }
            }
            for (String each : dirs) {
                assertEquals(fresh(each), fresh(store.listObjects(each)), "seed " + seed + ", step " + step + ", "
                        + each);
            }
            assertEquals(local.listTree("p/"), store.listTree("p/"), "seed " + seed + ", step " + step + ": tree");
            assertEquals(local.listDirectories("p/"), store.listDirectories("p/"), "seed " + seed);
        }
    }

    @Test
    void aQuietDaysHoursAreServedWithoutAStatOfTheirOwnAndAWriteIntoOneIsSeenAtOnce() throws IOException {
        local.put("day/hour=01/a.parquet", new byte[3]);
        local.put("day/hour=02/b.parquet", new byte[4]);
        age("day/hour=01");
        age("day/hour=02");
        age("day");
        assertEquals(local.listTree("day/"), store.listTree("day/"));
        // The hour's own time moved, its parent's not: the hour is still served from what was kept under the parent.
        Files.setLastModifiedTime(root.resolve("day/hour=01"), FileTime.from(Instant.now()));
        writeInPlace("day/hour=01/a.parquet", 8);
        assertEquals(List.of(3L, 4L), sizes(store.listTree("day/")), "the hour was not checked on its own");
        // A write through the store marks the day: the hour is listed again at once.
        local.put("day/hour=02/c.parquet", new byte[1]);
        assertEquals(List.of("day/hour=01/a.parquet", "day/hour=02/b.parquet", "day/hour=02/c.parquet"),
                keys(store.listTree("day/")));
        assertEquals(local.listTree("day/"), store.listTree("day/"));
        assertEquals(List.of(), local.listObjects("day/"), "no mark is left or listed");
        try (var marks = Files.list(root.resolve("day"))) {
            assertEquals(0, marks.filter(p -> p.getFileName().toString().startsWith(".ourios-mark-")).count());
        }
    }

    @Test
    void aStoreWithoutMarksHasEachHourChecked() throws IOException {
        QuietListings unmarked = new QuietListings(new ForwardingObjectStore(local) {
            @Override
            public boolean marksChanges() {
                return false;
            }
        }, 1_000, QUIET, Clock.systemUTC());
        local.put("day/hour=01/a.parquet", new byte[3]);
        age("day/hour=01");
        age("day");
        assertEquals(List.of(3L), sizes(unmarked.listTree("day/")));
        Files.move(root.resolve("day/hour=01/a.parquet"), root.resolve("day/hour=01/z.parquet")); // no mark
        assertEquals(List.of("day/hour=01/z.parquet"), keys(unmarked.listTree("day/")));
    }

    @Test
    void aMarkLeftByADeadWriterIsNeverListedAndIsDeletedOnceStale() throws IOException {
        local.put("day/hour=01/a.parquet", new byte[3]);
        Path fresh = Files.createFile(root.resolve("day/.ourios-mark-0000000000aa"));
        Path stale = Files.createFile(root.resolve("day/.ourios-mark-0000000000bb"));
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        assertEquals(List.of(), local.listObjects("day/"));
        assertEquals(List.of("day/hour=01/a.parquet"), keys(local.listTree("day/")));
        assertTrue(Files.exists(fresh), "a mark younger than an hour may be a live writer's");
        assertTrue(Files.notExists(stale), "a mark two hours old is a dead writer's");
    }

    private TreeMap<String, Long> fresh(String dir) throws IOException {
        return fresh(local.listObjects(dir));
    }

    private static TreeMap<String, Long> fresh(List<ObjectInfo> listing) {
        TreeMap<String, Long> out = new TreeMap<>();
        listing.forEach(o -> out.put(o.key(), o.size()));
        return out;
    }

    /** Sets the directory's modification time to a past instant later than any set before. */
    private void age(String dir) throws IOException {
        nextAge = nextAge.plusMillis(1);
        Files.setLastModifiedTime(root.resolve(dir), FileTime.from(nextAge));
    }

    private void writeInPlace(String key, int size) throws IOException {
        Files.write(root.resolve(key), new byte[size]);
    }

    private static List<Long> sizes(List<ObjectInfo> listing) {
        List<Long> out = new ArrayList<>();
        listing.forEach(o -> out.add(o.size()));
        return out;
    }

    private static List<String> keys(List<ObjectInfo> listing) {
        List<String> out = new ArrayList<>();
        listing.forEach(o -> out.add(o.key()));
        return out;
    }
}
