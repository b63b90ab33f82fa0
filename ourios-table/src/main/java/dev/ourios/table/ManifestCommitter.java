package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a new manifest generation with a create-only put (STORAGE.md §3, §4): the object
 * {@code manifest.<N+1>.json} either did not exist and is now ours, or someone else's is there and we lost. Never
 * overwrites, never locks.
 */
public final class ManifestCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(ManifestCommitter.class);

    private static final Duration NO_AGE_BOUND = Duration.ofDays(36_500);

    private final ObjectStore store;
    private final ManifestCodec codec;
    private final Clock clock;
    private final Duration maxOutputAge;
    private final LiveSetChanges changes;

    /**
     * @param maxOutputAge the oldest an unnamed output may be when it is committed. GC deletes unnamed compacted
     *                     files older than its grace; committing one that old could publish a manifest naming a file
     *                     GC is deleting. Use at most half the GC grace, which leaves the other half as margin for a
     *                     GC pass that listed before this commit and deletes after it, and for clock skew.
     */
    public ManifestCommitter(ObjectStore store, ManifestCodec codec, Clock clock, Duration maxOutputAge) {
        this(store, codec, clock, maxOutputAge, LiveSetChanges.NONE);
    }

    /**
     * As above, telling {@code changes} of every partition whose manifest this committer created, or may have
     * created (an unknown outcome).
     */
    public ManifestCommitter(ObjectStore store, ManifestCodec codec, Clock clock, Duration maxOutputAge,
            LiveSetChanges changes) {
        this.changes = Objects.requireNonNull(changes, "changes is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.codec = Objects.requireNonNull(codec, "codec is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.maxOutputAge = Objects.requireNonNull(maxOutputAge, "maxOutputAge is null");
        if (maxOutputAge.isNegative() || maxOutputAge.isZero()) {
            throw new IllegalArgumentException("max output age must be positive, got " + maxOutputAge);
        }
    }

    /** A committer whose output-age bound is half of the GC grace. */
    public static ManifestCommitter forGcGrace(ObjectStore store, ManifestCodec codec, Clock clock, Duration gcGrace) {
        return forGcGrace(store, codec, clock, gcGrace, LiveSetChanges.NONE);
    }

    /** As above, telling {@code changes} of every partition it commits. */
    public static ManifestCommitter forGcGrace(ObjectStore store, ManifestCodec codec, Clock clock, Duration gcGrace,
            LiveSetChanges changes) {
        // A zero grace (tests, debugging) means GC may collect any unnamed output at once: no age bound can make
        // that safe, so none is applied; the missing-file check before the create still refuses a collected output.
        Duration bound = gcGrace.isZero() ? NO_AGE_BOUND : gcGrace.dividedBy(2);
        return new ManifestCommitter(store, codec, clock, bound, changes);
    }


    /**
     * Creates {@code manifest.<expectedCurrentGeneration + 1>.json} holding {@code next}.
     *
     * @throws IllegalArgumentException if {@code next.generation()} is not {@code expectedCurrentGeneration + 1}
     * @throws ManifestException        if {@code next} is invalid (nothing is written)
     */
    public CommitResult commit(PartitionKey partition, long expectedCurrentGeneration, Manifest next)
            throws IOException {
        CommitResult r = commitAt(partition, partition.dataPrefix(), expectedCurrentGeneration, next);
        if (r.status() == CommitResult.Status.COMMITTED || r.status() == CommitResult.Status.UNKNOWN) {
            // An unknown outcome may be a commit: a mirror that reads the partition again loses nothing.
            changes.changed(partition);
        }
        return r;
    }

    /**
     * As above for the directory {@code prefix} that keeps files and manifests as a partition does (a day partition,
     * an audit day); {@code partition} names it in the result and in messages. A day partition's commits are told to
     * the {@link LiveSetChanges} as {@code partition} (its day's first hour: a mirror resolves the day whole); an
     * audit day holds no log rows, so its commits are not.
     */
    public CommitResult commit(PartitionKey partition, String prefix, long expectedCurrentGeneration, Manifest next)
            throws IOException {
        CommitResult r = commitAt(partition, prefix, expectedCurrentGeneration, next);
        if (prefix.equals(DayPartition.of(partition).prefix())
                && (r.status() == CommitResult.Status.COMMITTED || r.status() == CommitResult.Status.UNKNOWN)) {
            changes.changed(partition);
        }
        return r;
    }

    private CommitResult commitAt(PartitionKey partition, String prefix, long expectedCurrentGeneration,
            Manifest next) throws IOException {
        long gen = expectedCurrentGeneration + 1;
        if (next.generation() != gen) {
            throw new IllegalArgumentException("next manifest has generation " + next.generation() + ", expected "
                    + gen + " on top of " + expectedCurrentGeneration);
        }
        String key = prefix + FileNames.manifestName(gen);
        byte[] bytes = codec.encode(key, next);

        List<ObjectInfo> listing = store.listObjects(prefix);
        Map<String, ObjectInfo> byName = new HashMap<>();
        long highest = 0;
        for (ObjectInfo o : listing) {
            byName.put(o.name(), o);
            highest = Math.max(highest, ManifestKeys.generationOfName(o.name()));
        }
        if (highest >= gen) {
            // Also catches a commit planned so long ago that generation N+1 was committed, superseded and collected.
            return result(CommitResult.Status.LOST, partition, gen, key,
                    "generation " + highest + " already exists");
        }
        for (String f : next.files()) {
            if (!byName.containsKey(f)) {
                return result(CommitResult.Status.REJECTED, partition, gen, key, "'" + f + "' is not present");
            }
        }
        // The encode above refused an incomplete commit record, so a record here names its output.
        Optional<String> output = next.commitRecord().flatMap(RecordedCommit::output);
        if (output.isPresent()) {
            Instant now = clock.instant();
            ObjectInfo out = byName.get(output.get());
            if (out == null) {
                return result(CommitResult.Status.REJECTED, partition, gen, key,
                        "output '" + output.get() + "' is not present");
            }
            if (Duration.between(out.lastModified(), now).compareTo(maxOutputAge) > 0) {
                return result(CommitResult.Status.REJECTED, partition, gen, key, "output '" + out.name()
                        + "' was written at " + out.lastModified() + ", more than " + maxOutputAge
                        + " ago; GC may already be collecting it");
            }
        }

        boolean expiry = next.commitRecord().flatMap(RecordedCommit::commitKind).orElse(null) == CommitKind.EXPIRE;
        if (prefix.equals(partition.dataPrefix()) && !expiry) {
            // An expiry empties the hour whichever files hold its rows, so it may void a cover (storage.md 4.15).
            Optional<CommitResult> covered = coverCheck(partition, expectedCurrentGeneration, gen, key);
            if (covered.isPresent()) {
                return covered.get();
            }
        }

        boolean created;
        try {
            created = store.putIfAbsent(key, bytes);
        } catch (IOException e) {
            return readBack(partition, gen, key, bytes, e);
        }
        if (!created) {
            return result(CommitResult.Status.LOST, partition, gen, key, "generation " + gen + " already exists");
        }
        LOG.info("committed {} generation {}: {} file(s), {} retired", partition, gen, next.files().size(),
                next.retired().size());
        return new CommitResult(CommitResult.Status.COMMITTED, partition, gen, key, "");
    }

    /**
     * The hour committer's cover check (STORAGE.md §4.15): when the day partition's current manifest covers this hour
     * at the generation the commit was planned on, the day took the hour's rows first and the commit lost the race; a
     * commit on top of the cover would void it while the day already holds those rows, which is allowed only for a
     * commit planned before the cover (the race the day's create decides). An invalid day manifest refuses the
     * commit: whether the hour is covered cannot be known.
     */
    private Optional<CommitResult> coverCheck(PartitionKey partition, long planned, long gen, String key)
            throws IOException {
        DayPartition day = DayPartition.of(partition);
        Optional<ObjectInfo> dayManifest = LiveSetResolver.highestManifest(store.listObjects(day.prefix()));
        if (dayManifest.isEmpty()) {
            return Optional.empty();
        }
        Manifest m;
        try {
            m = codec.decode(dayManifest.get().key(), store.readAllBytes(dayManifest.get().key()));
        } catch (ManifestException e) {
            return Optional.of(result(CommitResult.Status.REJECTED, partition, gen, key,
                    "the day partition's manifest is unusable: " + e.getMessage()));
        }
        Optional<Cover> cover = m.cover(partition.hour());
        if (cover.isPresent() && cover.get().generation() == planned) {
            return Optional.of(result(CommitResult.Status.LOST, partition, gen, key,
                    "the hour is covered by its day partition at generation " + planned));
        }
        return Optional.empty();
    }

    /**
     * The create failed with an I/O error, which may have happened after the object was published. Our bytes are
     * deterministic and unique to this commit (they name our output), so reading the object back decides it.
     */
    private CommitResult readBack(PartitionKey partition, long gen, String key, byte[] ours, IOException cause) {
        try {
            if (store.stat(key).isPresent()) {
                byte[] there = store.readAllBytes(key);
                return Arrays.equals(there, ours)
                        ? new CommitResult(CommitResult.Status.COMMITTED, partition, gen, key, "")
                        : result(CommitResult.Status.LOST, partition, gen, key, "generation " + gen + " already exists");
            }
        } catch (IOException again) {
            cause.addSuppressed(again);
        }
        LOG.warn("commit of {} generation {} has an unknown outcome", partition, gen, cause);
        return result(CommitResult.Status.UNKNOWN, partition, gen, key, String.valueOf(cause.getMessage()));
    }

    private static CommitResult result(CommitResult.Status status, PartitionKey partition, long gen, String key,
            String detail) {
        LOG.info("commit of {} generation {}: {} ({})", partition, gen, status, detail);
        return new CommitResult(status, partition, gen, key, detail);
    }
}
