package dev.ourios.testkit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A child JVM: by default the current JVM's {@code java} running a main class on the current JVM's class path
 * (the test class path under surefire). Its stdout and stderr are drained as they come by two pump threads (so a
 * chatty child never blocks on a full pipe), kept in memory for {@link #awaitLine} and the accessors, and written
 * line by line to files ({@link #stdoutFile()}, {@link #stderrFile()}) for a post-mortem. Its stdin is closed.
 *
 * <p>Every wait takes a timeout. {@link #waitFor} kills the child if it has not exited in time; {@link #kill9}
 * sends SIGKILL; {@link #terminate} sends SIGTERM. Signals go through the {@link ProcessHandle}, not
 * {@link Process#destroy()}, which would also close our ends of the pipes and lose the child's last lines. A JVM
 * shutdown hook SIGKILLs whatever children are still running when the parent JVM exits.
 *
 * <pre>{@code
 * try (ChildJvm child = ChildJvm.main(Worker.class).heap("256m").args(dir.toString()).start()) {
 *     child.awaitLine(Pattern.compile("^READY"), Duration.ofMinutes(1));
 *     assertEquals(0, child.waitFor(Duration.ofMinutes(2)), child.output());
 * }
 * }</pre>
 */
public final class ChildJvm implements AutoCloseable {
    /** Which of the child's output streams. */
    public enum Output { STDOUT, STDERR }

    private static final Duration DRAIN = Duration.ofSeconds(10);
    private static final Duration REAP = Duration.ofSeconds(30);
    private static final int TAIL_LINES = 60;
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(p -> p.toHandle().destroyForcibly()),
                "child-jvm-reaper"));
    }

    private final String name;
    private final List<String> command;
    private final Process process;
    private final Lines out;
    private final Lines err;
    private final long startedNanos = System.nanoTime();

    private ChildJvm(String name, List<String> command, Process process, Path logDir, boolean merged) {
        this.name = name;
        this.command = List.copyOf(command);
        this.process = process;
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        String stem = name + "-" + process.pid();
        this.out = new Lines(process.getInputStream(), logDir.resolve(stem + (merged ? ".log" : ".out")), stem);
        this.err = merged ? out : new Lines(process.getErrorStream(), logDir.resolve(stem + ".err"), stem);
    }

    /** A child running {@code mainClass} on the current class path. */
    public static Builder main(Class<?> mainClass) {
        return new Builder(mainClass.getName(), false, mainClass.getSimpleName());
    }

    /** A child running the main class named {@code mainClass} (on the current class path unless set). */
    public static Builder main(String mainClass) {
        return new Builder(mainClass, false, mainClass.substring(mainClass.lastIndexOf('.') + 1));
    }

    /** A child running an executable jar ({@code java -jar}); the class path is the jar's own. */
    public static Builder jar(Path jar) {
        String file = jar.getFileName().toString();
        return new Builder(jar.toString(), true, file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file);
    }

    /** How to start a child JVM. */
    public static final class Builder {
        private static Path tempLogDir;

        private final String target;
        private final boolean jar;
        private String name;
        private String classpath = System.getProperty("java.class.path");
        private String heap;
        private final List<String> jvmArgs = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        private final List<Predicate<String>> envRemovals = new ArrayList<>();
        private Path workDir;
        private Path logDir;
        private boolean mergeStderr;
        private Path stdin;
        private final List<String> launcher = new ArrayList<>();

        private Builder(String target, boolean jar, String name) {
            this.target = target;
            this.jar = jar;
            this.name = name;
        }

        /** Names the child in file names and messages (default: the main class's simple name, or the jar's). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** The child's class path (default: this JVM's {@code java.class.path}); ignored for a jar. */
        public Builder classpath(String classpath) {
            this.classpath = classpath;
            return this;
        }

        /** {@code -Xmx}, e.g. {@code "256m"}. */
        public Builder heap(String maxHeap) {
            this.heap = maxHeap;
            return this;
        }

        /** Further JVM options, e.g. {@code -XX:+UseSerialGC}, placed before the system properties. */
        public Builder jvmArgs(String... options) {
            jvmArgs.addAll(List.of(options));
            return this;
        }

        /** A system property of the child ({@code -Dkey=value}). */
        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /** Program arguments, appended. */
        public Builder args(String... arguments) {
            args.addAll(List.of(arguments));
            return this;
        }

        /** Program arguments, appended. */
        public Builder args(List<String> arguments) {
            args.addAll(arguments);
            return this;
        }

        /** An environment variable of the child (set after any removals). */
        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /** Environment variables of the child (set after any removals). */
        public Builder env(Map<String, String> variables) {
            env.putAll(variables);
            return this;
        }

        /** Removes inherited environment variables whose names match. */
        public Builder removeEnv(Predicate<String> names) {
            envRemovals.add(names);
            return this;
        }

        /** The child's working directory (default: this JVM's). */
        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /**
         * Where the output files go (default: {@code target/child-jvm} under the working directory when that
         * {@code target} exists, as under Maven, else one temporary directory per parent JVM).
         */
        public Builder logDir(Path dir) {
            this.logDir = dir;
            return this;
        }

        /** The child's standard input read from {@code file} (default: an empty, closed stdin). */
        public Builder stdin(Path file) {
            this.stdin = file;
            return this;
        }

        /** Stderr into the same stream and file as stdout, interleaved as the child wrote them. */
        public Builder mergeStderr() {
            this.mergeStderr = true;
            return this;
        }

        /**
         * A program that runs the JVM, with its arguments, e.g. {@code nohup} (it starts the child with SIGHUP
         * ignored and then becomes it, so the child's pid and signals are unchanged).
         */
        public Builder launcher(String... programAndArgs) {
            launcher.addAll(List.of(programAndArgs));
            return this;
        }

        /** The command line {@link #start()} runs. */
        public List<String> command() {
            List<String> cmd = new ArrayList<>(launcher);
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            if (heap != null) {
                cmd.add("-Xmx" + heap);
            }
            cmd.addAll(jvmArgs);
            properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
            if (jar) {
                cmd.add("-jar");
            } else {
                cmd.add("-cp");
                cmd.add(classpath);
            }
            cmd.add(target);
            cmd.addAll(args);
            return cmd;
        }

        public ChildJvm start() throws IOException {
            List<String> cmd = command();
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(mergeStderr);
            if (workDir != null) {
                pb.directory(workDir.toFile());
            }
            for (Predicate<String> removal : envRemovals) {
                pb.environment().keySet().removeIf(removal);
            }
            pb.environment().putAll(env);
            Path logs = Files.createDirectories(logDir != null ? logDir : defaultLogDir());
            if (stdin != null) {
                pb.redirectInput(stdin.toFile());
            }
            Process p = pb.start();
            p.getOutputStream().close();
            return new ChildJvm(name, cmd, p, logs, mergeStderr);
        }

        private static Path defaultLogDir() throws IOException {
            Path target = Path.of(System.getProperty("user.dir"), "target");
            if (Files.isDirectory(target)) {
                return target.resolve("child-jvm");
            }
            synchronized (Builder.class) {
                if (tempLogDir == null) {
                    tempLogDir = Files.createTempDirectory("child-jvm-");
                }
                return tempLogDir;
            }
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The command line the child was started with. */
    public List<String> command() {
        return command;
    }

    /** Time since the child was started. */
    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /**
     * The first line (so far or to come) of {@code which} that {@code matches}; empty if the stream ends (the child
     * exited) or {@code timeout} passes first.
     */
    public Optional<String> tryAwaitLine(Output which, Predicate<String> matches, Duration timeout)
            throws InterruptedException {
        return lines(which).await(matches, timeout);
    }

    /** As {@link #tryAwaitLine}, but throws {@link IllegalStateException} with the child's output if none came. */
    public String awaitLine(Output which, Predicate<String> matches, Duration timeout) throws InterruptedException {
        Optional<String> line = tryAwaitLine(which, matches, timeout);
        if (line.isEmpty()) {
            throw new IllegalStateException("no matching " + which + " line from " + name + " within " + timeout
                    + " (" + (process.isAlive() ? "still running" : "exited " + process.exitValue()) + ")"
                    + diagnostics());
        }
        return line.get();
    }

    /** The first stdout line in which {@code pattern} is found; throws if none came within {@code timeout}. */
    public String awaitLine(Pattern pattern, Duration timeout) throws InterruptedException {
        return awaitLine(Output.STDOUT, l -> pattern.matcher(l).find(), timeout);
    }

    /**
     * Waits for the child to exit and for its output to be drained, and returns its exit status. If it is still
     * running after {@code timeout} it is SIGKILLed and {@link IllegalStateException} thrown.
     */
    public int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            kill9();
            throw new IllegalStateException(name + " did not exit within " + timeout + "; killed" + diagnostics());
        }
        drain();
        return process.exitValue();
    }

    /** SIGKILL; waits for the death and the output. True if the child was still running when the signal went. */
    public boolean kill9() throws InterruptedException {
        boolean alive = process.isAlive();
        process.toHandle().destroyForcibly();
        if (!process.waitFor(REAP.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") still running " + REAP
                    + " after SIGKILL");
        }
        drain();
        return alive;
    }

    /**
     * SIGTERM, then the exit status once the child has exited and its output is drained; SIGKILL and
     * {@link IllegalStateException} if it has not exited within {@code timeout}.
     */
    public int terminate(Duration timeout) throws InterruptedException {
        process.toHandle().destroy();
        return waitFor(timeout);
    }

    /** The exit status; the child must have exited. */
    public int exitValue() {
        return process.exitValue();
    }

    /** Stdout lines so far (all of them once the child has exited and {@link #waitFor} returned). */
    public List<String> stdoutLines() {
        return out.snapshot();
    }

    /** Stderr lines so far; with {@link Builder#mergeStderr()}, the same as {@link #stdoutLines()}. */
    public List<String> stderrLines() {
        return err.snapshot();
    }

    /** Stdout so far, each line ended by a newline. */
    public String stdout() {
        return join(out.snapshot());
    }

    /** Stderr so far, each line ended by a newline. */
    public String stderr() {
        return join(err.snapshot());
    }

    /** Everything the child printed so far: stdout, then stderr unless merged into it. */
    public String output() {
        return out == err ? stdout() : stdout() + stderr();
    }

    public Path stdoutFile() {
        return out.file;
    }

    /** The stderr file; with {@link Builder#mergeStderr()}, the same as {@link #stdoutFile()}. */
    public Path stderrFile() {
        return err.file;
    }

    /** SIGKILLs the child if it is still running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill9();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }

    private Lines lines(Output which) {
        return which == Output.STDOUT ? out : err;
    }

    private void drain() throws InterruptedException {
        // The pumps end at the pipes' EOF, right after the exit (unless a grandchild still holds a pipe).
        out.pump.join(DRAIN.toMillis());
        err.pump.join(DRAIN.toMillis());
    }

    private String diagnostics() {
        StringBuilder sb = new StringBuilder();
        sb.append("\ncommand: ").append(String.join(" ", command));
        appendTail(sb, out == err ? "output" : "stdout", out);
        if (err != out) {
            appendTail(sb, "stderr", err);
        }
        return sb.toString();
    }

    private static void appendTail(StringBuilder sb, String label, Lines lines) {
        List<String> all = lines.snapshot();
        List<String> tail = all.subList(Math.max(0, all.size() - TAIL_LINES), all.size());
        sb.append('\n').append(label).append(" (").append(lines.file);
        if (tail.size() < all.size()) {
            sb.append("; last ").append(tail.size()).append(" of ").append(all.size()).append(" lines");
        }
        sb.append("):\n").append(join(tail));
    }

    private static String join(List<String> lines) {
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l).append('\n');
        }
        return sb.toString();
    }

    /** One output stream: its lines so far, its file, and whether it has ended. */
    private static final class Lines {
        final Path file;
        final Thread pump;
        private final List<String> lines = new ArrayList<>();
        private boolean ended;

        Lines(InputStream in, Path file, String stem) {
            this.file = file;
            this.pump = new Thread(() -> pump(in), "child-jvm-" + stem + "-" + file.getFileName());
            pump.setDaemon(true);
            pump.start();
        }

        private void pump(InputStream in) {
            BufferedWriter w = null;
            try {
                w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                add("(not writing " + file + ": " + e + ")");
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (w != null) {
                        try {
                            w.write(line);
                            w.newLine();
                            w.flush();
                        } catch (IOException e) {
                            w = null;
                        }
                    }
                    add(line);
                }
            } catch (IOException e) {
                add("(output lost: " + e + ")");
            } finally {
                if (w != null) {
                    try {
                        w.close();
                    } catch (IOException e) {
                        // the lines are in memory too
                    }
                }
                synchronized (this) {
                    ended = true;
                    notifyAll();
                }
            }
        }

        private synchronized void add(String line) {
            lines.add(line);
            notifyAll();
        }

        synchronized List<String> snapshot() {
            return List.copyOf(lines);
        }

        synchronized Optional<String> await(Predicate<String> matches, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            int next = 0;
            while (true) {
                for (; next < lines.size(); next++) {
                    if (matches.test(lines.get(next))) {
                        return Optional.of(lines.get(next));
                    }
                }
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    return Optional.empty();
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }
}
