package dev.ourios.query;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.index.LogLine;

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

    /** The line's bytes, or null when the row has none (the token index reads the same line: {@link LogLine}). */
    public static byte[] of(LogRecord r) {
        return LogLine.of(r);
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
