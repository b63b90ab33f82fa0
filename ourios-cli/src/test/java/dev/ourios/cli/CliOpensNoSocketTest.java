package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The command line maps flags, files and the environment to settings and calls into the server module: none of its
 * classes names a type that opens a listening socket.
 */
class CliOpensNoSocketTest {
    /** Types that listen: the JDK's, Jetty's, and the server module's listeners. */
    private static final List<String> LISTENING = List.of("java.net.ServerSocket", "ServerSocketChannel",
            "com.sun.net.httpserver", "org.eclipse.jetty", "dev.ourios.http.HttpServer",
            "dev.ourios.server.http.HttpListener", "dev.ourios.server.otlp.OtlpHttpReceiver",
            "dev.ourios.server.query.HttpApi");

    @Test
    void noMainClassNamesAListeningType() throws IOException {
        Path sources = Path.of("src", "main", "java", "dev", "ourios", "cli");
        assertTrue(Files.isDirectory(sources), "run from the module directory: " + sources.toAbsolutePath());
        List<String> found = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(sources)) {
            for (Path p : all.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                String text = Files.readString(p);
                for (String type : LISTENING) {
                    if (text.contains(type)) {
                        found.add(sources.relativize(p) + " names " + type);
                    }
                }
            }
        }
        assertTrue(files > 10, "expected the CLI's sources, found " + files + " files");
        assertEquals(List.of(), found);
    }
}
