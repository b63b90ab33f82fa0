package dev.ourios.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One input of {@code ourios ingest}: a file, or standard input for {@code -}. */
record IngestInput(String name, Path file) {
    static final String STDIN = "-";

    /** The inputs in order; every file is checked before anything is read, so a typo writes nothing. */
    static List<IngestInput> of(List<Path> args) {
        List<IngestInput> out = new ArrayList<>();
        boolean stdin = false;
        for (Path p : args) {
            if (p.toString().equals(STDIN)) {
                if (stdin) {
                    throw new UsageException("'-' (standard input) given more than once");
                }
                stdin = true;
                out.add(new IngestInput("stdin", null));
            } else if (!Files.exists(p)) {
                throw new UsageException(p + ": no such file");
            } else if (Files.isDirectory(p)) {
                throw new UsageException(p + ": is a directory, not a file");
            } else if (!Files.isReadable(p)) {
                throw new UsageException(p + ": not readable");
            } else {
                out.add(new IngestInput(p.toString(), p));
            }
        }
        return out;
    }

    /** Strict UTF-8: a malformed byte is an error, never a silently replaced character. */
    Reader open() throws IOException {
        InputStream in = file == null ? System.in : Files.newInputStream(file);
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        return new BufferedReader(new InputStreamReader(in, decoder), 1 << 16);
    }
}
