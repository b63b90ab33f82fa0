package dev.ourios.otlp;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what a parsing library says about a body into a line a client can act on: in the request's terms, no
 * longer than {@link OtlpCodec#MAX_MESSAGE_CHARS}, quoting at most a short prefix of any value it read, and naming
 * none of the library's classes, methods or settings (they mean nothing to a client and change between versions).
 */
final class DecodeMessages {
    /** Longest run of one quoted token a message keeps. */
    static final int MAX_QUOTED_CHARS = 40;
    private static final Pattern LONG_TOKEN = Pattern.compile("\\S{" + (MAX_QUOTED_CHARS + 1) + ",}");
    /** {@code StreamReadConstraints.getMaxNestingDepth()}, {@code `com.fasterxml….X`}, {@code com.google.…}. */
    private static final Pattern LIBRARY = Pattern.compile(
            "\\(?(?:by )?(?:calling |use |using )?`?[A-Z][A-Za-z]+(?:\\.[A-Za-z]+)+\\(\\)`?\\)?"
            + "|`?(?:com|org|java)\\.[A-Za-z0-9_.$]+`?"
            + "|\\(?[Ss]ource: [^)]*\\)?");

    private DecodeMessages() {
    }

    /** The library's message, made safe to send. */
    static String plain(String libraryMessage) {
        String m = libraryMessage == null ? "" : libraryMessage;
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl);
        }
        m = LIBRARY.matcher(m).replaceAll("");
        Matcher t = LONG_TOKEN.matcher(m);
        StringBuilder out = new StringBuilder();
        while (t.find()) {
            String tok = t.group();
            t.appendReplacement(out, Matcher.quoteReplacement(tok.substring(0, MAX_QUOTED_CHARS) + "…("
                    + tok.length() + " chars)"));
        }
        t.appendTail(out);
        return out.toString().replaceAll("\\s+", " ").replaceAll(" ([,.:;)])", "$1").strip();
    }

    /** What a size constraint of the JSON reader was exceeded by, in the request's terms. */
    static String constraint(String libraryMessage) {
        String m = libraryMessage == null ? "" : libraryMessage.toLowerCase(Locale.ROOT);
        Matcher limit = Pattern.compile("exceeds? the maximum (?:allowed )?(?:\\([^)]*\\) )?\\(?(\\d+)").matcher(m);
        String n = limit.find() ? " (" + limit.group(1) + ")" : "";
        if (m.contains("nesting depth")) {
            return "JSON nested deeper than the receiver allows" + n;
        }
        if (m.contains("string value length") || m.contains("string length")) {
            return "a JSON string longer than the receiver allows" + n;
        }
        if (m.contains("number value length") || m.contains("number length")) {
            return "a JSON number longer than the receiver allows" + n;
        }
        if (m.contains("name length")) {
            return "a JSON field name longer than the receiver allows" + n;
        }
        return "the JSON exceeds a size limit of the receiver";
    }

    /** At most {@code max} characters. */
    static String bounded(String m, int max) {
        return m.length() <= max ? m : m.substring(0, max - 1) + "…";
    }
}
