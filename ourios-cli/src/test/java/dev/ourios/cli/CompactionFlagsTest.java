package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.cli.config.ConfigException;
import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.ConfigLoader;
import dev.ourios.cli.config.IcebergConfig;
import dev.ourios.cli.config.OuriosConfig;
import dev.ourios.cli.config.ResolvedConfig;
import dev.ourios.compaction.plan.CompactionOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The compaction flags: their defaults are the registry's, the same as {@code serve}'s configuration defaults; a
 * flag out of range is one usage line naming the flag, exit 2, before the store is touched.
 */
class CompactionFlagsTest {
    @TempDir
    Path dir;

    @Test
    void compact_without_flags_compacts_with_the_configuration_defaults() {
        CompactCommand compact = new CompactCommand();
        new CommandLine(compact).parseArgs();
        ConfigKeys keys = ConfigKeys.standard();
        ResolvedConfig resolved = new ConfigLoader(keys, Map.of()).load(Optional.empty(), Map.of());
        OuriosConfig serve = OuriosConfig.from(resolved, keys);
        // The variable of --row-group-bytes is read by compact only; with it unset both sides are adaptive.
        assertTrue(System.getenv(keys.get(ConfigKeys.ROW_GROUP_BYTES).env()) == null, "the variable is unset here");
        assertEquals(serve.compaction().options(), compact.flags.toOptions());
        assertEquals(serve.compaction().interval(), Units.parseDuration("--interval", compact.interval));
        CompactionOptions library = CompactionOptions.defaults(compact.flags.toOptions().scratchDir());
        assertEquals(library.sortBudgetBytes(), compact.flags.toOptions().sortBudgetBytes());
        assertEquals(library.grace(), compact.flags.toOptions().grace());
        assertEquals(library.maxTailRatio(), compact.flags.toOptions().maxTailRatio());
        assertEquals(library.maxFileBytes(), compact.flags.toOptions().maxFileBytes());
    }

    @Test
    void share_workers_outside_one_to_sixty_four_are_refused_naming_the_flag_and_a_count_reaches_the_options() {
        Path store = dir.resolve("store");
        for (String bad : List.of("0", "65")) {
            InProcessCli.Result r = InProcessCli.run("compact", "--store", store.toString(), "--once",
                    "--share-workers", bad);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains("--share-workers must be between 1 and 64 (got " + bad + ")"), r.err());
        }
        CompactCommand compact = new CompactCommand();
        new CommandLine(compact).parseArgs("--share-workers", "3");
        assertEquals(3, compact.flags.toOptions().shareWorkers());
        CompactCommand defaults = new CompactCommand();
        new CommandLine(defaults).parseArgs();
        assertEquals(1, defaults.flags.toOptions().shareWorkers());
        ConfigKeys keys = ConfigKeys.standard();
        ConfigException e = assertThrows(ConfigException.class, () -> OuriosConfig.from(new ConfigLoader(keys,
                Map.of("OURIOS_COMPACTION_SHARE_WORKERS", "65")).load(Optional.empty(), Map.of()), keys));
        assertTrue(e.getMessage().contains("compaction.share_workers"), e.getMessage());
    }

    @Test
    void a_max_file_bytes_below_one_mib_is_refused_naming_the_flag_and_a_size_reaches_the_options() {
        Path store = dir.resolve("store");
        InProcessCli.Result r = InProcessCli.run("compact", "--store", store.toString(), "--once",
                "--max-file-bytes", "512KiB");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--max-file-bytes must be at least 1MiB"), r.err());
        CompactCommand compact = new CompactCommand();
        new CommandLine(compact).parseArgs("--max-file-bytes", "8MiB");
        assertEquals(8L << 20, compact.flags.toOptions().maxFileBytes());
    }

    @Test
    void the_rollup_is_on_by_default_and_its_flags_and_setting_reach_the_options() {
        CompactCommand plain = new CompactCommand();
        new CommandLine(plain).parseArgs();
        assertEquals(true, plain.flags.toOptions().rollup());
        CompactCommand on = new CompactCommand();
        new CommandLine(on).parseArgs("--rollup");
        assertEquals(true, on.flags.toOptions().rollup());
        CompactCommand off = new CompactCommand();
        new CommandLine(off).parseArgs("--no-rollup");
        assertEquals(false, off.flags.toOptions().rollup());
        CompactionOptions fromEnv = OuriosConfig.from(new ConfigLoader(ConfigKeys.standard(),
                Map.of("OURIOS_COMPACTION_ROLLUP", "on")).load(Optional.empty(), Map.of()), ConfigKeys.standard())
                .compaction().options();
        assertEquals(true, fromEnv.rollup());
        CompactionOptions defaults = OuriosConfig.from(new ConfigLoader(ConfigKeys.standard(), Map.of())
                .load(Optional.empty(), Map.of()), ConfigKeys.standard()).compaction().options();
        assertEquals(true, defaults.rollup());
        CompactionOptions offFromEnv = OuriosConfig.from(new ConfigLoader(ConfigKeys.standard(),
                Map.of("OURIOS_COMPACTION_ROLLUP", "false")).load(Optional.empty(), Map.of()), ConfigKeys.standard())
                .compaction().options();
        assertEquals(false, offFromEnv.rollup());
    }

    @Test
    void serve_passes_either_form_of_the_rollup_flag_as_given_whatever_the_default() {
        picocli.CommandLine.ParseResult off = new CommandLine(new dev.ourios.cli.serve.ServeCommand())
                .parseArgs("--no-rollup");
        assertEquals(Boolean.FALSE, off.matchedOptionValue("--rollup", null));
        picocli.CommandLine.ParseResult on = new CommandLine(new dev.ourios.cli.serve.ServeCommand())
                .parseArgs("--rollup");
        assertEquals(Boolean.TRUE, on.matchedOptionValue("--rollup", null));
    }

    @Test
    void the_rollup_with_the_iceberg_view_is_accepted_the_view_lists_day_files() {
        Map<String, String> view = Map.of("OURIOS_COMPACTION_ROLLUP", "true", "OURIOS_ICEBERG_ENABLED", "true");
        ResolvedConfig resolved = new ConfigLoader(ConfigKeys.standard(), view).load(Optional.empty(), Map.of());
        assertTrue(IcebergConfig.from(resolved).enabled());
        assertTrue(OuriosConfig.from(resolved, ConfigKeys.standard()).compaction().options().rollup());
    }

    @Test
    void gc_without_flags_keeps_the_configuration_gc_grace_and_scratch() {
        GcCommand gc = new GcCommand();
        new CommandLine(gc).parseArgs();
        CompactionOptions defaults = OuriosConfig.from(new ConfigLoader(ConfigKeys.standard(), Map.of())
                .load(Optional.empty(), Map.of()), ConfigKeys.standard()).compaction().options();
        assertEquals(defaults.gcGrace(), Units.parseDuration("--grace", gc.grace));
        assertEquals(defaults.scratchDebrisAge(), Units.parseDuration("--scratch-debris-age", gc.scratchDebrisAge));
        assertEquals(defaults.scratchDir(), gc.scratch);
    }

    @Test
    void help_shows_the_registry_defaults() {
        String compact = oneLine(InProcessCli.run("compact", "--help").out());
        assertTrue(compact.contains("(default 64MiB)") && compact.contains("(default 15m)")
                && compact.contains("(default 0.5)") && compact.contains("(default 5m)"), compact);
        String gc = oneLine(InProcessCli.run("gc", "--help").out());
        assertTrue(gc.contains("Keep anything younger than this (default 10m)"), gc);
        String serve = oneLine(InProcessCli.run("serve", "--help").out());
        assertTrue(serve.contains("the config file, or 5m)") && serve.contains("(default 64MiB)"), serve);
        String sync = oneLine(InProcessCli.run("iceberg", "sync", "--help").out());
        assertTrue(sync.contains("(default: timestamp_ns)"), sync);
    }

    /** Help text with its line wrapping undone. */
    private static String oneLine(String help) {
        return help.replaceAll("\\s+", " ");
    }

    @Test
    void a_max_tail_ratio_that_is_not_a_fraction_is_refused_naming_the_flag() {
        Path store = dir.resolve("store");
        for (String bad : new String[] {"1.5", "-0.25", "NaN"}) {
            InProcessCli.Result r = InProcessCli.run("compact", "--store", store.toString(), "--once",
                    "--max-tail-ratio", bad);
            assertEquals(2, r.exit(), bad + ": " + r.err());
            assertTrue(r.err().contains("--max-tail-ratio must be between 0 and 1"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
        InProcessCli.Result word = InProcessCli.run("compact", "--store", store.toString(), "--once",
                "--max-tail-ratio", "quarter");
        assertEquals(2, word.exit(), word.err());
        assertTrue(word.err().contains("--max-tail-ratio"), word.err());
        assertTrue(!Files.exists(store), "nothing was created");
    }
}
