package dev.ourios.store;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store whose directory listings are kept while the directory does not change: for a reader that lists the same
 * sealed partitions on every query (a query engine in {@code ourios serve}), one stat of a directory then stands in
 * for reading it and stat'ing each entry.
 *
 * <p>Every listing first takes the directory's {@link DirectoryStamp} and serves the kept listing when the stamp is
 * the one it was kept with. A listing is kept only when its directory's entries last changed at least the quiet
 * period before the stamp was taken: a change made after that stamp (an entry added, removed or renamed) sets the
 * directory's modification time to a time at or after the stamp was taken, less the file system's timestamp
 * granularity, which the quiet period exceeds; so the changed directory's stamp differs from the kept one. The stamp
 * is taken before the listing, so a change during the listing leaves the kept listing stale only until that stamp
 * is compared again, which then differs. The argument needs the file system's clock and this process's to agree
 * within the quiet period (one machine's local disk).
 *
 * <p>Only the entries' presence is certain: an entry written in place (its size or modification time changed
 * without renaming) keeps its old attributes in a kept listing. This store's objects are renamed into place
 * complete, so a reader of live files sees their sizes right; a caller that decides on the attributes of entries
 * still being written (garbage collection ages temporary files by their modification time) must not use this store.
 * Where the delegate has no stamps (S3), every call goes to it. A directory's time set back on purpose to the very
 * instant of a kept stamp ({@code touch -d}) defeats the check; nothing in this store does that.
 *
 * <p>Where the delegate brackets every change of a directory's entries by a change mark in its parent
 * ({@link ObjectStore#marksChanges}, docs/spec/storage.md 3.4), a tree listing also keeps, for each sub-directory
 * without sub-directories of its own (an hour of a day), its objects under its parent's stamp, taken before they were
 * listed or checked: while the parent's stamp is unchanged, a change of that sub-directory's entries would have
 * changed it, so its objects are served again without a stat of their directory. A day's tree then costs one stat.
 */
public final class QuietListings extends ForwardingObjectStore {
    /** Listing entries kept, across directories: about 250 bytes each with their keys, so about 16 MiB. */
    public static final long DEFAULT_MAX_ENTRIES = 65_536;
    /** How long a directory's entries must have been unchanged for its listing to be kept. */
    public static final Duration DEFAULT_QUIET = Duration.ofSeconds(5);

    private final Kept<ObjectInfo> objects;
    private final Kept<String> directories;
    /** Objects of leaf sub-directories, each kept under its parent's stamp (see the class comment). */
    private final Kept<ObjectInfo> leaves;
    /** Leaf listings served under their parent's stamp, without a stat of their own. */
    private final java.util.concurrent.atomic.LongAdder leavesServed = new java.util.concurrent.atomic.LongAdder();
    private final Duration quiet;
    private final Clock clock;

    /** Keeps up to {@code maxEntries} listing entries of directories quiet for {@code quiet} by {@code clock}. */
    public QuietListings(ObjectStore delegate, long maxEntries, Duration quiet, Clock clock) {
        super(Objects.requireNonNull(delegate, "delegate"));
        if (quiet.isNegative() || quiet.isZero()) {
            throw new IllegalArgumentException("quiet period must be positive, got " + quiet);
        }
        if (maxEntries < 0) {
            throw new IllegalArgumentException("listing entries kept must be >= 0, got " + maxEntries);
        }
        this.objects = new Kept<>(maxEntries);
        this.directories = new Kept<>(maxEntries);
        this.leaves = new Kept<>(maxEntries);
        this.quiet = quiet;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The defaults: {@link #DEFAULT_MAX_ENTRIES}, {@link #DEFAULT_QUIET}, the system clock. */
    public static QuietListings over(ObjectStore delegate) {
        return new QuietListings(delegate, DEFAULT_MAX_ENTRIES, DEFAULT_QUIET, Clock.systemUTC());
    }

    @Override
    public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
        Optional<DirectoryStamp> stamp = delegate.directoryStamp(dirPrefix);
        return stamp.isEmpty() ? delegate.listObjects(dirPrefix) : objects(dirPrefix, stamp.get());
    }

    @Override
    public List<String> listDirectories(String dirPrefix) throws IOException {
        Optional<DirectoryStamp> stamp = delegate.directoryStamp(dirPrefix);
        return stamp.isEmpty() ? delegate.listDirectories(dirPrefix) : directories(dirPrefix, stamp.get());
    }

    /**
     * The tree composed of this store's listings of each directory in it (kept or fresh, as above, one stamp per
     * directory for both its objects and its sub-directories), as {@link ObjectStore#listTree}'s default composes
     * it: a directory added under a listed one changes that one's stamp, so the composition finds it.
     */
    @Override
    public List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        Optional<DirectoryStamp> stamp = delegate.directoryStamp(dirPrefix);
        if (stamp.isEmpty()) {
            return delegate.listTree(dirPrefix);
        }
        List<ObjectInfo> out = new ArrayList<>();
        addTree(dirPrefix, stamp.get(), out);
        out.sort(Comparator.comparing(ObjectInfo::key));
        return out;
    }

    private void addTree(String dirPrefix, DirectoryStamp stamp, List<ObjectInfo> out) throws IOException {
        addEntries(dirPrefix, stamp, objects(dirPrefix, stamp), directories(dirPrefix, stamp), out);
    }

    /** Adds {@code dirPrefix}'s objects and its sub-directories' trees; {@code stamp} was taken before either listing. */
    private void addEntries(String dirPrefix, DirectoryStamp stamp, List<ObjectInfo> dirObjects,
            List<String> subDirectories, List<ObjectInfo> out) throws IOException {
        out.addAll(dirObjects);
        // The parent's stamp vouches for its leaves only when quiet, as a kept listing's own stamp must be.
        boolean vouches = marksChanges() && quiet(stamp);
        for (String dir : subDirectories) {
            String sub = dirPrefix + dir + "/";
            List<ObjectInfo> leaf = vouches ? leaves.get(sub, stamp) : null;
            if (leaf != null) {
                out.addAll(leaf);
                leavesServed.increment();
                continue;
            }
            Optional<DirectoryStamp> subStamp = delegate.directoryStamp(sub);
            if (subStamp.isEmpty()) {
                continue; // gone since its parent was listed: not part of the tree
            }
            List<ObjectInfo> subObjects = objects(sub, subStamp.get());
            List<String> below = directories(sub, subStamp.get());
            if (vouches && below.isEmpty()) {
                leaves.put(sub, stamp, subObjects); // checked or listed after the parent's stamp was taken
            }
            addEntries(sub, subStamp.get(), subObjects, below, out);
        }
    }

    /** How many times a leaf directory's objects were served under its parent's stamp, without its own stat. */
    public long leavesServed() {
        return leavesServed.sum();
    }

    /** Listing entries kept now, over every kind of listing. */
    public long keptEntries() {
        return objects.weight() + directories.weight() + leaves.weight();
    }

    /** The objects of {@code dirPrefix}, whose stamp (taken before this call) is {@code stamp}. */
    private List<ObjectInfo> objects(String dirPrefix, DirectoryStamp stamp) throws IOException {
        return listing(objects, dirPrefix, stamp, delegate::listObjects);
    }

    /** The sub-directories of {@code dirPrefix}, whose stamp (taken before this call) is {@code stamp}. */
    private List<String> directories(String dirPrefix, DirectoryStamp stamp) throws IOException {
        return listing(directories, dirPrefix, stamp, delegate::listDirectories);
    }

    /** A listing of {@code dirPrefix} from {@code kept} when kept under {@code stamp}, else listed and kept if quiet. */
    private <T> List<T> listing(Kept<T> kept, String dirPrefix, DirectoryStamp stamp, Lister<T> list)
            throws IOException {
        List<T> known = kept.get(dirPrefix, stamp);
        if (known != null) {
            return new ArrayList<>(known); // the caller's own list, as a fresh listing is
        }
        List<T> listing = list.list(dirPrefix);
        if (quiet(stamp)) {
            kept.put(dirPrefix, stamp, listing);
        }
        return listing;
    }

    /** One kind of listing of the delegate. */
    @FunctionalInterface
    private interface Lister<T> {
        List<T> list(String dirPrefix) throws IOException;
    }

    private boolean quiet(DirectoryStamp stamp) {
        Instant now = clock.instant();
        return !stamp.modified().plus(quiet).isAfter(now);
    }

    /**
     * Listings by directory, each with the stamp it was taken under, at most {@code maxWeight} entries in all. A
     * concurrent map, read without a lock by the threads of a query's partition pool (an access-ordered map under
     * one lock made every hit a write); beyond the bound, listings are dropped in no particular order.
     */
    private static final class Kept<T> {
        private record Listing<T>(DirectoryStamp stamp, List<T> entries) {
        }

        private final ConcurrentHashMap<String, Listing<T>> byDirectory = new ConcurrentHashMap<>();
        private final AtomicLong weight = new AtomicLong();
        private final long maxWeight;

        Kept(long maxWeight) {
            this.maxWeight = maxWeight;
        }

        /** The listing kept for {@code dir} under {@code stamp}, or null. */
        List<T> get(String dir, DirectoryStamp stamp) {
            Listing<T> l = byDirectory.get(dir);
            return l != null && l.stamp().equals(stamp) ? l.entries() : null;
        }

        void put(String dir, DirectoryStamp stamp, List<T> entries) {
            long w = entries.size() + 1L;
            if (w > maxWeight) {
                return;
            }
            Listing<T> old = byDirectory.put(dir, new Listing<>(stamp, List.copyOf(entries)));
            weight.addAndGet(w - (old == null ? 0 : old.entries().size() + 1L));
            Iterator<Map.Entry<String, Listing<T>>> it = byDirectory.entrySet().iterator();
            while (weight.get() > maxWeight && it.hasNext()) {
                Map.Entry<String, Listing<T>> e = it.next();
                if (byDirectory.remove(e.getKey(), e.getValue())) {
                    weight.addAndGet(-(e.getValue().entries().size() + 1L));
                }
            }
        }

        long weight() {
            return weight.get();
        }
    }
}
