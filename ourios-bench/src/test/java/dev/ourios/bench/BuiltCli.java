package dev.ourios.bench;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The tests that run suites through the real launcher need the CLI jar, which the reactor builds first. */
final class BuiltCli {
    private BuiltCli() {
    }

    /** Skips the calling test unless {@code -Dourios.launcher} names a launcher whose jar is built. */
    static void assume() {
        String launcher = System.getProperty(CliLauncher.PROPERTY);
        assumeTrue(launcher != null && Files.isRegularFile(Path.of(launcher).getParent()
                .resolve("ourios-cli/target/ourios.jar")), "the CLI jar is not built (mvn package -pl ourios-cli)");
    }
}
