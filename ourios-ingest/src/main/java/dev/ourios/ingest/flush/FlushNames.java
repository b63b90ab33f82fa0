package dev.ourios.ingest.flush;

import dev.ourios.core.PartitionKey;
import dev.ourios.ingest.wal.Segment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * The name of the ingest file a flush writes: a UUIDv7 (so the store's naming rules hold) whose timestamp is the
 * segment's creation time and whose other bits are a SHA-256 of (segment id, partition, sequence). A replay of the
 * same segment therefore computes the same names, and the create-only publish turns a repeated flush into a no-op.
 */
public final class FlushNames {
    private FlushNames() {
    }

    public static UUID of(Segment segment, PartitionKey partition, int sequence) {
        byte[] h = sha256(segment.id() + "\n" + partition.path() + "\n" + sequence);
        ByteBuffer b = ByteBuffer.wrap(h);
        long hi = b.getLong();
        long lo = b.getLong();
        long msb = (segment.createdMillis() & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (hi & 0x0FFFL);
        long lsb = (lo & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
