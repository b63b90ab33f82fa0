package dev.ourios.bench;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.QuietListings;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * Waits, before a warm query is timed, until every directory of the local stores it reads has been unchanged for
 * the quiet period of {@link QuietListings}: a warm engine (as {@code ourios serve} composes it) keeps the listings
 * of such directories, as it does for a sealed partition between sweeps. A fixture compacted a moment ago would
 * otherwise be timed partly before and partly after its directories became quiet.
 */
final class QuietStores {
    private QuietStores() {
    }

    static void await(ObjectStore... stores) throws IOException {
        Instant latest = Instant.EPOCH;
        for (ObjectStore s : stores) {
            if (s instanceof LocalObjectStore local) {
                latest = max(latest, latestChange(local.root()));
            }
        }
        Duration left = Duration.between(Instant.now(), latest.plus(QuietListings.DEFAULT_QUIET).plusMillis(100));
        if (left.isNegative()) {
            return;
        }
        try {
            Thread.sleep(left.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the stores to be quiet");
        }
    }

    private static Instant latestChange(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isDirectory).map(QuietStores::modified).reduce(Instant.EPOCH, QuietStores::max);
        }
    }

    private static Instant modified(Path dir) {
        try {
            return Files.getLastModifiedTime(dir).toInstant();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
