package dev.ourios.table;

import dev.ourios.core.FileNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds the manifest a commit (compaction, expiry or deletion) makes on top of the snapshot it planned from
 * (STORAGE.md §4.2 step 5).
 */
public final class NextManifest {
    private NextManifest() {
    }

    /**
     * Generation {@code snapshot.generation() + 1} with:
     * <ul>
     * <li>files = previous files − inputs + outputs (just the outputs when every live file was merged; a
     * previously named file that was not an input stays named, otherwise its rows would vanish; no output, as in an
     * expiry, adds nothing, so retiring every live file leaves {@code files: []});</li>
     * <li>main = the outputs in sort-key order when every live file was an input and the outputs are several (a
     * band, STORAGE.md §4.14); else the previous main when none of it is an input; else none;</li>
     * <li>retired = previous retired still present in the listing, plus previous retired ingest files even when
     * collected, + every input, retired at {@code commit.at()}. An absent compacted file is confirmed collected and
     * dropped, since nothing lands that name again. An ingest file's name is kept for the partition's life: a writer
     * that derives names from its input (the ingest write-ahead log's replay, {@code ourios ingest} re-run) may
     * land the same name again long after GC collected it, and a retired name keeps that copy out of the live set
     * (and tells the writer not to land it). The list grows by one entry per ingest file the partition ever
     * held.</li>
     * <li>When the snapshot is ruled by the reference implementation's {@code manifest.json} (this commit takes the
     * partition over, STORAGE.md §3.6), retired also holds every orphan of that listing except unnamed
     * {@code <uuidv7>.compacted.parquet} files (orphans by our rules too), at {@code commit.at()}: under our rules an
     * unnamed {@code <uuidv7>.parquet} would be a live ingest file, and retiring the orphans lets GC collect them
     * after the grace.</li>
     * </ul>
     *
     * @throws IllegalArgumentException if an input is not live in the snapshot, or the output name is in use
     */
    public static Manifest from(PartitionSnapshot snapshot, CommitRecord commit) {
        Set<String> live = snapshot.liveNames();
        for (String in : commit.inputs()) {
            if (!live.contains(in)) {
                throw new IllegalArgumentException("input '" + in + "' is not live in " + snapshot.partition()
                        + " at generation " + snapshot.generation());
            }
        }
        Manifest prev = snapshot.manifest().orElse(null);
        Set<String> inputs = new HashSet<>(commit.inputs());
        for (String out : commit.outputs()) {
            if (inputs.contains(out) || (prev != null
                    && (prev.fileNames().contains(out) || prev.retiredNames().contains(out)))) {
                throw new IllegalArgumentException("output '" + out + "' is already named in "
                        + snapshot.partition() + " at generation " + snapshot.generation());
            }
        }
        List<String> files = new ArrayList<>();
        List<Retired> retired = new ArrayList<>();
        if (prev != null) {
            prev.files().stream().filter(f -> !inputs.contains(f)).forEach(files::add);
            prev.retired().stream().filter(r -> FileNames.isIngestFile(r.file()) || snapshot.isPresent(r.file()))
                    .forEach(retired::add);
        }
        files.addAll(commit.outputs());
        files.sort(null);
        List<String> main = List.of();
        if (commit.outputs().size() > 1 && inputs.equals(live)) {
            main = commit.outputs();
        } else if (prev != null && prev.main().stream().noneMatch(inputs::contains)) {
            main = prev.main();
        }
        Instant at = commit.at();
        commit.inputs().forEach(in -> retired.add(new Retired(in, at)));
        if (snapshot.ruledByReference()) {
            referenceOrphans(snapshot).forEach(n -> retired.add(new Retired(n, at)));
        }
        retired.sort(Comparator.comparing(Retired::file));
        return Manifest.of(snapshot.generation() + 1, files, retired, commit, main);
    }

    /**
     * The manifest that takes a partition ruled by the reference implementation's {@code manifest.json} over without
     * changing its live set (STORAGE.md §3.6): generation {@code snapshot.generation() + 1}, {@code files} = the
     * reference files, {@code retired} = the reference orphans (except unnamed compacted files) at {@code at}, and
     * no commit record, since no row moves.
     *
     * @throws IllegalArgumentException if the snapshot is not ruled by {@code manifest.json}
     */
    public static Manifest takeover(PartitionSnapshot snapshot, Instant at) {
        if (!snapshot.ruledByReference()) {
            throw new IllegalArgumentException(snapshot.partition() + " is not ruled by the reference manifest");
        }
        List<String> files = new ArrayList<>(snapshot.manifest().orElseThrow().files());
        files.sort(null);
        List<Retired> retired = new ArrayList<>();
        referenceOrphans(snapshot).forEach(n -> retired.add(new Retired(n, at)));
        retired.sort(Comparator.comparing(Retired::file));
        return Manifest.of(snapshot.generation() + 1, files, retired, null);
    }

    /**
     * The orphans of a reference-ruled snapshot that a takeover retires: every one but unnamed
     * {@code <uuidv7>.compacted.parquet} files and share records, which stay orphans under our rules too.
     */
    private static List<String> referenceOrphans(PartitionSnapshot snapshot) {
        return snapshot.orphans().stream().map(o -> o.name()).filter(n -> !FileNames.isCompactedFile(n) && !FileNames.isShareRecord(n))
                .toList();
    }
}
