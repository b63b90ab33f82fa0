package dev.ourios.store;

import dev.ourios.core.WeightedLru;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
 */
public final class QuietListings extends ForwardingObjectStore {
    /** Listing entries kept, across directories: about 250 bytes each with their keys, so about 16 MiB. */
    public static final long DEFAULT_MAX_ENTRIES = 65_536;
    /** How long a directory's entries must have been unchanged for its listing to be kept. */
    public static final Duration DEFAULT_QUIET = Duration.ofSeconds(5);

    private final WeightedLru<String, Kept<ObjectInfo>> objects;
    private final WeightedLru<String, Kept<String>> directories;
    private final Duration quiet;
    private final Clock clock;

    private record Kept<T>(DirectoryStamp stamp, List<T> listing) {
    }

    /** Keeps up to {@code maxEntries} listing entries of directories quiet for {@code quiet} by {@code clock}. */
    public QuietListings(ObjectStore delegate, long maxEntries, Duration quiet, Clock clock) {
        super(Objects.requireNonNull(delegate, "delegate"));
        if (quiet.isNegative() || quiet.isZero()) {
            throw new IllegalArgumentException("quiet period must be positive, got " + quiet);
        }
        this.objects = new WeightedLru<>(maxEntries);
        this.directories = new WeightedLru<>(maxEntries);
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
        if (stamp.isEmpty()) {
            return delegate.listObjects(dirPrefix);
        }
        Optional<Kept<ObjectInfo>> kept = objects.get(dirPrefix);
        if (kept.isPresent() && kept.get().stamp().equals(stamp.get())) {
            return new ArrayList<>(kept.get().listing()); // the caller's own list, as a fresh listing is
        }
        List<ObjectInfo> listing = delegate.listObjects(dirPrefix);
        if (quiet(stamp.get())) {
            objects.put(dirPrefix, new Kept<>(stamp.get(), List.copyOf(listing)), listing.size() + 1L);
        }
        return listing;
    }

    @Override
    public List<String> listDirectories(String dirPrefix) throws IOException {
        Optional<DirectoryStamp> stamp = delegate.directoryStamp(dirPrefix);
        if (stamp.isEmpty()) {
            return delegate.listDirectories(dirPrefix);
        }
        Optional<Kept<String>> kept = directories.get(dirPrefix);
        if (kept.isPresent() && kept.get().stamp().equals(stamp.get())) {
            return new ArrayList<>(kept.get().listing());
        }
        List<String> listing = delegate.listDirectories(dirPrefix);
        if (quiet(stamp.get())) {
            directories.put(dirPrefix, new Kept<>(stamp.get(), List.copyOf(listing)), listing.size() + 1L);
        }
        return listing;
    }

    /**
     * The tree composed of this store's listings of each directory in it (kept or fresh, as above), as
     * {@link ObjectStore#listTree}'s default composes it: a directory added under a listed one changes that one's
     * stamp, so the composition finds it.
     */
    @Override
    public List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        if (delegate.directoryStamp(dirPrefix).isEmpty()) {
            return delegate.listTree(dirPrefix);
        }
        List<ObjectInfo> out = new ArrayList<>();
        addTree(dirPrefix, out);
        out.sort(Comparator.comparing(ObjectInfo::key));
        return out;
    }

    private void addTree(String dirPrefix, List<ObjectInfo> out) throws IOException {
        out.addAll(listObjects(dirPrefix));
        for (String dir : listDirectories(dirPrefix)) {
            addTree(dirPrefix + dir + "/", out);
        }
    }

    /** Listing entries kept now, over both kinds of listing. */
    public long keptEntries() {
        return objects.weight() + directories.weight();
    }

    private boolean quiet(DirectoryStamp stamp) {
        Instant now = clock.instant();
        return !stamp.modified().plus(quiet).isAfter(now);
    }
}
