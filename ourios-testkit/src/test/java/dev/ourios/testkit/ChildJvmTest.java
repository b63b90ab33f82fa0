package dev.ourios.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmTest {
    @TempDir
    Path dir;

    /** Prints its arguments, a property and a variable; then exits with args[0], or blocks if it is "block". */
    public static final class Echo {
        public static void main(String[] args) throws Exception {
            System.out.println("prop=" + System.getProperty("echo.prop"));
            System.out.println("env=" + System.getenv("ECHO_ENV"));
            System.err.println("args=" + String.join(",", args));
            System.out.println("READY");
            System.out.flush();
            if (args[0].equals("block")) {
                new CountDownLatch(1).await(); // until killed
            }
            System.exit(Integer.parseInt(args[0]));
        }
    }

    @Test
    void runs_a_main_class_with_properties_env_and_args_and_captures_both_streams_to_files() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).heap("64m").property("echo.prop", "p1").env("ECHO_ENV", "e1")
                .args("3", "x y").logDir(dir).start()) {
            assertEquals(3, child.waitFor(Duration.ofMinutes(1)));
            assertEquals(List.of("prop=p1", "env=e1", "READY"), child.stdoutLines());
            assertEquals(List.of("args=3,x y"), child.stderrLines());
            assertEquals(child.stdout(), Files.readString(child.stdoutFile()));
            assertEquals("args=3,x y\n", Files.readString(child.stderrFile()));
            assertTrue(child.stdoutFile().startsWith(dir), child.stdoutFile().toString());
            assertTrue(child.command().contains("-Xmx64m"), child.command().toString());
        }
    }

    @Test
    void merged_output_has_one_stream_and_one_file() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).args("0").mergeStderr().logDir(dir).start()) {
            assertEquals(0, child.waitFor(Duration.ofMinutes(1)));
            assertTrue(child.stdoutLines().contains("args=0"), child.output());
            assertEquals(child.stdoutFile(), child.stderrFile());
            assertEquals(child.stdout(), child.output());
        }
    }

    @Test
    void awaits_a_line_then_kill9_reports_sigkill() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).args("block").logDir(dir).start()) {
            assertEquals("READY", child.awaitLine(Pattern.compile("^READY$"), Duration.ofMinutes(1)));
            assertEquals("args=block", child.awaitLine(ChildJvm.Output.STDERR, l -> l.startsWith("args="),
                    Duration.ofSeconds(10)));
            assertTrue(child.isAlive());
            assertTrue(child.kill9(), "was running");
            assertEquals(137, child.exitValue());
            assertFalse(child.kill9(), "already dead");
        }
    }

    @Test
    void a_line_that_never_comes_is_empty_once_the_child_exits_and_an_error_from_awaitLine() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).args("0").logDir(dir).start()) {
            assertTrue(child.tryAwaitLine(ChildJvm.Output.STDOUT, l -> l.equals("never"), Duration.ofMinutes(1))
                    .isEmpty());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> child.awaitLine(Pattern.compile("never"), Duration.ofMillis(10)));
            assertTrue(e.getMessage().contains("READY"), e.getMessage());
        }
    }

    @Test
    void waitFor_kills_a_child_that_outlives_its_timeout() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).args("block").logDir(dir).start()) {
            child.awaitLine(Pattern.compile("READY"), Duration.ofMinutes(1));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> child.waitFor(Duration.ofMillis(200)));
            assertTrue(e.getMessage().contains("killed") && e.getMessage().contains("READY"), e.getMessage());
            assertFalse(child.isAlive());
        }
    }

    @Test
    void terminate_sends_sigterm() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).args("block").logDir(dir).start()) {
            child.awaitLine(Pattern.compile("READY"), Duration.ofMinutes(1));
            assertEquals(143, child.terminate(Duration.ofMinutes(1)));
        }
    }

    @Test
    void environment_variables_can_be_removed() throws Exception {
        try (ChildJvm child = ChildJvm.main(Echo.class).env("ECHO_ENV", "x").removeEnv(k -> k.equals("ECHO_ENV"))
                .args("0").logDir(dir).start()) {
            assertEquals(0, child.waitFor(Duration.ofMinutes(1)));
            assertTrue(child.stdoutLines().contains("env=x"), "set after removals: " + child.stdout());
        }
        try (ChildJvm child = ChildJvm.main(Echo.class).removeEnv(k -> k.equals("PATH")).args("0").logDir(dir)
                .start()) {
            assertEquals(0, child.waitFor(Duration.ofMinutes(1)));
        }
    }
}
