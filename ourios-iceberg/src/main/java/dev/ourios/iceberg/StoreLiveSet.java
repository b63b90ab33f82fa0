package dev.ourios.iceberg;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.Cover;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The store's live set, the truth the view mirrors: for every hour partition, the files one listing and its current
 * manifest make live (one generation's files plus the ingest files that landed beside it), and for every day
 * partition (storage.md section 4.15) its live files, with the hours whose rows in them are dead; a validly covered
 * hour contributes its late files alone. Exactly what a query reads. A day is resolved whole, against one day
 * generation; a partial scope resolves only the days of the hours it names.
 */
public final class StoreLiveSet {
    /**
     * A live file and its partition.
     *
     * @param partition the hour partition, or for a day file its day's first hour (a label, never a directory)
     * @param object    the object
     * @param day       the day partition holding the file; empty for a file of an hour partition
     * @param deadHours for a day file, the hours of the day (bit {@code h} for hour {@code h}) whose rows in it are
     *                  dead: covered by the day manifest with rows, but not validly (0: every row is live)
     */
    public record LiveFile(PartitionKey partition, ObjectInfo object, Optional<DayPartition> day, int deadHours) {
        public LiveFile {
            Objects.requireNonNull(partition, "partition is null");
            Objects.requireNonNull(object, "object is null");
            Objects.requireNonNull(day, "day is null");
            if (day.isEmpty() && deadHours != 0) {
                throw new IllegalArgumentException("BUG: dead hours of a file outside a day partition");
            }
        }

        /** A file of an hour partition. */
        public LiveFile(PartitionKey partition, ObjectInfo object) {
            this(partition, object, Optional.empty(), 0);
        }

        public boolean isDayFile() {
            return day.isPresent();
        }
    }

    /**
     * The live files of the partitions one scope covers.
     *
     * @param files      live files by store key
     * @param partitions the partitions resolved (hours and day partitions; one listing and at most one manifest
     *                   read each)
     */
    public record Resolved(SortedMap<String, LiveFile> files, int partitions, SyncScope scope) {
        public Resolved {
            files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
            Objects.requireNonNull(scope, "scope is null");
        }
    }

    static final int HOURS_PER_DAY = 24;

    private final TableLayout layout;
    private final TableReader reader;

    public StoreLiveSet(TableLayout layout, TableReader reader) {
        this.layout = Objects.requireNonNull(layout, "layout is null");
        this.reader = Objects.requireNonNull(reader, "reader is null");
    }

    /** Every live file, keyed by store key. */
    public SortedMap<String, LiveFile> files() throws IOException {
        return resolve(SyncScope.all()).files();
    }

    /**
     * The live files of the partitions in {@code scope}, keyed by store key: every partition the layout walk finds
     * for a full scope. A partial scope lists the day partition of each day it names an hour of: a day without one
     * resolves the named hours alone (one listing and one manifest read each); a day with one resolves whole (its
     * manifest read, one listing of the day's directory, the manifests of its hours not validly covered), because
     * its day files and their dead rows depend on every hour of the day. The result names the scope resolved: the
     * one the view's side of a comparison must cover.
     *
     * @throws dev.ourios.table.ManifestException if a partition's manifest is invalid: the view is not synced
     *     past data it cannot read correctly
     */
    public Resolved resolve(SyncScope scope) throws IOException {
        SortedMap<String, LiveFile> out = new TreeMap<>();
        int[] partitions = {0};
        if (scope.partitions().isEmpty()) {
            Map<DayPartition, DayState> days = new LinkedHashMap<>();
            layout.forEachPartition(PartitionFilter.all(), p -> {
                partitions[0]++;
                DayState day = days.get(DayPartition.of(p));
                PartitionSnapshot s = reader.hourSnapshot(p,
                        day == null ? DayCovers.none(DayPartition.of(p)) : day.covers);
                if (day != null) {
                    day.listed(p.hour(), s.isCovered());
                }
                s.live().forEach(o -> out.put(o.key(), new LiveFile(p, o)));
            }, d -> {
                partitions[0]++;
                days.put(d, DayState.read(reader, d));
            });
            for (DayState day : days.values()) {
                day.finish(out);
            }
            return new Resolved(out, partitions[0], scope);
        }
        List<PartitionKey> resolved = new ArrayList<>();
        for (DayPartition d : SyncScope.days(scope.partitions().get())) {
            DayState day = DayState.read(reader, d);
            if (day.covers.manifest().isEmpty()) {
                for (PartitionKey p : scope.partitions().get()) {
                    if (DayPartition.of(p).equals(d)) {
                        partitions[0]++;
                        resolved.add(p);
                        reader.hourSnapshot(p, day.covers).live().forEach(o -> out.put(o.key(), new LiveFile(p, o)));
                    }
                }
                continue;
            }
            partitions[0] += 1 + HOURS_PER_DAY;
            resolved.addAll(hoursOf(d));
            for (PartitionSnapshot s : reader.hourSnapshots(hoursOf(d), day.covers).values()) {
                day.listed(s.partition().hour(), s.isCovered());
                s.live().forEach(o -> out.put(o.key(), new LiveFile(s.partition(), o)));
            }
            day.finish(out);
        }
        return new Resolved(out, partitions[0], SyncScope.of(resolved));
    }

    /** One day partition as one generation of it stands, and the hours of the day found validly covered. */
    private static final class DayState {
        final DayPartition day;
        final DayCovers covers;
        final List<ObjectInfo> files;
        /** Hours whose directory a listing showed (the others are judged from an empty listing). */
        final SortedSet<Integer> listedHours = new TreeSet<>();
        final SortedSet<Integer> validHours = new TreeSet<>();

        private DayState(DayPartition day, DayCovers covers, List<ObjectInfo> files) {
            this.day = day;
            this.covers = covers;
            this.files = files;
        }

        void listed(int hour, boolean validlyCovered) {
            listedHours.add(hour);
            if (validlyCovered) {
                validHours.add(hour);
            }
        }

        static DayState read(TableReader reader, DayPartition day) throws IOException {
            PartitionSnapshot s = reader.daySnapshot(day);
            return new DayState(day, new DayCovers(day, s.currentManifest(), s.manifest()), s.live());
        }

        /**
         * Adds the day's live files with their dead hours. A covered hour the walk did not meet has no directory:
         * its cover is valid exactly when it was made at generation 0 (section 4.15).
         */
        void finish(SortedMap<String, LiveFile> out) {
            int dead = 0;
            List<Cover> all = covers.manifest().map(Manifest::covers).orElse(List.of());
            for (Cover c : all) {
                boolean valid = listedHours.contains(c.hour()) ? validHours.contains(c.hour())
                        : covers.validCover(c.hour(), List.of()).isPresent();
                if (!valid && c.rows() > 0) {
                    dead |= 1 << c.hour();
                }
            }
            for (ObjectInfo o : files) {
                out.put(o.key(), new LiveFile(day.label(), o, Optional.of(day), dead));
            }
        }
    }

    /** The 24 hours of {@code day}. */
    static List<PartitionKey> hoursOf(DayPartition day) {
        List<PartitionKey> out = new ArrayList<>();
        for (int h = 0; h < HOURS_PER_DAY; h++) {
            out.add(day.hour(h));
        }
        return out;
    }
}
