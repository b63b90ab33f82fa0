package dev.ourios.cli.keys;

import dev.ourios.cli.UsageException;
import dev.ourios.security.ApiKey;
import dev.ourios.security.KeysFileException;
import dev.ourios.security.KeysFileStore;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ourios keys revoke --name N}: marks the key revoked (the entry stays, so the name is not reused and the
 * file records when); a running server refuses it within about a second. Revoking a revoked key changes nothing.
 */
@Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke an API key; running servers refuse it within a second")
public final class RevokeKeyCommand implements Callable<Integer> {
    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The key to revoke")
    String name;

    @Mixin
    KeysFileOption file;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        KeysFileStore store = file.store(System.getenv());
        Instant now = Clock.systemUTC().instant().truncatedTo(ChronoUnit.SECONDS);
        AtomicReference<Optional<Instant>> before = new AtomicReference<>();
        try {
            store.update(f -> {
                ApiKey k = f.named(name).orElseThrow(() -> new UsageException(store.file() + ": no key named '"
                        + name + "'"));
                before.set(k.revoked());
                return k.isRevoked() ? f : f.replace(k.revokedAt(now));
            });
        } catch (KeysFileException e) {
            throw new UsageException(e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        out.println(before.get().map(t -> "key '" + name + "' was already revoked at " + t)
                .orElse("revoked key '" + name + "'"));
        out.flush();
        return 0;
    }
}
