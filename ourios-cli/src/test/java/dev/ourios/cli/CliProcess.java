package dev.ourios.cli;

import dev.ourios.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Runs the real CLI in a child JVM (as a user would through ./ourios) and captures its streams and exit status. */
final class CliProcess {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

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
        String name = args.length > 0 ? "ourios-" + args[0] : "ourios";
        if (args.length > 0 && args[0].equals("serve") && !env.containsKey("OURIOS_INGEST_GRPC_LISTEN")) {
            // serve's OTLP/gRPC receiver on any free port unless a test chooses one, so runs never collide.
            Map<String, String> all = new java.util.HashMap<>(env);
            all.put("OURIOS_INGEST_GRPC_LISTEN", "127.0.0.1:0");
            env = all;
        }
        try (ChildJvm cli = ChildJvm.main(Main.class).name(name).heap("512m").workDir(workDir)
                .removeEnv(k -> k.equals("OURIOS_STORE") || k.equals("OTEL_EXPORTER_OTLP_ENDPOINT")).env(env)
                .args(args).start()) {
            int exit = cli.waitFor(TIMEOUT);
            return new Result(exit, cli.stdout(), cli.stderr());
        }
    }

    static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(workDir, Map.of(), args);
    }
}
