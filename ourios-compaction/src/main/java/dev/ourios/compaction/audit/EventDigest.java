package dev.ourios.compaction.audit;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.Type;

/**
 * A SHA-256 of every value of an event, by column name at every level, independent of the order and repetition of
 * the columns in the schema it was read with: an event read from its input and the same event read back from the
 * union-schema output digest alike, and a value lost or changed on the way does not.
 */
final class EventDigest {
    private EventDigest() {
    }

    static byte[] of(Group event) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
        add(sha, event);
        return sha.digest();
    }

    private static void add(MessageDigest sha, Group g) {
        for (Type field : g.getType().getFields().stream().sorted(Comparator.comparing(Type::getName)).toList()) {
            String name = field.getName();
            int n = g.getFieldRepetitionCount(name);
            if (n == 0) {
                continue;
            }
            byte[] label = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            sha.update(ByteBuffer.allocate(8).putInt(label.length).putInt(n).array());
            sha.update(label);
            for (int i = 0; i < n; i++) {
                if (field.isPrimitive()) {
                    byte[] value = switch (field.asPrimitiveType().getPrimitiveTypeName()) {
                        case INT64 -> ByteBuffer.allocate(8).putLong(g.getLong(name, i)).array();
                        case INT32 -> ByteBuffer.allocate(4).putInt(g.getInteger(name, i)).array();
                        case BOOLEAN -> new byte[] {(byte) (g.getBoolean(name, i) ? 1 : 0)};
                        case FLOAT -> ByteBuffer.allocate(4).putFloat(g.getFloat(name, i)).array();
                        case DOUBLE -> ByteBuffer.allocate(8).putDouble(g.getDouble(name, i)).array();
                        default -> g.getBinary(name, i).getBytes();
                    };
                    sha.update(ByteBuffer.allocate(5).put((byte) 'v').putInt(value.length).array());
                    sha.update(value);
                } else {
                    sha.update((byte) '{');
                    add(sha, g.getGroup(name, i));
                    sha.update((byte) '}');
                }
            }
        }
    }
}
