package dev.ourios.core;

import java.util.List;

/**
 * The log line a {@code --contains} search and the search language's words look in (docs/spec/query.md, section 4).
 * A row that kept its body (string body, lossy rows) is matched on the body bytes exactly. A clean templated row stores no body: its line is rebuilt as
 * {@code sep0 + param0 + sep1 + … + sepN} (a null param value contributes nothing), the same reconstruction a reader
 * shows the user, so searching for text a user saw finds the row whichever way it was stored. A row with neither
 * body nor a consistent template (separators = params + 1, at least one separator) has no line and never matches.
 */
public final class LineText {
    private LineText() {
    }

    /** The line's bytes, or null when the row has none (the token index of ourios-parquet reads the same line). */
    public static byte[] of(LogRecord r) {
        if (r.body() != null) {
            return r.body();
        }
        List<byte[]> seps = r.separators();
        List<Param> params = r.params();
        if (seps.isEmpty() || seps.size() != params.size() + 1) {
            return null;
        }
        int length = 0;
        for (byte[] sep : seps) {
            length += sep.length;
        }
        for (Param p : params) {
            length += p.value() == null ? 0 : p.value().length;
        }
        byte[] line = new byte[length];
        int at = 0;
        for (int i = 0; i < params.size(); i++) {
            at = put(line, at, seps.get(i));
            at = put(line, at, params.get(i).value());
        }
        put(line, at, seps.get(params.size()));
        return line;
    }

    private static int put(byte[] line, int at, byte[] part) {
        if (part == null) {
            return at; // a null param value contributes nothing
        }
        System.arraycopy(part, 0, line, at, part.length);
        return at + part.length;
    }

    /** True if {@code needle} occurs in {@code haystack} (naive search: lines are short, needles shorter). */
    static boolean contains(byte[] haystack, byte[] needle) {
        if (needle.length == 0) {
            return true;
        }
        outer:
        for (int i = 0, last = haystack.length - needle.length; i <= last; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
