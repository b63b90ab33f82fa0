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
 * void cover never becomes valid again). Shared by the scans of one query; thread-safe.
 */
final class DayReads {
    /**
     * One day's claim: the hour that reads it, the day snapshot it was decided on, the hours it reads and the files
     * (the day files, then the hours' late files) with the hour each late file belongs to.
     */
    record Claim(PartitionKey reader, PartitionSnapshot day, Set<Integer> hours, List<ObjectInfo> files,
            Map<String, PartitionKey> hourOf) {
        /** How the claim's reader reads {@code key}: a day file for the claimed hours, a late file for its hour. */
        FileRule rule(String key) {
            PartitionKey hour = hourOf.get(key);
            return hour != null ? FileRule.hourFile(hour) : FileRule.dayFileOfHours(reader, hours);
        }
    }

    private final ConcurrentHashMap<DayPartition, Claim> claims = new ConcurrentHashMap<>();
    /** The day snapshots the query's scans decide hours against: one listing and manifest read per day. */
    private final ConcurrentHashMap<DayPartition, PartitionSnapshot> days = new ConcurrentHashMap<>();
    private volatile Set<PartitionKey> planned = Set.of();

    /** The query's hours; set before any scan reads. */
    void plan(List<PartitionKey> hours) {
        planned = Set.copyOf(hours);
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

    private Claim make(TableReader tables, PartitionKey reader, DayPartition day, PartitionSnapshot daySnapshot)
            throws IOException {
        DayCovers covers = HourFiles.covers(day, daySnapshot);
        Set<Integer> hours = new TreeSet<>();
        List<ObjectInfo> files = new ArrayList<>(daySnapshot.live());
        Map<String, PartitionKey> hourOf = new HashMap<>();
        List<PartitionKey> dayHours = planned.stream().filter(p -> DayPartition.of(p).equals(day)).sorted().toList();
        Map<PartitionKey, PartitionSnapshot> snapshots = tables.hourSnapshots(dayHours, covers);
        for (PartitionKey h : dayHours) {
            PartitionSnapshot s = snapshots.get(h);
            if (s.isCovered()) {
                hours.add(h.hour());
                for (ObjectInfo late : s.live()) {
                    files.add(late);
                    hourOf.put(late.key(), h);
                }
            }
        }
        files.sort(Comparator.comparing(ObjectInfo::key));
        return new Claim(reader, daySnapshot, hours, files, hourOf);
    }
}
