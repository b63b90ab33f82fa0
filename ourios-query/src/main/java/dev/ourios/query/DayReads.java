package dev.ourios.query;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads each day partition once per query, for all the query's hours it validly covers (docs/spec/storage.md 4.15),
 * where the order in which hours are read does not matter (a count, an aggregate over every row). The first hour of a
 * day the query's scans reach <i>claims</i> the day: against one snapshot of the day partition it lists the query's
 * hours of that day, and takes every validly covered one, with its late files; it then reads the day files once,
 * keeping the rows of those hours, and the late files. Every other hour of the claimed set reads nothing; an hour
 * outside it is read from its own files (it was not covered, or its cover was void when the day was claimed, and a
 * void cover never becomes valid again). A count its covers can answer ({@link CoverCounts}) takes a claimed hour whose
 * cover carries its rows per service from the cover, and reads the day files only for the claimed hours left: none
 * left, no day file is opened. Shared by the scans of one query; thread-safe.
 */
final class DayReads {
    /**
     * One day's claim: the hour that reads it, the day snapshot it was decided on, the hours it claims, those of them
     * whose rows are read from the day files, the files (the day files when any hour is read from them, and the
     * claimed hours' late files) with the hour each late file belongs to, and the rows the covers counted for the
     * other claimed hours.
     */
    record Claim(PartitionKey reader, PartitionSnapshot day, Set<Integer> hours, Set<Integer> dayFileHours,
            List<ObjectInfo> files, Map<String, PartitionKey> hourOf, long coverRows) {
        /** How the claim's reader reads {@code key}: a day file for the hours read from it, a late file for its hour. */
        FileRule rule(String key) {
            PartitionKey hour = hourOf.get(key);
            return hour != null ? FileRule.hourFile(hour) : FileRule.dayFileOfHours(reader, dayFileHours);
        }
    }

    /** What a count can take from covers; empty: every claimed hour is read from the day files. */
    private final Optional<CoverCounts> coverCounts;

    /** Claims that read every claimed hour from the day files (an aggregate over every row). */
    DayReads() {
        this(Optional.empty());
    }

    /** Claims of a count that takes from covers what {@code coverCounts} allows. */
    DayReads(Optional<CoverCounts> coverCounts) {
        this.coverCounts = coverCounts;
    }

    private final ConcurrentHashMap<DayPartition, Claim> claims = new ConcurrentHashMap<>();
    /** The day snapshots the query's scans decide hours against: one listing and manifest read per day. */
    private final ConcurrentHashMap<DayPartition, PartitionSnapshot> days = new ConcurrentHashMap<>();
    private volatile Set<PartitionKey> planned = Set.of();
    /** The query's hours by day, each day's sorted: a claim takes its day's from here rather than filter them all. */
    private volatile Map<DayPartition, List<PartitionKey>> plannedByDay = Map.of();

    /** The query's hours; set before any scan reads. */
    void plan(List<PartitionKey> hours) {
        planned = Set.copyOf(hours);
        Map<DayPartition, List<PartitionKey>> byDay = new HashMap<>();
        for (PartitionKey h : planned) {
            byDay.computeIfAbsent(DayPartition.of(h), d -> new ArrayList<>()).add(h);
        }
        byDay.replaceAll((d, list) -> {
            list.sort(Comparator.naturalOrder());
            return List.copyOf(list);
        });
        plannedByDay = Map.copyOf(byDay);
    }

    /**
     * Takes every planned day's snapshot and claim ahead of the reads, up to {@code threads} days at once: on a
     * remote store each day's planning is a few round trips (its listing, its manifest, its hours' listing) that
     * wait on the network, so days planned side by side cost about one day's wait. Each claim is the one a scan
     * would have made (its reader the day's first planned hour), decided against the same one snapshot of the day.
     *
     * @throws IOException the first failure of any day, once every day's planning has ended; an interrupt ends the
     *                     planning still running and is reported as a cancelled query
     */
    void prefetch(TableReader tables, int threads, QueryThreads helperThreads) throws IOException {
        java.util.SortedMap<DayPartition, PartitionKey> firstHours = new java.util.TreeMap<>(
                Comparator.comparing(DayPartition::tenantId).thenComparing(DayPartition::date));
        plannedByDay.forEach((day, hours) -> firstHours.put(day, hours.get(0)));
        if (firstHours.size() < 2 || threads < 2) {
            return; // nothing to overlap: the scans plan the day as they reach it
        }
        List<Map.Entry<DayPartition, PartitionKey>> todo = List.copyOf(firstHours.entrySet());
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable planDays = () -> {
            for (int i = next.getAndIncrement(); i < todo.size() && !Thread.currentThread().isInterrupted();
                    i = next.getAndIncrement()) {
                Map.Entry<DayPartition, PartitionKey> e = todo.get(i);
                try {
                    PartitionSnapshot day = daySnapshot(tables, e.getKey());
                    if (day.manifest().isPresent()) {
                        claim(tables, e.getValue(), day);
                    }
                } catch (IOException | RuntimeException | Error t) {
                    dev.ourios.core.Failures.keepFirst(failure, t);
                }
            }
        };
        List<QueryThreads.Helper> helpers = new ArrayList<>();
        for (int i = 0; i < Math.min(threads, todo.size()); i++) {
            helpers.add(helperThreads.start(planDays));
        }
        try {
            for (QueryThreads.Helper h : helpers) {
                h.join();
            }
        } catch (InterruptedException e) {
            helpers.forEach(QueryThreads.Helper::interrupt);
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("the query was cancelled");
        }
        if (failure.get() != null) {
            dev.ourios.core.Failures.rethrow(failure.get());
        }
    }

    /** The query's snapshot of {@code day}: taken by the first scan that asks, the same for every later one. */
    PartitionSnapshot daySnapshot(TableReader tables, DayPartition day) throws IOException {
        try {
            return days.computeIfAbsent(day, d -> {
                try {
                    return tables.daySnapshot(d);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * The claim of {@code hour}'s day: made now on {@code daySnapshot} if no scan made it before, else the one
     * made.
     */
    Claim claim(TableReader tables, PartitionKey hour, PartitionSnapshot daySnapshot) throws IOException {
        DayPartition day = DayPartition.of(hour);
        try {
            return claims.computeIfAbsent(day, d -> {
                try {
                    return make(tables, hour, d, daySnapshot);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * True if a claim already made reads {@code hour} with another hour of its day: the hour has nothing of its own
     * to read, as {@link #claim} would say, decided without a snapshot or a listing.
     */
    boolean readByAnotherHour(PartitionKey hour) {
        Claim c = claims.get(DayPartition.of(hour));
        return c != null && c.hours().contains(hour.hour()) && !c.reader().equals(hour);
    }

    private Claim make(TableReader tables, PartitionKey reader, DayPartition day, PartitionSnapshot daySnapshot)
            throws IOException {
        DayCovers covers = HourFiles.covers(day, daySnapshot);
        Set<Integer> hours = new TreeSet<>();
        Set<Integer> dayFileHours = new TreeSet<>();
        long coverRows = 0;
        List<ObjectInfo> files = new ArrayList<>();
        Map<String, PartitionKey> hourOf = new HashMap<>();
        List<PartitionKey> dayHours = plannedByDay.getOrDefault(day, List.of());
        Map<PartitionKey, PartitionSnapshot> snapshots = tables.hourSnapshots(dayHours, covers);
        for (PartitionKey h : dayHours) {
            PartitionSnapshot s = snapshots.get(h);
            if (s.isCovered()) {
                hours.add(h.hour());
                OptionalLong counted = coverCounts.isPresent()
                        ? coverCounts.get().rows(h, s.cover().orElseThrow().cover()) : OptionalLong.empty();
                if (counted.isPresent()) {
                    coverRows += counted.getAsLong();
                } else {
                    dayFileHours.add(h.hour());
                }
                for (ObjectInfo late : s.live()) {
                    files.add(late);
                    hourOf.put(late.key(), h);
                }
            }
        }
        if (!dayFileHours.isEmpty()) {
            files.addAll(daySnapshot.live()); // some claimed hour's rows are read from the day files
        }
        files.sort(Comparator.comparing(ObjectInfo::key));
        return new Claim(reader, daySnapshot, hours, dayFileHours, files, hourOf, coverRows);
    }
}
