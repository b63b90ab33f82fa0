package dev.ourios.ingest.wal;

import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One segment file, {@code <20-digit sequence>-<uuidv7>.wal}. The sequence orders segments within one WAL
 * directory; the UUID makes the segment unique across every WAL that writes into the same store, so names derived
 * from it (the flushed files') never collide with another ingester's.
 */
public record Segment(Path path, long sequence, UUID id) {
    private static final Pattern NAME = Pattern.compile("(\\d{20})-([0-9a-f-]{36})\\.wal");

    public static String name(long sequence, UUID id) {
        return String.format("%020d-%s.wal", sequence, id);
    }

    public static Optional<Segment> parse(Path path) {
        Matcher m = NAME.matcher(path.getFileName().toString());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Segment(path, Long.parseLong(m.group(1)), UUID.fromString(m.group(2))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The segment's creation time, from its UUIDv7. */
    public long createdMillis() {
        return id.getMostSignificantBits() >>> 16;
    }
}
