package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.testkit.TestSeed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every row exactly once as the resolver sees it (STORAGE.md §4.15), under random interleavings of late files, hour
 * commits planned before or after a cover, day commits (some racing an hour commit, so their cover is void at once)
 * and GC, on a real store. The commits are the real committer's, GC the real collector's (its clock a day ahead, so
 * everything it may collect, it does); only the rows are bookkept beside the files instead of read from them.
 */
class CoverInterleavingPropertyTest {
    private static final int HOURS = 4;
    private static final int STEPS = 400;
    private static final DayPartition DAY = new DayPartition("acme", LocalDate.of(2026, 11, 29));

    @TempDir
    Path root;

    private LocalObjectStore store;
    private TableReader reader;
    private ManifestCommitter committer;
    private GarbageCollector gc;
    private Uuid7 uuids;
    /** Every file written: its rows, row id → hour. */
    private final Map<String, Map<Long, Integer>> rowsOf = new HashMap<>();
    private final Set<Long> landed = new TreeSet<>();
    private long nextRow;
    private int coversCommitted;
    private int voidCovers;
    private int coverLosses;
    private final Map<String, Integer> outcomes = new TreeMap<>();

    @Test
    void everyRowIsVisibleExactlyOnceWhateverTheInterleaving() throws Exception {
        long seed = TestSeed.announce(getClass());
        Random random = new Random(seed);
        for (int run = 0; run < 6; run++) {
            Path dir = root.resolve("run" + run);
            store = new LocalObjectStore(dir);
            ManifestCodec codec = new ManifestCodec();
            reader = new TableReader(store, codec);
            committer = ManifestCommitter.forGcGrace(store, codec, Clock.systemUTC(), Duration.ZERO);
            gc = new GarbageCollector(store, new TableLayout(store), reader,
                    new GcOptions(Duration.ofMinutes(10), false), Clock.offset(Clock.systemUTC(), Duration.ofDays(1)));
            uuids = new Uuid7(Clock.systemUTC(), new Random(random.nextLong()));
            rowsOf.clear();
            landed.clear();
            simulate(random, seed);
        }
        System.out.println("covers committed " + coversCommitted + ", void at once " + voidCovers
                + ", hour commits lost to a cover " + coverLosses + ", outcomes " + outcomes);
        assertTrue(coversCommitted > 0, "no cover was ever committed");
        assertTrue(coverLosses > 0, "no hour commit ever lost to a cover");
    }

    private void simulate(Random random, long seed) throws IOException {
        List<HourPlan> hourPlans = new ArrayList<>();
        List<DayPlan> dayPlans = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(100);
            String what;
            if (op < 30) {
                what = land(random.nextInt(HOURS), 1 + random.nextInt(3));
            } else if (op < 45) {
                planHour(random.nextInt(HOURS), hourPlans);
                what = "plan hour";
            } else if (op < 60 && !hourPlans.isEmpty()) {
                what = commitHour(hourPlans.remove(random.nextInt(hourPlans.size())));
            } else if (op < 75) {
                if (random.nextBoolean()) {
                    // A compactor of the hours plans beside the rollup: their commits race.
                    for (int h = 0; h < HOURS; h++) {
                        planHour(h, hourPlans);
                    }
                }
                planDay(random).ifPresent(dayPlans::add);
                what = "plan day";
            } else if (op < 95 && !dayPlans.isEmpty()) {
                // A day commit that skips its re-listing stands for one whose hour committed between that re-listing
                // and its create: its cover of that hour is void from the start.
                what = commitDay(dayPlans.remove(random.nextInt(dayPlans.size())), random.nextInt(10) >= 3);
            } else if (op < 97) {
                // The race spelled out: a rollup and an hour compaction plan together, the hour commits between the
                // rollup's re-listing and its create.
                int h = random.nextInt(HOURS);
                List<HourPlan> racing = new ArrayList<>();
                planHour(h, racing);
                java.util.Optional<DayPlan> day = planDay(random);
                what = "race: " + (racing.isEmpty() ? "" : commitHour(racing.get(0))) + "; "
                        + (day.isEmpty() ? "" : commitDay(day.get(), false));
            } else {
                GcReport r = gc.run(PartitionFilter.all());
                assertEquals(List.of(), r.errors(), "seed " + seed);
                what = "gc " + r.deletedKeys().size();
            }
            outcomes.merge(what.replaceAll("[0-9a-f-]{36}.*|[0-9]+", "").trim(), 1, Integer::sum);
            check(seed, step, what);
        }
    }

    private void planHour(int hour, List<HourPlan> plans) throws IOException {
        PartitionSnapshot s = reader.hourSnapshot(DAY.hour(hour));
        if (!s.isCovered() && !s.live().isEmpty()) {
            plans.add(new HourPlan(s));
        }
    }

    private String land(int hour, int rows) throws IOException {
        String key = DAY.hour(hour).dataPrefix() + uuids.next() + FileNames.PARQUET;
        Map<Long, Integer> content = new LinkedHashMap<>();
        for (int i = 0; i < rows; i++) {
            landed.add(nextRow);
            content.put(nextRow++, hour);
        }
        write(key, content);
        return "land " + key;
    }

    private void write(String key, Map<Long, Integer> content) throws IOException {
        store.put(key, content.toString().getBytes(StandardCharsets.UTF_8));
        rowsOf.put(key, Map.copyOf(content));
    }

    private record HourPlan(PartitionSnapshot snapshot) {
    }

    private String commitHour(HourPlan plan) throws IOException {
        PartitionSnapshot s = plan.snapshot();
        PartitionKey p = s.partition();
        Map<Long, Integer> rows = new TreeMap<>();
        List<String> inputs = new ArrayList<>();
        for (ObjectInfo o : s.live()) {
            if (store.stat(o.key()).isEmpty()) {
                return "hour plan dropped: an input was collected before it was read";
            }
            rows.putAll(rowsOf.get(o.key()));
            inputs.add(o.name());
        }
        String output = uuids.next() + FileNames.COMPACTED;
        write(p.dataPrefix() + output, rows);
        inputs.sort(null);
        CommitRecord record = new CommitRecord(Instant.now(), inputs, output, rows.size(), 1, 1, rows.size() + ":x");
        CommitResult r = committer.commit(p, s.generation(), NextManifest.from(s, record));
        if (r.status() == CommitResult.Status.LOST && r.detail().contains("covered by its day partition")) {
            coverLosses++;
        }
        return "commit " + p + " at " + s.generation() + ": " + r.status() + " " + r.detail();
    }

    private record DayPlan(long dayGeneration, PartitionSnapshot day, Map<Integer, Long> planned,
            List<Cover> covers, Map<Long, Integer> rows, List<String> inputKeys) {
    }

    private java.util.Optional<DayPlan> planDay(Random random) throws IOException {
        PartitionSnapshot day = reader.daySnapshot(DAY);
        Map<Integer, Long> planned = new TreeMap<>();
        List<Cover> covers = new ArrayList<>();
        Map<Long, Integer> rows = new TreeMap<>();
        List<String> inputKeys = new ArrayList<>();
        day.live().forEach(o -> inputKeys.add(o.key()));
        boolean change = false;
        Set<Integer> validHours = new HashSet<>();
        for (int h = 0; h < HOURS; h++) {
            PartitionSnapshot s = reader.hourSnapshot(DAY.hour(h));
            if (s.isCovered()) {
                Cover c = s.cover().get().cover();
                validHours.add(h);
                Set<String> names = new TreeSet<>(c.names());
                for (ObjectInfo late : s.live()) {
                    names.add(late.name());
                    rows.putAll(rowsOf.get(late.key()));
                    inputKeys.add(late.key());
                    change = true;
                }
                planned.put(h, c.generation());
                covers.add(new Cover(h, c.generation(), 0, List.copyOf(names)));
            } else if (!s.live().isEmpty() && !s.ruledByReference() && random.nextInt(10) < 6) {
                // Some hours are not small this time: they stay uncovered, so hour compactions keep racing covers.
                Set<String> names = new TreeSet<>(s.liveNames());
                s.manifest().ifPresent(m -> m.retiredNames().stream().filter(FileNames::isIngestFile)
                        .forEach(names::add));
                for (ObjectInfo o : s.live()) {
                    rows.putAll(rowsOf.get(o.key()));
                    inputKeys.add(o.key());
                }
                planned.put(h, s.generation());
                covers.add(new Cover(h, s.generation(), 0, List.copyOf(names)));
                change = true;
            }
        }
        for (ObjectInfo o : day.live()) {
            for (Map.Entry<Long, Integer> e : rowsOf.get(o.key()).entrySet()) {
                if (validHours.contains(e.getValue())) {
                    rows.put(e.getKey(), e.getValue());
                } else {
                    change = true; // dead rows of a void cover: dropped by this rewrite
                }
            }
        }
        if (!change) {
            return java.util.Optional.empty();
        }
        List<Cover> counted = new ArrayList<>();
        for (Cover c : covers) {
            long n = rows.values().stream().filter(h -> h == c.hour()).count();
            counted.add(new Cover(c.hour(), c.generation(), n, c.names()));
        }
        return java.util.Optional.of(new DayPlan(day.generation(), day, planned, counted, rows, inputKeys));
    }

    private String commitDay(DayPlan plan, boolean relist) throws IOException {
        if (relist) {
            for (Map.Entry<Integer, Long> e : plan.planned().entrySet()) {
                List<ObjectInfo> listing = store.listObjects(DAY.hour(e.getKey()).dataPrefix());
                if (!CoverValidity.isValid(new Cover(e.getKey(), e.getValue(), 0, List.of()), listing)) {
                    return "day plan dropped: hour " + e.getKey() + " moved";
                }
            }
        }
        for (String key : plan.inputKeys()) {
            if (store.stat(key).isEmpty()) {
                return "day plan dropped: an input was collected before it was read";
            }
        }
        String output = uuids.next() + FileNames.COMPACTED;
        write(DAY.prefix() + output, plan.rows());
        Instant at = Instant.now();
        PartitionSnapshot day = plan.day();
        List<Retired> retired = new ArrayList<>();
        day.manifest().ifPresent(m -> m.retired().stream().filter(r -> day.isPresent(r.file()))
                .forEach(retired::add));
        day.live().forEach(o -> retired.add(new Retired(o.name(), at)));
        retired.sort(Comparator.comparing(Retired::file));
        List<String> inputs = plan.inputKeys().stream().map(k -> k.substring(k.lastIndexOf('/') + 1)).sorted()
                .toList();
        CommitRecord record = new CommitRecord(CommitKind.ROLLUP, at, inputs, output, plan.rows().size(), 0, 1, 1,
                plan.rows().size() + ":x", null);
        Manifest next = Manifest.ofDay(plan.dayGeneration() + 1, List.of(output), retired, record, List.of(),
                plan.covers());
        CommitResult r = committer.commit(DAY.label(), DAY.prefix(), plan.dayGeneration(), next);
        if (r.status() == CommitResult.Status.COMMITTED) {
            coversCommitted += plan.covers().size();
            for (Cover c : plan.covers()) {
                if (!CoverValidity.isValid(c, store.listObjects(DAY.hour(c.hour()).dataPrefix()))) {
                    voidCovers++;
                }
            }
        }
        return "commit day at " + plan.dayGeneration() + (relist ? "" : " (racing)") + ": " + r.status();
    }

    /** The rows every hour shows, read as a reader of day partitions reads them. */
    private void check(long seed, int step, String what) throws IOException {
        Map<Long, Integer> seen = new HashMap<>();
        PartitionSnapshot day;
        List<PartitionSnapshot> hours = new ArrayList<>();
        try {
            day = reader.daySnapshot(DAY);
            for (int h = 0; h < HOURS; h++) {
                hours.add(reader.hourSnapshot(DAY.hour(h)));
            }
        } catch (MissingFileException e) {
            fail("seed " + seed + " step " + step + " after " + what + ": " + e.getMessage());
            return;
        }
        for (PartitionSnapshot s : hours) {
            int h = s.partition().hour();
            if (s.isCovered()) {
                for (ObjectInfo o : day.live()) {
                    rowsOf.get(o.key()).forEach((row, hour) -> {
                        if (hour == h) {
                            seen.merge(row, 1, Integer::sum);
                        }
                    });
                }
            }
            for (ObjectInfo o : s.live()) {
                assertTrue(rowsOf.containsKey(o.key()), "unknown live file " + o.key());
                rowsOf.get(o.key()).keySet().forEach(row -> seen.merge(row, 1, Integer::sum));
            }
        }
        for (long row : landed) {
            int n = seen.getOrDefault(row, 0);
            if (n != 1) {
                fail("seed " + seed + " step " + step + " after " + what + ": row " + row + " visible " + n
                        + " times");
            }
        }
        assertEquals(landed.size(), seen.size(), "seed " + seed + " step " + step + ": rows nobody landed");
    }
}
