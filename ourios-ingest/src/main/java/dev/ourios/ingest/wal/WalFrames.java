package dev.ourios.ingest.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The on-disk framing of a segment: an 8-byte magic, then frames {@code u32 length | u32 crc32c(body) | body}, with
 * {@code body = u16 tenant length | tenant UTF-8 | payload} (big-endian).
 *
 * <p>Reading stops at the first frame that is incomplete, has a length out of range, or fails its checksum: that is
 * where a crash cut the last write (a torn tail). Everything before it was written, and acknowledged only after an
 * fsync covering it; nothing after it was acknowledged, because acknowledgements follow the fsync in append order.
 */
public final class WalFrames {
    static final byte[] MAGIC = "OURWAL1\n".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER = 8;
    /** Bigger than any admissible request, small enough that a corrupt length never allocates much. */
    static final int MAX_BODY = 256 << 20;

    private WalFrames() {
    }

    /** One frame, ready to append. */
    public static byte[] encode(WalEntry e) {
        byte[] tenant = e.tenant().getBytes(StandardCharsets.UTF_8);
        if (tenant.length > 0xFFFF) {
            throw new IllegalArgumentException("tenant id longer than 65535 bytes");
        }
        int bodyLen = 2 + tenant.length + e.payload().length;
        ByteBuffer b = ByteBuffer.allocate(HEADER + bodyLen);
        b.putInt(bodyLen).putInt(0).putShort((short) tenant.length).put(tenant).put(e.payload());
        CRC32C crc = new CRC32C();
        crc.update(b.array(), HEADER, bodyLen);
        b.putInt(4, (int) crc.getValue());
        return b.array();
    }

    /** The frames of a segment up to the first bad one, and the length of that valid prefix. */
    public record Contents(List<WalEntry> entries, long validLength, long fileLength) {
        public boolean torn() {
            return validLength != fileLength;
        }
    }

    public static Contents read(Path segment) throws IOException {
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ)) {
            long size = ch.size();
            List<WalEntry> out = new ArrayList<>();
            ByteBuffer magic = ByteBuffer.allocate(MAGIC.length);
            if (readFully(ch, magic, 0) < MAGIC.length || !Arrays.equals(magic.array(), MAGIC)) {
                return new Contents(out, 0, size);
            }
            long pos = MAGIC.length;
            ByteBuffer head = ByteBuffer.allocate(HEADER);
            CRC32C crc = new CRC32C();
            while (pos + HEADER <= size) {
                head.clear();
                if (readFully(ch, head, pos) < HEADER) {
                    break;
                }
                int len = head.getInt(0);
                int sum = head.getInt(4);
                if (len < 2 || len > MAX_BODY || pos + HEADER + len > size) {
                    break;
                }
                ByteBuffer body = ByteBuffer.allocate(len);
                if (readFully(ch, body, pos + HEADER) < len) {
                    break;
                }
                crc.reset();
                crc.update(body.array(), 0, len);
                if ((int) crc.getValue() != sum) {
                    break;
                }
                int tlen = body.getShort(0) & 0xFFFF;
                if (2 + tlen > len) {
                    break;
                }
                String tenant = new String(body.array(), 2, tlen, StandardCharsets.UTF_8);
                byte[] payload = Arrays.copyOfRange(body.array(), 2 + tlen, len);
                out.add(new WalEntry(tenant, payload));
                pos += HEADER + len;
            }
            return new Contents(out, pos, size);
        }
    }

    private static int readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        int total = 0;
        while (b.hasRemaining()) {
            int n = ch.read(b, at + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }
}
