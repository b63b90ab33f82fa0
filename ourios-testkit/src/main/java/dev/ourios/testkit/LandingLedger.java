package dev.ourios.testkit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * What a test landed into a store, by partition, and the judge of what a read of a partition returned: exactly
 * the acknowledged rows, none lost, none doubled, none invented, no file seen in part.
 *
 * <p>Rows are known by an identity string ({@code identity}, given at construction) that is unique across the
 * ledger: {@link #claim} drops rows whose identity is already known, and recording a known identity again throws.
 * So a multiset comparison is a set comparison plus a duplicate count.
 *
 * <p>Base rows ({@link #addBase}) are acknowledged before any reader starts. Late files are numbered 1, 2, ... in
 * landing order by one writer at a time: {@link #beginLate} before the file's write begins (bumps
 * {@link #started()}), {@link #completeLate} after it returned (bumps {@link #completed()}; the rows are
 * acknowledged). A read that sampled {@code completed()} before it began and {@code started()} after it ended must
 * see every file up to the first whole, no file after the second at all, and any file in between all or nothing;
 * {@link #judge} checks exactly that. Sampling both once the writer is idle judges a read against every acknowledged
 * row.
 *
 * @param <P> the partition key
 * @param <R> the row
 */
public final class LandingLedger<P extends Comparable<? super P>, R> {
    private static final int EXAMPLES = 5;

    /** One late file: its number, partition and row identities. */
    private record LateFile<P>(int number, P partition, Set<String> rows) {
    }

    /**
     * What one read of one partition showed, against the ledger.
     *
     * @param rows       rows the read returned
     * @param torn       late files seen partly (some of their rows, not all): a torn read
     * @param lost       rows that had to be there (acknowledged before the read began) and were not
     * @param duplicated rows returned more than once
     * @param unknown    rows the ledger never landed in this partition (another partition's, invented, or of a late
     *                   file whose write began after the read ended)
     * @param examples   the first few problems, described
     */
    public record Verdict(long rows, long torn, long lost, long duplicated, long unknown, List<String> examples) {
        public Verdict {
            examples = List.copyOf(examples);
        }

        public boolean clean() {
            return torn == 0 && lost == 0 && duplicated == 0 && unknown == 0;
        }

        @Override
        public String toString() {
            String counts = rows + " rows, torn files " + torn + ", lost " + lost + ", duplicated " + duplicated
                    + ", unknown " + unknown;
            return examples.isEmpty() ? counts : counts + " (" + String.join("; ", examples) + ")";
        }
    }

    private final Function<? super R, String> identity;
    private final Map<P, Set<String>> base = new ConcurrentHashMap<>();
    /** Identity to partition, for every claimed row. */
    private final Map<String, P> claimed = new ConcurrentHashMap<>();
    /** Identity to partition, for every row recorded as base or in a late file. */
    private final Map<String, P> landedIn = new ConcurrentHashMap<>();
    /** Identity to late-file number. */
    private final Map<String, Integer> fileOf = new ConcurrentHashMap<>();
    private final List<LateFile<P>> files = new CopyOnWriteArrayList<>();
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger completed = new AtomicInteger();

    public LandingLedger(Function<? super R, String> identity) {
        this.identity = identity;
    }

    /** The rows of {@code rows} whose identity is new, in order, claimed for {@code p} (not yet landed). */
    public synchronized List<R> claim(P p, Collection<? extends R> rows) {
        Map<String, R> fresh = new LinkedHashMap<>();
        for (R r : rows) {
            String id = identity.apply(r);
            if (!claimed.containsKey(id)) {
                fresh.putIfAbsent(id, r);
            }
        }
        for (String id : fresh.keySet()) {
            claimed.put(id, p);
        }
        return new ArrayList<>(fresh.values());
    }

    /**
     * Records rows landed in {@code p} before any reader starts. Each must be new or claimed for {@code p};
     * a row recorded twice throws {@link IllegalArgumentException}.
     */
    public synchronized void addBase(P p, Collection<? extends R> rows) {
        Set<String> ids = record(p, rows, 0);
        base.computeIfAbsent(p, k -> ConcurrentHashMap.newKeySet()).addAll(ids);
    }

    /** Before a late file's write begins: records its rows (as {@link #addBase} checks them) and returns its number. */
    public synchronized int beginLate(P p, Collection<? extends R> rows) {
        int number = files.size() + 1;
        Set<String> ids = record(p, rows, number);
        files.add(new LateFile<>(number, p, Set.copyOf(ids)));
        started.set(number);
        return number;
    }

    /** After late file {@code number}'s write returned: its rows are acknowledged. */
    public void completeLate(int number) {
        if (number < 1 || number > started.get()) {
            throw new IllegalArgumentException("late file " + number + " was not begun");
        }
        completed.accumulateAndGet(number, Math::max);
    }

    private Set<String> record(P p, Collection<? extends R> rows, int file) {
        Set<String> ids = new java.util.HashSet<>();
        for (R r : rows) {
            String id = identity.apply(r);
            P owner = claimed.get(id);
            if (landedIn.containsKey(id) || !ids.add(id) || (owner != null && !owner.equals(p))) {
                throw new IllegalArgumentException("row identity recorded twice (or claimed for another "
                        + "partition); identities must be unique: " + id);
            }
        }
        for (String id : ids) {
            claimed.put(id, p);
            landedIn.put(id, p);
            if (file > 0) {
                fileOf.put(id, file);
            }
        }
        return ids;
    }

    /** Late files begun so far (the number of the last). */
    public int started() {
        return started.get();
    }

    /** Late files completed so far (the number of the last). */
    public int completed() {
        return completed.get();
    }

    /** Every partition with base rows or late files, in order. */
    public List<P> partitions() {
        Set<P> all = new TreeSet<>(base.keySet());
        for (LateFile<P> f : files) {
            all.add(f.partition());
        }
        return List.copyOf(all);
    }

    /** The identities acknowledged in {@code p} so far (base rows and completed late files), sorted. */
    public List<String> acknowledged(P p) {
        int done = completed();
        List<String> ids = new ArrayList<>(base.getOrDefault(p, Set.of()));
        for (LateFile<P> f : files) {
            if (f.number() <= done && f.partition().equals(p)) {
                ids.addAll(f.rows());
            }
        }
        ids.sort(null);
        return ids;
    }

    /** How many rows are acknowledged in {@code p} so far. */
    public long acknowledgedRows(P p) {
        int done = completed();
        long n = base.getOrDefault(p, Set.of()).size();
        for (LateFile<P> f : files) {
            if (f.number() <= done && f.partition().equals(p)) {
                n += f.rows().size();
            }
        }
        return n;
    }

    /**
     * Judges one read of {@code p} that returned {@code identities}, given {@code completedBefore} sampled (from
     * {@link #completed()}) before it began and {@code startedAfter} sampled (from {@link #started()}) after it
     * ended.
     */
    public Verdict judge(P p, Collection<String> identities, int completedBefore, int startedAfter) {
        List<String> examples = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        long duplicated = 0;
        long unknown = 0;
        for (String id : identities) {
            if (seen.merge(id, 1, Integer::sum) > 1) {
                duplicated++;
                example(examples, "a row read twice (" + origin(id) + "): " + id);
            }
        }
        Map<Integer, Integer> perFile = new HashMap<>();
        for (String id : seen.keySet()) {
            if (!p.equals(landedIn.get(id))) {
                unknown += seen.get(id);
                example(examples, landedIn.containsKey(id) ? "a row of " + landedIn.get(id) + ": " + id
                        : "a row nobody landed: " + id);
                continue;
            }
            Integer f = fileOf.get(id);
            if (f != null) {
                perFile.merge(f, 1, Integer::sum);
            }
        }
        long lost = 0;
        long baseMissing = 0;
        for (String id : base.getOrDefault(p, Set.of())) {
            if (!seen.containsKey(id)) {
                baseMissing++;
            }
        }
        if (baseMissing > 0) {
            lost += baseMissing;
            example(examples, "missed " + baseMissing + " of the " + base.get(p).size() + " base rows");
        }
        long torn = 0;
        for (LateFile<P> f : files) {
            if (!f.partition().equals(p)) {
                continue;
            }
            int k = perFile.getOrDefault(f.number(), 0);
            int size = f.rows().size();
            if (k > 0 && k < size) {
                torn++;
                example(examples, "saw " + k + " of the " + size + " rows of late file " + f.number()
                        + ": a torn file");
            }
            if (f.number() <= completedBefore && k < size) {
                lost += size - k;
                example(examples, "missed " + (size - k) + " rows of late file " + f.number()
                        + ", landed before the read began");
            }
            if (f.number() > startedAfter && k > 0) {
                unknown += k;
                example(examples, "saw rows of late file " + f.number() + ", whose write began after the read ended");
            }
        }
        return new Verdict(identities.size(), torn, lost, duplicated, unknown, examples);
    }

    private String origin(String id) {
        Integer f = fileOf.get(id);
        return f != null ? "late file " + f : landedIn.containsKey(id) ? "base" : "never landed";
    }

    private static void example(List<String> examples, String problem) {
        if (examples.size() < EXAMPLES) {
            examples.add(problem);
        }
    }
}
