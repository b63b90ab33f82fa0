package dev.ourios.cli.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --config FILE}, shared by {@code serve} and {@code config check}; defaults to {@code $OURIOS_CONFIG}. */
public final class ConfigFileOption {
    public static final String ENV = "OURIOS_CONFIG";

    @Option(names = "--config", paramLabel = "FILE",
            description = "YAML configuration file (default: $OURIOS_CONFIG; OURIOS_* variables override it)")
    Path file;

    public Optional<Path> file(Map<String, String> env) {
        if (file != null) {
            return Optional.of(file);
        }
        String fromEnv = env.get(ENV);
        return fromEnv == null || fromEnv.isBlank() ? Optional.empty() : Optional.of(Path.of(fromEnv.trim()));
    }
}
