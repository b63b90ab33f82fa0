package dev.ourios.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.IoRates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution order, strict YAML, errors naming the key and its source, masked printing. */
class ConfigLoaderTest {
    private final ConfigKeys keys = ConfigKeys.standard();

    @TempDir
    Path dir;

    private Path yaml(String text) throws Exception {
        Path f = dir.resolve("ourios.yaml");
        Files.writeString(f, text);
        return f;
    }

    private OuriosConfig config(Map<String, String> env, Path file, Map<String, String> flags) {
        return OuriosConfig.from(new ConfigLoader(keys, env).load(Optional.ofNullable(file), flags), keys);
    }

    @Test
    void flag_beats_env_beats_file_beats_default() throws Exception {
        Path f = yaml("compaction:\n  grace: 30m\n  gc_grace: 20m\n  min_files: 9\nhttp:\n  listen: 0.0.0.0:8080\n");
        OuriosConfig c = config(Map.of("OURIOS_COMPACTION_GRACE", "25m", "OURIOS_COMPACTION_GC_GRACE", "5m"), f,
                Map.of(ConfigKeys.GRACE, "1m"));
        assertEquals(Duration.ofMinutes(1), c.compaction().options().grace(), "flag");
        assertEquals(Duration.ofMinutes(5), c.compaction().options().gcGrace(), "env");
        assertEquals(9, c.compaction().options().minFiles(), "file");
        assertEquals(64, c.compaction().options().fanIn(), "default");
        assertEquals("0.0.0.0:8080", c.http().address());
        assertEquals(64 << 10, c.http().maxBodyBytes());
        assertEquals(Duration.ofMinutes(5), c.compaction().interval());
        assertTrue(c.compaction().enabled());
    }

    @Test
    void compaction_io_rates_default_to_unthrottled_and_resolve_from_file_env_and_flag() throws Exception {
        assertEquals(IoRates.UNLIMITED, config(Map.of(), null, Map.of()).compaction().options().ioRates());

        Path f = yaml("compaction:\n  max_read_rate: 64MiB\n  max_write_rate: 32MiB\n");
        assertEquals(new IoRates(64L << 20, 32L << 20), config(Map.of(), f, Map.of()).compaction().options().ioRates());
        OuriosConfig c = config(Map.of("OURIOS_COMPACTION_MAX_READ_RATE", "1MiB"), f,
                Map.of(ConfigKeys.MAX_WRITE_RATE, "0"));
        assertEquals(new IoRates(1L << 20, 0), c.compaction().options().ioRates(), "env, then flag (0 = unthrottled)");

        var bad = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_COMPACTION_MAX_WRITE_RATE", "fast"),
                null, Map.of()));
        assertTrue(bad.getMessage().contains("compaction.max_write_rate")
                && bad.getMessage().contains("OURIOS_COMPACTION_MAX_WRITE_RATE"), bad.getMessage());
    }

    @Test
    void the_max_tail_ratio_resolves_from_file_env_and_flag_and_refuses_what_is_not_a_fraction() throws Exception {
        assertEquals(0.5, config(Map.of(), null, Map.of()).compaction().options().maxTailRatio());
        Path f = yaml("compaction:\n  max_tail_ratio: 0.25\n");
        assertEquals(0.25, config(Map.of(), f, Map.of()).compaction().options().maxTailRatio());
        assertEquals(0.0, config(Map.of("OURIOS_COMPACTION_MAX_TAIL_RATIO", "0"), f, Map.of()).compaction().options()
                .maxTailRatio(), "env over file");
        for (String v : List.of("1.5", "-0.1", "NaN", "quarter")) {
            var bad = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_COMPACTION_MAX_TAIL_RATIO", v),
                    null, Map.of()), v);
            assertTrue(bad.getMessage().contains("compaction.max_tail_ratio")
                    && bad.getMessage().contains("OURIOS_COMPACTION_MAX_TAIL_RATIO"), bad.getMessage());
        }
    }

    @Test
    void blank_environment_variables_do_not_override() throws Exception {
        OuriosConfig c = config(Map.of("OURIOS_STORE", "  "), yaml("store:\n  uri: /data/logs\n"), Map.of());
        assertEquals("/data/logs", c.store().uri());
    }

    @Test
    void unknown_keys_sections_and_lists_are_rejected_naming_the_key() throws Exception {
        var unknown = assertThrows(ConfigException.class, () -> config(Map.of(), yaml("compaction:\n  gracee: 1m\n"),
                Map.of()));
        assertTrue(unknown.getMessage().contains("unknown key 'compaction.gracee'"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("compaction.grace"), "suggests the known keys: " + unknown);

        var top = assertThrows(ConfigException.class, () -> config(Map.of(), yaml("stores:\n  uri: x\n"), Map.of()));
        assertTrue(top.getMessage().contains("unknown key 'stores'"), top.getMessage());

        var section = assertThrows(ConfigException.class, () -> config(Map.of(), yaml("compaction: 5\n"), Map.of()));
        assertTrue(section.getMessage().contains("compaction is a section"), section.getMessage());

        var list = assertThrows(ConfigException.class, () -> config(Map.of(), yaml("http:\n  threads: [1, 2]\n"),
                Map.of()));
        assertTrue(list.getMessage().contains("http.threads"), list.getMessage());

        var dup = assertThrows(ConfigException.class, () -> config(Map.of(),
                yaml("http:\n  threads: 1\n  threads: 2\n"), Map.of()));
        assertTrue(dup.getMessage().contains("not valid YAML"), dup.getMessage());
    }

    @Test
    void bad_values_name_the_key_and_where_the_value_came_from() throws Exception {
        var fromFile = assertThrows(ConfigException.class, () -> config(Map.of(), yaml("compaction:\n  grace: 15x\n"),
                Map.of()));
        assertTrue(fromFile.getMessage().startsWith("compaction.grace: '15x' is not a duration"), fromFile.getMessage());

        var fromEnv = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_HTTP_THREADS", "many"), null,
                Map.of()));
        assertTrue(fromEnv.getMessage().startsWith("http.threads (env OURIOS_HTTP_THREADS): 'many' is not an integer"),
                fromEnv.getMessage());

        var rule = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_COMPACTION_FAN_IN", "1"), null,
                Map.of()));
        assertTrue(rule.getMessage().startsWith("compaction.fan_in (env OURIOS_COMPACTION_FAN_IN): must be at least 2"),
                rule.getMessage());

        var listen = assertThrows(ConfigException.class, () -> config(Map.of(), null,
                Map.of(ConfigKeys.HTTP_LISTEN, "4319")));
        assertTrue(listen.getMessage().startsWith("http.listen (flag --http)"), listen.getMessage());

        var pair = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_S3_ACCESS_KEY_ID", "AKIA"), null,
                Map.of()));
        assertTrue(pair.getMessage().startsWith("store.s3.secret_access_key: must be set together"),
                pair.getMessage());

        var scheme = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_STORE", "gs://bucket"), null,
                Map.of()));
        assertTrue(scheme.getMessage().startsWith("store.uri: unsupported store URI"), scheme.getMessage());

        var missing = assertThrows(ConfigException.class, () -> config(Map.of(), dir.resolve("nope.yaml"), Map.of()));
        assertTrue(missing.getMessage().contains("nope.yaml does not exist"), missing.getMessage());
    }

    @Test
    void s3_settings_reach_the_client_config() {
        OuriosConfig c = config(Map.of("OURIOS_STORE", "s3://logs/prod", "OURIOS_S3_ENDPOINT", "http://127.0.0.1:9000",
                "OURIOS_S3_ACCESS_KEY_ID", "AKIA", "OURIOS_S3_SECRET_ACCESS_KEY", "s3cr3t",
                "OURIOS_INGEST_WAL_DIR", "/var/lib/ourios-wal"), null, Map.of());
        var s3 = c.store().s3().orElseThrow();
        assertEquals(Path.of("/var/lib/ourios-wal"), c.ingest().settings().orElseThrow().walDir());
        assertEquals("logs", s3.bucket());
        assertEquals("prod", s3.prefix());
        assertEquals("http://127.0.0.1:9000", s3.endpoint().orElseThrow().toString());
        assertEquals("s3cr3t", s3.staticCredentials().orElseThrow().secretAccessKey());
        assertTrue(config(Map.of(), null, Map.of()).store().s3().isEmpty());
    }

    @Test
    void the_wal_defaults_beside_a_local_store_and_is_required_for_s3() {
        OuriosConfig local = config(Map.of("OURIOS_STORE", "/data/logs"), null, Map.of());
        assertEquals(Path.of("/data/ourios-wal"), local.ingest().settings().orElseThrow().walDir());
        assertEquals(4318, local.ingest().settings().orElseThrow().listen().getPort());
        ConfigException e = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_STORE",
                "s3://logs/prod"), null, Map.of()));
        assertTrue(e.getMessage().startsWith("ingest.wal_dir: required"), e.getMessage());
        assertTrue(config(Map.of("OURIOS_STORE", "s3://logs/prod", "OURIOS_INGEST_ENABLED", "false"), null, Map.of())
                .ingest().settings().isEmpty());
    }

    @Test
    void the_grpc_receiver_listens_on_4317_by_default_and_off_turns_it_off() throws Exception {
        assertEquals(4317, config(Map.of(), null, Map.of()).ingest().grpcListen().orElseThrow().getPort());
        assertEquals(9417, config(Map.of("OURIOS_INGEST_GRPC_LISTEN", "0.0.0.0:9417"), null, Map.of()).ingest()
                .grpcListen().orElseThrow().getPort());
        assertTrue(config(Map.of("OURIOS_INGEST_GRPC_LISTEN", "off"), null, Map.of()).ingest().grpcListen()
                .isEmpty());
        assertTrue(config(Map.of(), yaml("ingest:\n  grpc_listen: \"off\"\n"), Map.of()).ingest().grpcListen()
                .isEmpty(), "quoted in YAML");
        assertTrue(config(Map.of(), yaml("ingest:\n  grpc_listen: off\n"), Map.of()).ingest().grpcListen()
                .isEmpty(), "bare in YAML, where it may read as a boolean");
        assertTrue(config(Map.of(), null, Map.of("ingest.grpc_listen", "OFF")).ingest().grpcListen().isEmpty());
        ConfigException bad = assertThrows(ConfigException.class, () -> config(Map.of("OURIOS_INGEST_GRPC_LISTEN",
                "nowhere"), null, Map.of()));
        assertTrue(bad.getMessage().startsWith("ingest.grpc_listen (env OURIOS_INGEST_GRPC_LISTEN): 'nowhere' is not "
                + "host:port"), bad.getMessage());
    }

    @Test
    void the_keys_file_resolves_like_every_key_and_an_empty_auth_section_sets_nothing() throws Exception {
        assertTrue(config(Map.of(), null, Map.of()).auth().keysFile().isEmpty());
        Path f = yaml("auth:\n  keys_file: /etc/ourios/keys.json\n");
        assertEquals(Optional.of(Path.of("/etc/ourios/keys.json")), config(Map.of(), f, Map.of()).auth().keysFile());
        AuthConfig env = config(Map.of("OURIOS_AUTH_KEYS_FILE", "/k2.json"), f, Map.of()).auth();
        assertEquals(Optional.of(Path.of("/k2.json")), env.keysFile());
        assertEquals("auth.keys_file (env OURIOS_AUTH_KEYS_FILE)", env.label());
        assertEquals(Optional.of(Path.of("/k3.json")), config(Map.of("OURIOS_AUTH_KEYS_FILE", "/k2.json"), f,
                Map.of(ConfigKeys.AUTH_KEYS_FILE, "/k3.json")).auth().keysFile());
        assertTrue(config(Map.of(), yaml("auth:\n  # keys_file: /x.json\n"), Map.of()).auth().keysFile().isEmpty());
    }

    @Test
    void the_printed_configuration_masks_secrets_and_loads_back() throws Exception {
        ResolvedConfig r = new ConfigLoader(keys, Map.of("OURIOS_S3_SECRET_ACCESS_KEY", "s3cr3t",
                "OURIOS_S3_ACCESS_KEY_ID", "AKIA", "OURIOS_HTTP", "127.0.0.1:9999"))
                .load(Optional.of(yaml("compaction:\n  concurrency: 3\n")), Map.of());
        String printed = r.toYaml();
        assertFalse(printed.contains("s3cr3t"), printed);
        assertTrue(printed.contains("secret_access_key: \"********\"  # env OURIOS_S3_SECRET_ACCESS_KEY"), printed);
        assertTrue(printed.contains("concurrency: 3  # file "), printed);
        assertTrue(printed.contains("# endpoint: (unset)  # default"), printed);

        ResolvedConfig again = new ConfigLoader(keys, Map.of()).load(Optional.of(yaml(printed)), Map.of());
        for (Setting s : r.settings()) {
            if (!s.key().secret()) {
                assertEquals(s.value(), again.value(s.key().name()), s.key().name());
            }
        }
    }
}
