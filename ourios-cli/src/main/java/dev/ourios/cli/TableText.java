package dev.ourios.cli;

/**
 * Makes a stored string safe to print in a text table: a log line or a tenant id can hold newlines, tabs, carriage
 * returns and terminal escape sequences, which would forge rows or drive the terminal. Control characters (C0, DEL,
 * C1), line and paragraph separators and bidirectional overrides are shown escaped ({@code \n}, {@code \r},
 * {@code \t}, otherwise {@code \}{@code uXXXX}); everything else, backslashes included, is printed as stored.
 * JSON output needs none of this: its encoder escapes control characters itself.
 */
final class TableText {
    private TableText() {
    }

    static String escape(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length() && !needsEscape(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (needsEscape(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    static boolean needsEscape(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }
}
