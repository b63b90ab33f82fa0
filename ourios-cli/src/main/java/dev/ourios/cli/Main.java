package dev.ourios.cli;

import dev.ourios.server.StartupException;
import dev.ourios.store.ObjectStore;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Entry point of the {@code ourios} command line (CLI.md). */
@Command(name = "ourios", mixinStandardHelpOptions = true, version = "ourios 0.1.0",
        description = "OpenTelemetry logs in Parquet on local disk or S3: ingest, compact, query.")
public final class Main implements Runnable {
    /**
     * The top-level commands, in the order the usage lists them. They are added by code rather than by the
     * annotation so that a run builds the full model (picocli reflects over every option of every command, most of
     * a second of a fresh JVM's time) only for the command it executes.
     */
    private static final List<Class<?>> COMMANDS = List.of(DemoCommand.class, GenerateCommand.class,
            IngestCommand.class, InspectCommand.class, CompactCommand.class, GcCommand.class, QueryCommand.class,
            StatsCommand.class, TailCommand.class, DeleteCommand.class, FilesCommand.class, VerifyCommand.class, IcebergCommand.class,
            dev.ourios.cli.serve.ServeCommand.class, dev.ourios.cli.config.ConfigCommand.class,
            dev.ourios.cli.keys.KeysCommand.class, dev.ourios.cli.wal.WalCommand.class);

    @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "Print stack traces with errors")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; see 'ourios --help'");
    }

    public static void main(String[] args) {
        if (RootUsage.isRootHelp(args)) {
            Optional<String> usage = RootUsage.packaged();
            if (usage.isPresent()) {
                System.out.print(usage.get());
                System.out.flush();
                System.exit(0);
            }
        }
        System.exit(run(args));
    }

    /**
     * Runs the CLI and returns its exit status: 0 ok, 1 the job failed, 2 bad usage or bad input. Picocli hands only
     * exceptions to the error handler; an {@code Error} that reaches here (commands report a partition's errors as
     * its result, so this is one outside any partition, or one that leaves the JVM unusable) is one line and 1 too.
     */
    public static int run(String... args) {
        return run(UnaryOperator.identity(), args);
    }

    /**
     * As {@link #run(String...)}, every store the command opens ({@code --store}) wrapped by {@code storeDecorator}:
     * how a harness runs a real command on a store of its own making (the chaos harness's, which halts the process
     * at a protocol step).
     */
    public static int run(UnaryOperator<ObjectStore> storeDecorator, String... args) {
        CommandLine cl = commandLineFor(storeDecorator, args);
        try {
            return cl.execute(args);
        } catch (Error e) {
            PrintWriter err = cl.getErr();
            // A stack overflow is one thread's, unwound by now: an error like any other, not the JVM's failure.
            err.println("ourios: " + (e instanceof VirtualMachineError fatal && !(e instanceof StackOverflowError)
                    ? fatalLine(fatal) : errorLine(e)));
            if (cl.getCommand() instanceof Main m && m.verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return 1;
        }
    }

    /** The one line for an error that leaves the JVM unusable: the process stops, whatever it was doing. */
    static String fatalLine(VirtualMachineError e) {
        String what = errorLine(e);
        return e instanceof OutOfMemoryError
                ? "out of memory (" + what + "); stopped, since nothing after this can be trusted; give the JVM "
                        + "more heap (JAVA_OPTS=-Xmx...)"
                : "the JVM failed (" + what + "); stopped, since nothing after this can be trusted";
    }

    /** An error's class and message: its message alone rarely says what it is (a missing class names the class). */
    static String errorLine(Error e) {
        String msg = e.getMessage();
        return TableText.escape(e.getClass().getSimpleName()
                + (msg == null || msg.isBlank() ? "" : ": " + msg.replace('\n', ' ')));
    }

    /**
     * The command tree with its error handling: every command and subcommand answers {@code --help}/{@code -h}
     * (usage on stdout, exit 0, before any required option is checked) and {@code --version}.
     */
    public static CommandLine commandLine() {
        return buildTree(COMMANDS, type -> type, CommandLine.defaultFactory());
    }

    /**
     * The tree {@code args} need, which behaves as {@link #commandLine()} does for them: when they name a top-level
     * command, that command in full and the others as summaries (name and description, all the root's usage and
     * "did you mean" need); otherwise summaries only.
     */
    public static CommandLine commandLineFor(String... args) {
        return commandLineFor(UnaryOperator.identity(), args);
    }

    private static CommandLine commandLineFor(UnaryOperator<ObjectStore> storeDecorator, String... args) {
        Optional<Class<?>> named = namedCommand(args);
        return buildTree(COMMANDS, type -> named.isPresent() && named.get() == type ? type : summaryOf(type),
                new DecoratingFactory(storeDecorator));
    }

    /** Builds every command's {@link StoreOptions} with the store decorator, everything else as picocli does. */
    private record DecoratingFactory(UnaryOperator<ObjectStore> storeDecorator) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (type == StoreOptions.class) {
                return type.cast(new StoreOptions(storeDecorator));
            }
            return CommandLine.defaultFactory().create(type);
        }
    }

    private static Optional<Class<?>> namedCommand(String[] args) {
        for (String arg : args) {
            if (arg.startsWith("-")) {
                continue; // the root's own options take no value
            }
            return COMMANDS.stream().filter(type -> names(type).contains(arg)).findFirst();
        }
        return Optional.empty();
    }

    private static List<String> names(Class<?> type) {
        Command c = type.getAnnotation(Command.class);
        List<String> names = new ArrayList<>(List.of(c.aliases()));
        names.add(0, c.name());
        return names;
    }

    /** What the root's usage shows of a command, read from its annotation without reflecting over its options. */
    private static CommandSpec summaryOf(Class<?> type) {
        Command c = type.getAnnotation(Command.class);
        CommandSpec spec = CommandSpec.create().name(c.name()).aliases(c.aliases());
        spec.usageMessage().header(c.header()).description(c.description()).hidden(c.hidden());
        return spec;
    }

    private static CommandLine buildTree(List<Class<?>> commands, Function<Class<?>, Object> model,
            CommandLine.IFactory factory) {
        CommandLine cl = new CommandLine(new Main(), factory);
        for (Class<?> type : commands) {
            cl.addSubcommand(model.apply(type));
        }
        String version = cl.getCommandSpec().version()[0];
        forEachCommand(cl, c -> c.getCommandSpec().version(version));
        // Plain text on a terminal too: the same bytes wherever the output goes, and the root's usage can be
        // printed from its packaged rendering (RootUsage).
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            boolean verbose = isVerbose(commandLine);
            PrintWriter err = commandLine.getErr();
            err.println("ourios: " + oneLine(ex));
            if (verbose) {
                ex.printStackTrace(err);
            }
            err.flush();
            return exitCodeOf(ex);
        });
        cl.setParameterExceptionHandler((ex, args2) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("ourios: " + oneLine(ex));
            err.flush();
            return 2;
        });
        return cl;
    }

    /** Visits {@code cl} and every subcommand below it, depth first. */
    public static void forEachCommand(CommandLine cl, java.util.function.Consumer<CommandLine> action) {
        action.accept(cl);
        for (CommandLine sub : cl.getSubcommands().values()) {
            forEachCommand(sub, action);
        }
    }

    private static boolean isVerbose(CommandLine cl) {
        CommandLine root = cl;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root.getCommand() instanceof Main m && m.verbose;
    }

    static int exitCodeOf(Throwable ex) {
        if (ex instanceof UsageException || ex instanceof StartupException) {
            return 2;
        }
        if (ex instanceof JobFailedException) {
            return 1;
        }
        return ErrorKinds.isBadInput(ex) ? 2 : 1;
    }

    static String oneLine(Throwable ex) {
        String msg = ex.getMessage();
        if (msg == null || msg.isBlank()) {
            msg = ex.getClass().getSimpleName();
        }
        return TableText.escape(msg.replace('\n', ' '));
    }
}
