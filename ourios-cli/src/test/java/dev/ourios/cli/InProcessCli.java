package dev.ourios.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs the CLI's real command tree in this JVM and captures what picocli itself prints: usage on stdout, error
 * lines on stderr. (Results a command prints go to the process's stdout; tests that read them use CliProcess.)
 */
final class InProcessCli {
    record Result(int exit, String out, String err) {
        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private InProcessCli() {
    }

    static Result run(String... args) {
        CommandLine cl = Main.commandLineFor(args);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }
}
