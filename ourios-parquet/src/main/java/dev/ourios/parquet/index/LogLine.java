package dev.ourios.parquet.index;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The log line of a row, as {@code --contains} and the search language's words see it (docs/spec/query.md, section
 * 4), and as the token index tokenizes it. A row that kept its body is its body bytes. A clean templated row stores
 * no body: its line is {@code sep0 + param0 + sep1 + … + sepN} (a null param value contributes nothing), the same
 * reconstruction a reader shows the user. A row with neither body nor a consistent template (separators = params +
 * 1, at least one separator) has no line.
 */
public final class LogLine {
    private LogLine() {
    }

    /** The line's bytes, or null when the row has none. */
    public static byte[] of(LogRecord r) {
        if (r.body() != null) {
            return r.body();
        }
        List<byte[]> seps = r.separators();
        List<Param> params = r.params();
        if (seps.isEmpty() || seps.size() != params.size() + 1) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        for (int i = 0; i < params.size(); i++) {
            out.writeBytes(seps.get(i));
            if (params.get(i).value() != null) {
                out.writeBytes(params.get(i).value());
            }
        }
        out.writeBytes(seps.get(params.size()));
        return out.toByteArray();
    }
}
