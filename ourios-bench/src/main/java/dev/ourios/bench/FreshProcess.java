package dev.ourios.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command as a process of its own and times all of it, from the fork to the exit: JVM start-up, class
 * loading and the work. Its stdout and stderr go to files under {@code logDir} (read back after the exit, so no
 * reader thread competes with the child). Where GNU time is installed ({@code /usr/bin/time}) the command runs
 * under it, which adds the child's peak resident set, minor page faults and CPU time (user + system, every thread)
 * at the cost of one small exec; elsewhere those figures are -1. {@code JAVA_OPTS} is removed from the child's
 * environment (the harness's own heap settings are not the command's) unless {@code env} sets it.
 */
final class FreshProcess {
    private static final Path GNU_TIME = Path.of("/usr/bin/time");

    private final Path logDir;
    private final Duration timeout;
    private final boolean measured;

    FreshProcess(Path logDir, Duration timeout) {
        this.logDir = logDir;
        this.timeout = timeout;
        this.measured = Files.isExecutable(GNU_TIME);
    }

    /** Whether runs report peak RSS, page faults and CPU time (GNU time is installed). */
    boolean measuresResources() {
        return measured;
    }

    /** What one run did: its wall time, exit status, output, and (under GNU time) its resources. */
    record Run(String name, double seconds, int exitCode, String stdout, String stderr, long peakRssMiB,
            long minorFaults, double cpuSeconds) {

        /** The run's stdout, or an exception naming the command and quoting its stderr if it did not exit 0. */
        String stdoutOrThrow() throws IOException {
            if (exitCode != 0) {
                String tail = stderr.substring(Math.max(0, stderr.length() - 2000));
                throw new IOException(name + " exited " + exitCode + ":\n" + tail);
            }
            return stdout;
        }
    }

    Run run(String name, List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        Path out = logDir.resolve(name + ".out");
        Path err = logDir.resolve(name + ".err");
        Path stats = logDir.resolve(name + ".time");
        Files.deleteIfExists(stats);
        List<String> cmd = new ArrayList<>();
        if (measured) {
            // %M: peak RSS in KiB, %R: minor page faults, %U/%S: user/system CPU seconds of the child.
            cmd.addAll(List.of(GNU_TIME.toString(), "-f", "%M %R %U %S", "-o", stats.toString()));
        }
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().remove("JAVA_OPTS");
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            throw new IOException(name + " did not exit within " + timeout + "; killed (command: "
                    + String.join(" ", command) + ")");
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        long rssMiB = -1;
        long faults = -1;
        double cpu = -1;
        if (measured && Files.exists(stats)) {
            // GNU time writes "Command exited with non-zero status N" first when it did; the figures are last.
            List<String> lines = Files.readAllLines(stats, StandardCharsets.UTF_8);
            String[] f = lines.get(lines.size() - 1).trim().split(" ");
            rssMiB = Long.parseLong(f[0]) / 1024;
            faults = Long.parseLong(f[1]);
            cpu = Double.parseDouble(f[2]) + Double.parseDouble(f[3]);
        }
        return new Run(name, seconds, p.exitValue(), stdout, stderr, rssMiB, faults, cpu);
    }
}
