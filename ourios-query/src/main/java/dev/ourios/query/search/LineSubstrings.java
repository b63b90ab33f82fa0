package dev.ourios.query.search;

import java.util.List;

/**
 * A necessary condition of a line holding some tokens, decided on the line's UTF-8 bytes without decoding or
 * tokenizing it: each token must occur in the bytes as a substring, ASCII letters matched in either case. It applies
 * to tokens of ASCII characters only ({@link #of} is null otherwise), and is sound for them because
 * <ul>
 * <li>a line token that lower-cases to an ASCII token (or to one starting with an ASCII prefix) consists of ASCII
 * characters, unless it holds one of the two non-ASCII code points whose lower case holds an ASCII character
 * (U+0130 'İ' to "i\u0307", U+212A KELVIN SIGN to 'k'; the test enumerates every code point): a line holding either
 * is left to the exact test;</li>
 * <li>the ASCII characters of the decoded line are the line's ASCII bytes, in order and adjacent where they are
 * adjacent: UTF-8 decoding never takes an ASCII byte into a multi-byte or a malformed sequence.</li>
 * </ul>
 * A line that passes may still lack the tokens (a substring is not a whole token); the exact test decides it.
 */
final class LineSubstrings {
    /** UTF-8 of U+0130 and U+212A: the code points outside ASCII whose lower case holds an ASCII character. */
    private static final byte[][] ASCII_LOWERING = {{(byte) 0xC4, (byte) 0xB0}, {(byte) 0xE2, (byte) 0x84,
            (byte) 0xAA}};

    /** Per token, the byte each position matches: lower case, and the upper case of letters (else the same). */
    private final byte[][] lower;
    private final byte[][] upper;

    private LineSubstrings(byte[][] lower, byte[][] upper) {
        this.lower = lower;
        this.upper = upper;
    }

    /** The condition for these lower-cased tokens, or null when one of them is not all ASCII. */
    static LineSubstrings of(List<String> tokens) {
        byte[][] lower = new byte[tokens.size()][];
        byte[][] upper = new byte[tokens.size()][];
        for (int t = 0; t < tokens.size(); t++) {
            String token = tokens.get(t);
            lower[t] = new byte[token.length()];
            upper[t] = new byte[token.length()];
            for (int i = 0; i < token.length(); i++) {
                char c = token.charAt(i);
                if (c >= 0x80) {
                    return null;
                }
                lower[t][i] = (byte) c;
                upper[t][i] = (byte) (c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c);
            }
        }
        return new LineSubstrings(lower, upper);
    }

    /** True when {@code line} cannot hold every token: one of them is not among its bytes in any case. */
    boolean rulesOut(byte[] line) {
        for (int t = 0; t < lower.length; t++) {
            if (!occurs(line, lower[t], upper[t])) {
                return !holdsAsciiLowering(line);
            }
        }
        return false;
    }

    private static boolean occurs(byte[] line, byte[] lo, byte[] up) {
        int n = lo.length;
        byte first = lo[0];
        byte firstUp = up[0];
        outer:
        for (int i = 0, last = line.length - n; i <= last; i++) {
            byte b = line[i];
            if (b != first && b != firstUp) {
                continue;
            }
            for (int j = 1; j < n; j++) {
                byte c = line[i + j];
                if (c != lo[j] && c != up[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static boolean holdsAsciiLowering(byte[] line) {
        for (byte b : line) {
            if (b < 0) { // only a line with a byte outside ASCII can hold one
                for (byte[] seq : ASCII_LOWERING) {
                    if (occurs(line, seq, seq)) {
                        return true;
                    }
                }
                return false;
            }
        }
        return false;
    }
}
