package dev.ourios.cli.config;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ourios config …}: the configuration of {@code ourios serve}. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Check the configuration of 'ourios serve'",
        subcommands = {ConfigCommand.Check.class})
public final class ConfigCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; see 'ourios config --help'");
    }

    /**
     * {@code ourios config check [--config F]}: validates the file with the environment's overrides exactly as
     * {@code serve} would at start, and prints the effective configuration (secrets masked) with each value's source.
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Validate a configuration file (with OURIOS_* overrides) and print the "
            + "effective configuration, secrets masked")
    public static final class Check implements Callable<Integer> {
        @Mixin
        ConfigFileOption config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Map<String, String> env = System.getenv();
            ConfigKeys keys = ConfigKeys.standard();
            ResolvedConfig resolved = new ConfigLoader(keys, env).load(config.file(env), Map.of());
            // Throws, naming the key, if anything is invalid, the keys file included.
            OuriosConfig.from(resolved, keys).auth().open(java.time.Clock.systemUTC());
            IcebergConfig.from(resolved);
            var out = spec.commandLine().getOut();
            out.println("# effective configuration of 'ourios serve' (valid); each value's source after '#'");
            out.print(resolved.toYaml());
            out.flush();
            return 0;
        }
    }
}
