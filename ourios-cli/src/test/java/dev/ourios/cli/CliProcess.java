package dev.ourios.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the real CLI in a child JVM (as a user would through ./ourios) and captures its streams and exit status. */
final class CliProcess {
    record Result(int exit, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private CliProcess() {
    }

    static Result run(Path workDir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().remove("OURIOS_STORE");
        pb.environment().remove("OTEL_EXPORTER_OTLP_ENDPOINT");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        var out = p.getInputStream();
        var err = p.getErrorStream();
        byte[][] captured = new byte[2][];
        Thread t = new Thread(() -> {
            try {
                captured[1] = err.readAllBytes();
            } catch (IOException e) {
                captured[1] = new byte[0];
            }
        });
        t.start();
        captured[0] = out.readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("CLI did not finish: " + args[0]);
        }
        t.join();
        return new Result(p.exitValue(), new String(captured[0], StandardCharsets.UTF_8),
                new String(captured[1], StandardCharsets.UTF_8));
    }

    static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(workDir, Map.of(), args);
    }
}
