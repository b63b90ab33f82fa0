package dev.ourios.server.query;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where the next page of a truncated query starts: the effective time of the last row sent, and how many rows
 * with exactly that time were sent (in this page and the pages before it). The next page reads the same filters
 * with the time window closed at that time (newest first: up to and including it; oldest first: from it) and
 * skips those rows. Rows of one time come in one order (file, then row in the file) while the partition's live
 * set is unchanged; a compaction between two pages can reorder rows that share a nanosecond, so such rows may
 * repeat or be missed across that page boundary, never rows of other times.
 *
 * <p>Opaque to clients: base64url of {@code v1:<nanos>:<skip>}.
 */
record QueryCursor(long timeNanos, long skip) {
    private static final String VERSION = "v1";

    String encode() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((VERSION + ":" + timeNanos + ":" + skip)
                .getBytes(StandardCharsets.US_ASCII));
    }

    static QueryCursor decode(String text) {
        String plain;
        try {
            plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            throw BadRequest.field("cursor", "not a cursor this server issued");
        }
        String[] parts = plain.split(":");
        if (parts.length != 3 || !parts[0].equals(VERSION)) {
            throw BadRequest.field("cursor", "not a cursor this server issued");
        }
        try {
            long skip = Long.parseLong(parts[2]);
            if (skip < 0) {
                throw BadRequest.field("cursor", "not a cursor this server issued");
            }
            return new QueryCursor(Long.parseLong(parts[1]), skip);
        } catch (NumberFormatException e) {
            throw BadRequest.field("cursor", "not a cursor this server issued");
        }
    }
}
