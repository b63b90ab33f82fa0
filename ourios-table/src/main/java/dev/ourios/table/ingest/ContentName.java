package dev.ourios.table.ingest;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * The name of a content-addressed ingest file: a canonical UUIDv7 (storage.md, section 1) whose time part is the
 * partition's hour start and whose other bits are SHA-256 of {@code tenant \0 hour label \0 file bytes}. The same
 * rows written by the same writer give the same bytes and so the same name, which makes landing them again a
 * no-op under create-only publish.
 */
final class ContentName {
    private ContentName() {
    }

    static String of(PartitionKey partition, byte[] fileBytes) {
        byte[] h;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((partition.tenantId() + "\0" + partition.hourLabel() + "\0").getBytes(StandardCharsets.UTF_8));
            h = sha.digest(fileBytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
        ByteBuffer bb = ByteBuffer.wrap(h);
        long millis = partition.hourStart().toEpochMilli();
        long msb = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (bb.getShort() & 0x0FFFL);
        long lsb = (bb.getLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb) + FileNames.PARQUET;
    }
}
