package dev.ourios.testkit;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random mutations of valid inputs, for fuzzing decoders: bit flips, interesting bytes, truncations, insertions,
 * deletions, duplications, splices with another valid input, and for JSON text the deletion or replacement of one
 * member's value. Each call applies one to four mutations; the same random state gives the same result.
 */
public final class Mutator {
    private static final byte[] INTERESTING = {0, 1, 0x7f, (byte) 0x80, (byte) 0xff, '"', '\\', '{', '}', '[', ']',
            ',', ':', '-', '0', '9', 'e', '\n', (byte) 0xc3, (byte) 0xed};
    private static final String[] JSON_VALUES = {"null", "true", "0", "-1", "1e999", "-0.0", "18446744073709551616",
            "99999999999999999999999999999999", "\"\"", "\"x\"", "[]", "{}", "[[[[[[[[[[]]]]]]]]]]", "\"\\ud800\"",
            "\"\\u0000\"", "1.5", "\"2026-11-01T10:00:00Z\"", "\"ffffffffffffffffffffffffffffffff\""};

    private final List<byte[]> corpus;

    /** @param corpus valid inputs, the material of splices */
    public Mutator(List<byte[]> corpus) {
        if (corpus.isEmpty()) {
            throw new IllegalArgumentException("the corpus is empty");
        }
        this.corpus = List.copyOf(corpus);
    }

    /** A mutant of a random corpus entry. */
    public byte[] mutant(SplittableRandom r) {
        byte[] b = corpus.get(r.nextInt(corpus.size())).clone();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b = mutateOnce(b, r);
        }
        return b;
    }

    private byte[] mutateOnce(byte[] b, SplittableRandom r) {
        if (b.length == 0) {
            return randomBytes(r, 1 + r.nextInt(16));
        }
        switch (r.nextInt(10)) {
            case 0 -> { // bit flip
                int i = r.nextInt(b.length);
                b[i] ^= (byte) (1 << r.nextInt(8));
                return b;
            }
            case 1 -> { // an interesting byte
                b[r.nextInt(b.length)] = INTERESTING[r.nextInt(INTERESTING.length)];
                return b;
            }
            case 2 -> { // truncation
                return slice(b, 0, r.nextInt(b.length));
            }
            case 3 -> { // insertion of random bytes
                int at = r.nextInt(b.length + 1);
                return concat(slice(b, 0, at), randomBytes(r, 1 + r.nextInt(8)), slice(b, at, b.length));
            }
            case 4 -> { // deletion of a range
                int from = r.nextInt(b.length);
                int to = Math.min(b.length, from + 1 + r.nextInt(Math.max(1, b.length / 4)));
                return concat(slice(b, 0, from), slice(b, to, b.length));
            }
            case 5 -> { // duplication of a range
                int from = r.nextInt(b.length);
                int to = Math.min(b.length, from + 1 + r.nextInt(Math.max(1, b.length / 4)));
                return concat(slice(b, 0, to), slice(b, from, to), slice(b, to, b.length));
            }
            case 6 -> { // splice: a prefix of this one and a suffix of another valid input
                byte[] other = corpus.get(r.nextInt(corpus.size()));
                return concat(slice(b, 0, r.nextInt(b.length + 1)),
                        slice(other, other.length == 0 ? 0 : r.nextInt(other.length), other.length));
            }
            case 7 -> { // a JSON member deleted (or, for binary input, a byte run zeroed)
                return deleteJsonMember(b, r);
            }
            case 8 -> { // a JSON member's value replaced by an extreme one
                return replaceJsonValue(b, r);
            }
            default -> { // a length-like varint spot made huge (protobuf) or a digit run lengthened (JSON)
                int i = r.nextInt(b.length);
                return concat(slice(b, 0, i), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f},
                        slice(b, i, b.length));
            }
        }
    }

    /** Removes {@code "name": value} (and one adjacent comma) at a random member, if the text has members. */
    private static byte[] deleteJsonMember(byte[] b, SplittableRandom r) {
        String s = new String(b, StandardCharsets.ISO_8859_1);
        int[] member = randomMember(s, r);
        if (member == null) {
            b[r.nextInt(b.length)] = 0;
            return b;
        }
        int start = member[0];
        int end = member[2];
        if (end < s.length() && s.charAt(end) == ',') {
            end++;
        } else if (start > 0 && s.charAt(start - 1) == ',') {
            start--;
        }
        return (s.substring(0, start) + s.substring(end)).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] replaceJsonValue(byte[] b, SplittableRandom r) {
        String s = new String(b, StandardCharsets.ISO_8859_1);
        int[] member = randomMember(s, r);
        if (member == null) {
            return b;
        }
        String v = JSON_VALUES[r.nextInt(JSON_VALUES.length)];
        return (s.substring(0, member[1]) + v + s.substring(member[2])).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {start of the name, start of the value, end of the value} of a random {@code "name":} member, or null. */
    private static int[] randomMember(String s, SplittableRandom r) {
        int tries = 8;
        while (tries-- > 0) {
            int colon = s.indexOf("\":", r.nextInt(s.length()));
            if (colon < 0) {
                colon = s.indexOf("\":");
            }
            if (colon < 0) {
                return null;
            }
            int nameStart = s.lastIndexOf('"', colon - 1);
            if (nameStart < 0) {
                continue;
            }
            int valueStart = colon + 2;
            while (valueStart < s.length() && s.charAt(valueStart) == ' ') {
                valueStart++;
            }
            int valueEnd = skipValue(s, valueStart);
            if (valueEnd > valueStart) {
                return new int[] {nameStart, valueStart, valueEnd};
            }
        }
        return null;
    }

    /** The end of the JSON value starting at {@code i} (strings and nesting respected), or {@code i} if none. */
    private static int skipValue(String s, int i) {
        if (i >= s.length()) {
            return i;
        }
        char c = s.charAt(i);
        if (c == '"') {
            for (int j = i + 1; j < s.length(); j++) {
                if (s.charAt(j) == '\\') {
                    j++;
                } else if (s.charAt(j) == '"') {
                    return j + 1;
                }
            }
            return i;
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            for (int j = i; j < s.length(); j++) {
                char d = s.charAt(j);
                if (d == '"') {
                    int end = skipValue(s, j);
                    if (end == j) {
                        return i;
                    }
                    j = end - 1;
                } else if (d == '{' || d == '[') {
                    depth++;
                } else if (d == '}' || d == ']') {
                    if (--depth == 0) {
                        return j + 1;
                    }
                }
            }
            return i;
        }
        int j = i;
        while (j < s.length() && ",}] \n".indexOf(s.charAt(j)) < 0) {
            j++;
        }
        return j;
    }

    private static byte[] randomBytes(SplittableRandom r, int n) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextInt(3) == 0 ? INTERESTING[r.nextInt(INTERESTING.length)] : (byte) r.nextInt(256);
        }
        return out;
    }

    private static byte[] slice(byte[] b, int from, int to) {
        return java.util.Arrays.copyOfRange(b, from, to);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
