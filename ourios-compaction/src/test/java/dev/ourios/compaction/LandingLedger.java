package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writer's side of the RFC0009.3 check: which row came from which landing, and how many landings had started
 * and finished. Late file {@code i} is registered and counted as started before its write begins, and counted as
 * completed after the write returned (the rows are acknowledged). So a count whose snapshot was taken after
 * {@code completed() == c} must hold every row of files {@code < c}, and a count finished when
 * {@code started() == s} can hold no row of files {@code >= s}; in between, each file is atomic (all or none).
 */
final class LandingLedger {
    static final int BASE = -1;

    private final Map<String, Integer> origin = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> sizes = new ConcurrentHashMap<>();
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger completed = new AtomicInteger();
    private final int baseRows;

    LandingLedger(List<LogRecord> base) {
        for (LogRecord r : base) {
            if (origin.putIfAbsent(TestStores.identity(r), BASE) != null) {
                throw new IllegalArgumentException("the base data holds a row twice; identities must be unique");
            }
        }
        this.baseRows = base.size();
    }

    /**
     * Registers the next late file (rows whose identity is already known are dropped, so every identity stays
     * unique) and marks it started; returns its rows. Single writer thread.
     */
    List<LogRecord> start(List<LogRecord> candidate) {
        int index = started.get();
        List<LogRecord> rows = new ArrayList<>();
        for (LogRecord r : candidate) {
            if (origin.putIfAbsent(TestStores.identity(r), index) == null) {
                rows.add(r);
            }
        }
        sizes.put(index, rows.size());
        started.incrementAndGet();
        return rows;
    }

    void completed() {
        completed.incrementAndGet();
    }

    int startedFiles() {
        return started.get();
    }

    int completedFiles() {
        return completed.get();
    }

    long landedRows(int files) {
        long n = baseRows;
        for (int i = 0; i < files; i++) {
            n += sizes.get(i);
        }
        return n;
    }

    /**
     * Checks one count's row identities against the landings around it: {@code completedBefore} read before the
     * count's snapshot, {@code startedAfter} read after the count finished.
     *
     * @return what is wrong, or empty
     */
    Optional<String> check(List<String> identities, int completedBefore, int startedAfter) {
        Set<String> seen = new HashSet<>();
        Map<Integer, Integer> perOrigin = new HashMap<>();
        for (String id : identities) {
            Integer from = origin.get(id);
            if (from == null) {
                return Optional.of("a row nobody landed: " + id);
            }
            if (!seen.add(id)) {
                return Optional.of("a row counted twice (from " + (from == BASE ? "the base files" : "late file "
                        + from) + "): " + id);
            }
            perOrigin.merge(from, 1, Integer::sum);
        }
        int base = perOrigin.getOrDefault(BASE, 0);
        if (base != baseRows) {
            return Optional.of("saw " + base + " of the " + baseRows + " base rows");
        }
        for (Map.Entry<Integer, Integer> e : perOrigin.entrySet()) {
            int file = e.getKey();
            if (file == BASE) {
                continue;
            }
            if (file >= startedAfter) {
                return Optional.of("saw rows of late file " + file + ", which started after the count ended");
            }
            if (e.getValue().intValue() != sizes.get(file)) {
                return Optional.of("saw " + e.getValue() + " of the " + sizes.get(file) + " rows of late file " + file
                        + ": a torn file");
            }
        }
        for (int file = 0; file < completedBefore; file++) {
            if (sizes.get(file) > 0 && !perOrigin.containsKey(file)) {
                return Optional.of("missed late file " + file + ", landed before the count began");
            }
        }
        long lo = landedRows(completedBefore);
        long hi = landedRows(startedAfter);
        if (identities.size() < lo || identities.size() > hi) {
            return Optional.of("count " + identities.size() + " outside [" + lo + ", " + hi + "]");
        }
        return Optional.empty();
    }
}
