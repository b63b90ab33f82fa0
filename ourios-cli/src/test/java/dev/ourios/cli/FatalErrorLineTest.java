package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * What the CLI prints for an error that reaches it: an error that leaves the JVM unusable gets one line saying the
 * process stopped and why; any other error gets one line naming its class, since its message alone (a missing
 * class's path, or none) does not say what happened.
 */
class FatalErrorLineTest {
    @Test
    void outOfMemoryIsOneLineSayingTheProcessStopped() {
        assertEquals("out of memory (OutOfMemoryError: Java heap space); stopped, since nothing after this can be "
                + "trusted; give the JVM more heap (JAVA_OPTS=-Xmx...)",
                Main.fatalLine(new OutOfMemoryError("Java heap space")));
        assertEquals("the JVM failed (InternalError: a fault); stopped, since nothing after this can be trusted",
                Main.fatalLine(new InternalError("a fault")));
    }

    @Test
    void anyOtherErrorIsNamedByItsClassOnOneLine() {
        assertEquals("NoClassDefFoundError: org/xerial/snappy/Snappy",
                Main.errorLine(new NoClassDefFoundError("org/xerial/snappy/Snappy")));
        assertEquals("StackOverflowError", Main.errorLine(new StackOverflowError()));
        assertEquals("AssertionError: two lines", Main.errorLine(new AssertionError("two\nlines")));
    }
}
