package dev.ourios.cli.keys;

import dev.ourios.cli.Output;
import dev.ourios.cli.UsageException;
import dev.ourios.security.ApiKey;
import dev.ourios.security.KeysFile;
import dev.ourios.security.KeysFileException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ourios keys list [--json]}: names, status, tenants, scopes and times; never hashes or tokens. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the API keys (names, tenants, scopes, created, revoked)")
public final class ListKeysCommand implements Callable<Integer> {
    @Option(names = "--json", description = "One JSON object per key")
    boolean json;

    @Mixin
    KeysFileOption file;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        KeysFile keys;
        try {
            keys = file.store(System.getenv()).read();
        } catch (KeysFileException e) {
            throw new UsageException(e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        if (!json) {
            out.println(KeyTable.header());
        }
        for (ApiKey k : keys.keys()) {
            out.println(json ? Output.json(KeyTable.json(k)) : KeyTable.row(k));
        }
        out.flush();
        return 0;
    }
}
