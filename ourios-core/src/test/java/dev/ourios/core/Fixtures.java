package dev.ourios.core;

import java.nio.file.Files;
import java.nio.file.Path;

/** Shared fixtures: {@code -Dourios.fixtures=…} (surefire sets it), else the checkout's default location. */
public final class Fixtures {
    private Fixtures() {
    }

    public static Path root() {
        return Path.of(System.getProperty("ourios.fixtures", "/work/shared/fixtures"));
    }

    public static Path otlp(String name) {
        Path p = root().resolve("otlp").resolve(name);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("fixture missing: " + p + " (set -Dourios.fixtures)");
        }
        return p;
    }
}
