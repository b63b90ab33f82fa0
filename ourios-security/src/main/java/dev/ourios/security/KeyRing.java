package dev.ourios.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys a running server accepts: the keys file as last read successfully, followed as it changes.
 *
 * <p>Every {@link #current()} call at most once per {@link #CHECK_INTERVAL} compares the file's size, modification
 * time and identity (inode) with what was last read, and re-reads it when they differ, so a key written by
 * {@code ourios keys new} or revoked by {@code ourios keys revoke} (both replace the file by a rename) counts within
 * about a second. {@link #reload()} re-reads unconditionally (SIGHUP). A file that no longer reads (bad JSON, a bad
 * entry, deleted) keeps the last good keys and logs one line per change of the file, never per request; the first
 * read, at {@link #open}, must succeed.
 */
public final class KeyRing {
    /** The most time between a change of the file and a request seeing it (besides the file system's clock). */
    public static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(KeyRing.class);

    /** What identifies one version of the file without reading it. */
    private record Stamp(boolean exists, long size, FileTime modified, Object fileKey) {
    }

    private final Path file;
    private final Clock clock;
    private final KeysFileCodec codec;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile KeysFile keys;
    private volatile Stamp seen;
    private volatile Instant nextCheck;

    private KeyRing(Path file, Clock clock, KeysFileCodec codec) {
        this.file = Objects.requireNonNull(file, "file");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** Reads the file; a missing, unreadable or invalid file is a {@link KeysFileException} naming it. */
    public static KeyRing open(Path file, Clock clock) {
        KeyRing ring = new KeyRing(file, clock, new KeysFileCodec());
        Stamp s = ring.stamp();
        if (!s.exists()) {
            throw new KeysFileException(file + ": no such keys file (create it with 'ourios keys new')");
        }
        ring.keys = ring.read();
        ring.seen = s;
        ring.nextCheck = clock.instant().plus(CHECK_INTERVAL);
        return ring;
    }

    public Path file() {
        return file;
    }

    /** The keys to decide a request with, re-read first if the file changed (checked at most once a second). */
    public KeysFile current() {
        Instant now = clock.instant();
        if (!now.isBefore(nextCheck) && lock.tryLock()) {
            // Other threads keep answering from the current keys while one looks at the file.
            try {
                nextCheck = now.plus(CHECK_INTERVAL);
                Stamp s = stamp();
                if (!s.equals(seen)) {
                    load(s);
                }
            } finally {
                lock.unlock();
            }
        }
        return keys;
    }

    /** Re-reads the file now, changed or not; false (and the last good keys kept) if it does not read. */
    public boolean reload() {
        lock.lock();
        try {
            nextCheck = clock.instant().plus(CHECK_INTERVAL);
            return load(stamp());
        } finally {
            lock.unlock();
        }
    }

    private boolean load(Stamp s) {
        seen = s; // taken before the read: a change during the read is seen at the next check
        try {
            if (!s.exists()) {
                throw new KeysFileException(file + ": the keys file is gone");
            }
            KeysFile read = read();
            keys = read;
            LOG.info("{}: keys file read: {} keys ({} revoked)", file, read.keys().size(),
                    read.keys().stream().filter(ApiKey::isRevoked).count());
            return true;
        } catch (KeysFileException e) {
            LOG.warn("{}; keeping the {} keys read before", e.getMessage(), keys.keys().size());
            return false;
        }
    }

    private KeysFile read() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new KeysFileException(file + ": no such keys file", e);
        } catch (IOException e) {
            throw new KeysFileException(file + ": cannot read the keys file: " + e.getMessage(), e);
        }
        return codec.decode(bytes, file.toString());
    }

    private Stamp stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(true, a.size(), a.lastModifiedTime(), a.fileKey());
        } catch (IOException e) {
            return new Stamp(false, -1, null, null);
        }
    }
}
