package dev.ourios.parquet.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * A file's token index (docs/spec/storage.md, "Token index"): the filters of its row groups, concatenated in group
 * order, with each one's length (0: the group has no filter and is scanned). Stored as a region of the Parquet file
 * before its footer, located by the footer's key_value_metadata entry {@link #KEY}, whose value is the
 * {@link #descriptor}: {@code v1 <offset> <crc32c hex> <len0>,<len1>,…}. Internal to ourios-parquet (public for the
 * {@code write} and {@code read} packages).
 */
public final class TokenIndexRegion implements java.io.Closeable {
    /** The footer key_value_metadata key naming the index. */
    public static final String KEY = "ourios.token_index";
    static final String VERSION = "v1";

    private final RegionSpool bytes;
    private final int[] lengths;

    /** The region held by {@code bytes} (taken over: closing the region closes it), with each group's length. */
    TokenIndexRegion(RegionSpool bytes, int[] lengths) {
        this.bytes = bytes;
        this.lengths = lengths.clone();
    }

    /** The number of bytes of the region. */
    public long size() {
        return bytes.size();
    }

    /** Each group's filter length, in group order. */
    public int[] lengths() {
        return lengths.clone();
    }

    /** Writes the region's bytes to {@code sink}, in order. */
    public void copyTo(RegionSpool.Sink sink) throws IOException {
        bytes.copyTo(sink);
    }

    /** The descriptor of this region written at file offset {@code offset}. */
    public String descriptor(long offset) {
        StringBuilder b = new StringBuilder(VERSION).append(' ').append(offset).append(' ')
                .append(Long.toHexString(bytes.crc32c())).append(' ');
        for (int i = 0; i < lengths.length; i++) {
            b.append(i == 0 ? "" : ",").append(lengths[i]);
        }
        return b.toString();
    }

    /** Frees the region's spool (its scratch file, if any). */
    @Override
    public void close() throws IOException {
        bytes.close();
    }

    /** Where a descriptor says the region is: offset, total length, checksum and each group's filter length. */
    public record Location(long offset, long length, long crc32c, int[] lengths) {
        public Location {
            lengths = lengths.clone();
        }

        @Override
        public int[] lengths() {
            return lengths.clone();
        }

        /**
         * Parses a descriptor of a file of {@code fileLength} bytes and {@code groups} row groups; empty when it is
         * not a v1 descriptor that fits the file (an index of another version, or damaged, is not used: the file is
         * scanned).
         */
        public static Optional<Location> parse(String descriptor, long fileLength, int groups) {
            if (descriptor == null) {
                return Optional.empty();
            }
            String[] parts = descriptor.split(" ", -1);
            if (parts.length != 4 || !parts[0].equals(VERSION)) {
                return Optional.empty();
            }
            try {
                long offset = Long.parseLong(parts[1]);
                long crc = Long.parseUnsignedLong(parts[2], 16);
                String[] ls = parts[3].isEmpty() ? new String[0] : parts[3].split(",", -1);
                if (ls.length != groups || offset < 4 || crc > 0xffffffffL) {
                    return Optional.empty();
                }
                int[] lengths = new int[groups];
                long total = 0;
                for (int i = 0; i < groups; i++) {
                    lengths[i] = Integer.parseInt(ls[i]);
                    if (lengths[i] < 0 || lengths[i] % TokenBloom.BLOCK_BYTES != 0) {
                        return Optional.empty();
                    }
                    total += lengths[i];
                }
                if (total > Integer.MAX_VALUE - 16 || offset + total > fileLength - 8) {
                    return Optional.empty();
                }
                return Optional.of(new Location(offset, total, crc, lengths));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        /** Whether {@code region} is the bytes this location describes (its checksum agrees). */
        public boolean verifies(byte[] region) {
            if (region.length != length) {
                return false;
            }
            CRC32C c = new CRC32C();
            c.update(region);
            return c.getValue() == crc32c;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Location l && l.offset == offset && l.length == length && l.crc32c == crc32c
                    && Arrays.equals(l.lengths, lengths);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(offset) * 31 + Arrays.hashCode(lengths);
        }
    }
}
