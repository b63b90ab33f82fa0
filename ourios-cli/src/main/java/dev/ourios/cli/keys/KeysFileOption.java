package dev.ourios.cli.keys;

import dev.ourios.cli.UsageException;
import dev.ourios.cli.config.AuthConfig;
import dev.ourios.cli.config.ConfigFileOption;
import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.ConfigLoader;
import dev.ourios.security.KeysFileCodec;
import dev.ourios.security.KeysFileStore;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Which keys file an {@code ourios keys} command works on: {@code --keys-file}, else {@code OURIOS_AUTH_KEYS_FILE},
 * else {@code auth.keys_file} of the configuration file ({@code --config} or {@code OURIOS_CONFIG}), the same
 * resolution {@code serve} applies, so both name the same file.
 */
public final class KeysFileOption {
    @Option(names = "--keys-file", paramLabel = "FILE",
            description = "API keys file (default: $OURIOS_AUTH_KEYS_FILE or auth.keys_file of the config file)")
    String keysFile;

    @Mixin
    ConfigFileOption config;

    public KeysFileStore store(Map<String, String> env) {
        Map<String, String> flags = new HashMap<>();
        if (keysFile != null) {
            flags.put(ConfigKeys.AUTH_KEYS_FILE, keysFile);
        }
        AuthConfig auth = AuthConfig.resolve(new ConfigLoader(ConfigKeys.standard(), env)
                .load(config.file(env), flags));
        return new KeysFileStore(auth.keysFile().orElseThrow(() -> new UsageException("no keys file: give "
                + "--keys-file, set OURIOS_AUTH_KEYS_FILE, or set auth.keys_file in the configuration file")),
                new KeysFileCodec());
    }
}
