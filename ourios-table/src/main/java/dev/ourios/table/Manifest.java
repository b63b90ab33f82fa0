package dev.ourios.table;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One generation of a partition's manifest (STORAGE.md §3). The object {@code manifest.<generation>.json} is
 * created once and never rewritten; the highest generation present is the current one.
 *
 * <p>Construction only normalises nulls and copies lists; the rules (names, duplicates, generation vs object
 * name) need the object's key for their messages and live in {@link ManifestValidator}.
 *
 * @param format     always {@link #FORMAT} for manifests we can read
 * @param generation matches the generation in the object's name; at least 1 (the reference implementation's
 *                   {@code manifest.json}, read as a manifest by {@link ReferenceManifest#asManifest()}, has no
 *                   generation in its name and may be at 0)
 * @param files      compacted (or hand-named) files that are live
 * @param retired    files taken out of the live set, kept until the grace period has passed
 * @param commit     the commit that created this manifest as recorded in it (any field may be missing from a record
 *                   another tool or a person wrote), or null when the manifest has no commit record
 * @param main       the partition's main files when they are several (a band, STORAGE.md §4.14), in sort-key
 *                   order; empty otherwise. Advisory for the compaction policy; the live set never depends on it
 * @param covers     a day partition's covers (STORAGE.md §4.15), sorted by hour; empty otherwise
 */
public record Manifest(int format, long generation, List<String> files, List<Retired> retired, RecordedCommit commit,
        List<String> main, List<Cover> covers) {
    public static final int FORMAT = 1;

    public Manifest {
        Objects.requireNonNull(files, "files is null");
        files = List.copyOf(files);
        retired = retired == null ? List.of() : List.copyOf(retired);
        main = main == null ? List.of() : List.copyOf(main);
        covers = covers == null ? List.of() : List.copyOf(covers);
    }

    /** A manifest that covers no hour (every hour partition's). */
    public Manifest(int format, long generation, List<String> files, List<Retired> retired, RecordedCommit commit,
            List<String> main) {
        this(format, generation, files, retired, commit, main, List.of());
    }

    /** A manifest without main files of its own (at most one main file, found by size). */
    public Manifest(int format, long generation, List<String> files, List<Retired> retired, RecordedCommit commit) {
        this(format, generation, files, retired, commit, List.of());
    }

    /** A manifest this build writes: its commit record, if any, is complete. */
    public static Manifest of(long generation, List<String> files, List<Retired> retired, CommitRecord commit) {
        return of(generation, files, retired, commit, List.of());
    }

    /** A manifest this build writes, naming its band of main files ({@code main}: none, or at least two). */
    public static Manifest of(long generation, List<String> files, List<Retired> retired, CommitRecord commit,
            List<String> main) {
        return new Manifest(FORMAT, generation, files, retired, commit == null ? null : RecordedCommit.of(commit),
                main);
    }

    /** A day partition's manifest this build writes, with its covers (sorted by hour). */
    public static Manifest ofDay(long generation, List<String> files, List<Retired> retired, CommitRecord commit,
            List<String> main, List<Cover> covers) {
        return new Manifest(FORMAT, generation, files, retired, commit == null ? null : RecordedCommit.of(commit),
                main, covers);
    }

    /** The cover of hour {@code hour} (0 to 23), if this manifest has one. */
    public Optional<Cover> cover(int hour) {
        for (Cover c : covers) { // a loop: a query asks this for every hour of its window
            if (c.hour() == hour) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    public Optional<RecordedCommit> commitRecord() {
        return Optional.ofNullable(commit);
    }

    public Set<String> fileNames() {
        return new LinkedHashSet<>(files);
    }

    public Set<String> retiredNames() {
        Set<String> out = new LinkedHashSet<>();
        retired.forEach(r -> out.add(r.file()));
        return out;
    }
}
